import { formatNumber } from '../../../core/assets/client';

/** A money amount in its currency, in the reader's locale. */
export function money(value: unknown, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(Number(value ?? 0));
  } catch {
    return `${formatNumber(value)} ${currency}`;
  }
}

export const percent = (value: unknown): string => `${formatNumber(Number(value ?? 0))} %`;

/** Percentage change; null when there is nothing to compare with (as the server computes it). */
export function change(current: number, previous: number): number | null {
  return previous === 0 ? null : Math.round(((current - previous) / previous) * 10_000) / 100;
}
