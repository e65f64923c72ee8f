import { parseFilters } from '../request';

const ctx = { canonical: (name: string) => (name === 'country_code' ? 'country' : ['page_url', 'country'].includes(name) ? name : null) };
const parse = (raw: unknown, operators = true) => parseFilters(raw, ['page_url', 'country'], ctx, operators);

describe('filter forms', () => {
  it('reads the documented forms as `is` one value', () => {
    const plain = [{ dimension: 'page_url', value: '/a' }, { dimension: 'country', value: 'NL' }];
    expect(parse('page_url:/a,country_code:NL').filters).toEqual(plain);
    expect(parse([{ key: 'page_url', value: '/a' }, 'country:NL']).filters).toEqual(plain);
    expect(parse('{"page_url":"/a","country":"NL"}').filters).toEqual(plain);
    expect(parse({ page_url: '/a', country: 'NL', status: '404' })).toEqual({ filters: plain, status: '404' });
  });

  it('reads operators and several values, dropping empty and repeated values', () => {
    expect(parse([{ key: 'page_url', operator: 'contains', value: ['/blog', '', '/blog', '/news'] }]).filters).toEqual([
      { dimension: 'page_url', value: '/blog', operator: 'contains', values: ['/blog', '/news'] },
    ]);
    expect(parse({ country: { operator: 'is', value: ['NL'] } }).filters).toEqual([{ dimension: 'country', value: 'NL' }]);
    expect(parse({ country: ['NL', 'DE'] }).filters).toEqual([{ dimension: 'country', value: 'NL', operator: 'is', values: ['NL', 'DE'] }]);
    expect(parse({ country: { operator: 'is_not', value: [] } }).filters).toEqual([]);
  });

  it('refuses operators and several values where a route takes plain filters only', () => {
    expect(parse({ country: 'NL' }, false).filters).toEqual([{ dimension: 'country', value: 'NL' }]);
    expect(() => parse({ country: { operator: 'is_not', value: 'NL' } }, false)).toThrow('Filter country: this route takes one value compared with is.');
    expect(() => parse({ country: ['NL', 'DE'] }, false)).toThrow(expect.objectContaining({ code: 'svc_invalid_filter', status: 400 }));
  });
});
