import { stringify } from 'csv-stringify/sync';

/** Cells a spreadsheet would run as a formula: = + - @ tab and carriage return at the start. */
const FORMULA = /^[=+\-@\t\r]/;

/** Neutralises a text cell against formula injection (OWASP: prefix a single quote); other objects become JSON. */
export function safeCell(value: unknown): string | number {
  if (typeof value === 'number') return value;
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA.test(text) ? `'${text}` : text;
}

interface Money {
  currency: string;
  value: number;
}

/** A money cell of the datatables: `{ currency, value }`. */
function isMoney(value: unknown): value is Money {
  if (typeof value !== 'object' || value === null) return false;
  const { currency, value: amount } = value as Record<string, unknown>;
  return typeof currency === 'string' && typeof amount === 'number';
}

/**
 * Rows as CSV with a header of `columns` (then any other keys found), every
 * text cell made safe. A column holding money is written as its value,
 * followed by a `<column>_currency` column.
 */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns: readonly string[]): string {
  const all = [...new Set(columns)];
  for (const row of rows) for (const key of Object.keys(row)) if (!all.includes(key)) all.push(key);
  const money = new Set(all.filter((c) => rows.some((row) => isMoney(row[c]))));
  const header = all.flatMap((c) => (money.has(c) ? [c, `${c}_currency`] : [c]));
  const cells = rows.map((row) =>
    all.flatMap((c) => {
      const cell = row[c];
      if (!money.has(c)) return [safeCell(cell)];
      return isMoney(cell) ? [cell.value, safeCell(cell.currency)] : [safeCell(cell), ''];
    }),
  );
  return stringify([header.map(safeCell), ...cells], { record_delimiter: '\r\n' });
}
