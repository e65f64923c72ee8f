import { refused, type SvcError } from '../../../core';

/** A 400 that names the offending field, in the message and in `data.field`. */
export const invalid = (field: string, message: string): SvcError => refused([{ field, problem: message }]);

// Control characters other than tab and line breaks have no place in stored text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const LINE_CONTROL = /[\u0000-\u001f\u007f]/;

/** A string of at most `max` characters; `singleLine` also refuses tabs and line breaks. */
export function text(raw: unknown, field: string, { max, singleLine = false, required = false }: { max: number; singleLine?: boolean; required?: boolean }): string {
  if (typeof raw !== 'string') throw invalid(field, 'must be a string');
  const value = singleLine ? raw.trim() : raw;
  if (required && value.trim() === '') throw invalid(field, 'must not be empty');
  if (value.length > max) throw invalid(field, `must be at most ${max} characters`);
  if ((singleLine ? LINE_CONTROL : CONTROL).test(value)) throw invalid(field, 'must not contain control characters');
  return value;
}

/** true/false, also written 1/0. */
export function bool(raw: unknown, field: string): boolean {
  if (raw === true || raw === 1) return true;
  if (raw === false || raw === 0) return false;
  throw invalid(field, 'must be true or false');
}

/** One of `allowed`. */
export function oneOf<T extends string | number>(raw: unknown, allowed: readonly T[], field: string): T {
  if (!allowed.includes(raw as T)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return raw as T;
}
