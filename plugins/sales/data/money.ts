import { round } from '../db';

const digits = new Map<string, number>();

/** Minor-unit digits of a currency (2 for EUR, 0 for JPY, 3 for KWD). */
export function minorDigits(currency: string): number {
  let d = digits.get(currency);
  if (d === undefined) {
    d = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digits.set(currency, d);
  }
  return d;
}

/** A money value rounded to the currency's minor unit. */
export const roundMoney = (value: number, currency: string): number => round(value, minorDigits(currency));

/** A money object of the datatables (ecommerce.md §2). */
export const moneyObject = (value: number, currency: string) => ({ currency, value: roundMoney(value, currency) });

/** `part` as a percentage of `whole` with two decimals; 0 when `whole` is 0. */
export const percent = (part: number, whole: number): number => (whole > 0 ? round((part / whole) * 100) : 0);
