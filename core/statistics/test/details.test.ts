import { columnsOf, parseDetails, searchAndSort } from '../details';

const ROWS = [
  { product: 'Mug', currency: 'EUR', sales: 5, revenue: { currency: 'EUR', value: 50 } },
  { product: 'Hat', currency: 'USD', sales: 1, revenue: { currency: 'USD', value: 30 } },
  { product: 'Tea 100%', currency: 'EUR', sales: 1, revenue: { currency: 'EUR', value: 8 } },
];

describe('details of a datatable', () => {
  const columns = columnsOf(['product'], ['sales', 'revenue'], ROWS);

  it('lists the dimensions, the metrics, then the other fields of the rows', () => {
    expect(columns).toEqual(['product', 'sales', 'revenue', 'currency']);
  });

  it('sorts money by its value and breaks ties by the dimension', () => {
    const by = (orderBy: string, order: 'asc' | 'desc') => searchAndSort(ROWS, parseDetails({ order_by: orderBy, order }, columns), ['product']).map((r) => r.product);
    expect(by('revenue', 'asc')).toEqual(['Tea 100%', 'Hat', 'Mug']);
    expect(by('sales', 'desc')).toEqual(['Mug', 'Hat', 'Tea 100%']);
    expect(by('sales', 'asc')).toEqual(['Hat', 'Tea 100%', 'Mug']);
  });

  it('searches every text field literally, whatever the case', () => {
    const search = (text: string) => searchAndSort(ROWS, parseDetails({ search: text }, columns), ['product']).map((r) => r.product);
    expect(search('%')).toEqual(['Tea 100%']);
    expect(search('usd')).toEqual(['Hat']);
    expect(search('_')).toEqual([]);
  });

  it('refuses an unknown column unless there are no rows to know the columns from', () => {
    expect(() => parseDetails({ order_by: 'nope' }, columns)).toThrow(expect.objectContaining({ status: 400, data: { field: 'order_by' } }));
    expect(parseDetails({ order_by: 'channel' }, ['domain'], true).orderBy).toBe('channel');
    expect(() => parseDetails({ order_by: 'DROP TABLE' }, ['domain'], true)).toThrow(expect.objectContaining({ data: { field: 'order_by' } }));
  });
});
