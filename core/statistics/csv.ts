import { stringify } from 'csv-stringify/sync';

/** Cells a spreadsheet would run as a formula: = + - @ tab and carriage return at the start. */
const FORMULA = /^[=+\-@\t\r]/;

/** Neutralises a text cell against formula injection (OWASP: prefix a single quote). */
export function safeCell(value: unknown): string | number {
  if (typeof value === 'number') return value;
  const text = value === null || value === undefined ? '' : String(value);
  return FORMULA.test(text) ? `'${text}` : text;
}

/** Rows as CSV with a header of `columns` (then any other keys found), every text cell made safe. */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns: readonly string[]): string {
  const all = [...columns];
  for (const row of rows) for (const key of Object.keys(row)) if (!all.includes(key)) all.push(key);
  const cells = rows.map((row) => all.map((c) => safeCell(row[c])));
  return stringify([all.map(safeCell), ...cells], { record_delimiter: '\r\n' });
}
