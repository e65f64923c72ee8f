import { PAGE_TYPES, addBodyAttributes, bodyAttributes } from '../page-type';

describe('page typing (tracking.md §2.4)', () => {
  it('writes the id and type attributes for every documented type and post type slugs', () => {
    for (const type of PAGE_TYPES) expect(bodyAttributes({ type })).toBe(` data-svc_id="0" data-svc_type="${type}"`);
    expect(bodyAttributes({ id: 42, type: 'product' })).toBe(' data-svc_id="42" data-svc_type="product"');
    expect(bodyAttributes({ id: 7, type: 'my_custom-type' })).toBe(' data-svc_id="7" data-svc_type="my_custom-type"');
  });

  it('refuses ids and types the pipeline would not store, naming the field', () => {
    for (const id of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => bodyAttributes({ id, type: 'page' })).toThrow(/page id/);
    for (const type of ['', 'Page', 'two words', '"><script>', 'x'.repeat(51), 42 as unknown as string, undefined as unknown as string]) {
      expect(() => bodyAttributes({ id: 1, type })).toThrow(/page type/);
    }
  });

  it('adds them to the first body tag only, keeping its attributes', () => {
    const page = { id: 3, type: 'post' };
    expect(addBodyAttributes('<html><body class="a">x<body></html>', page)).toBe('<html><body class="a" data-svc_id="3" data-svc_type="post">x<body></html>');
    expect(addBodyAttributes('<BODY>', page)).toBe('<BODY data-svc_id="3" data-svc_type="post">');
    expect(addBodyAttributes('<body data-x="a>b" onload=\'f(">")\'>', page)).toBe('<body data-x="a>b" onload=\'f(">")\' data-svc_id="3" data-svc_type="post">');
    expect(addBodyAttributes('<body/>', page)).toBe('<body data-svc_id="3" data-svc_type="post"/>');
    expect(addBodyAttributes('<bodyguard><body>', page)).toBe('<bodyguard><body data-svc_id="3" data-svc_type="post">');
  });

  it('leaves XML, pages without a body tag and pages already typed alone', () => {
    const page = { id: 3, type: 'post' };
    expect(addBodyAttributes('<?xml version="1.0"?><rss><body></body></rss>', page)).toBe('<?xml version="1.0"?><rss><body></body></rss>');
    expect(addBodyAttributes('<p>fragment</p>', page)).toBe('<p>fragment</p>');
    expect(addBodyAttributes('<body data-svc_type="page">', page)).toBe('<body data-svc_type="page">');
    expect(() => addBodyAttributes('<body>', { type: 'Bad Type' })).toThrow(/page type/);
  });
});
