import type { SvcError } from '../errors';
import { problemsOf, refused } from '../field-problems';
import { problemOf, type Rule } from './rules';

/** The problem of a field that must be sent and was not. */
export const REQUIRED = 'is required';

/** A 400 naming `field` and what is wrong with it (`field: problem`, `data.field`). */
export const refuse = (field: string, problem: string): SvcError => refused([{ field, problem }]);

/** Refuses `field` when `value` breaks `rule`. */
export function check(rule: Rule, value: unknown, field: string): void {
  const problem = problemOf(rule, value);
  if (problem !== null) throw refuse(field, problem);
}

/** Not sent: missing, null or the empty string. */
export const absent = (value: unknown): boolean => value === undefined || value === null || value === '';

const FLAG: Rule = { enum: [true, false, 1, 0, '1', '0', 'true', 'false'], problem: 'must be true or false' };

/** The one meaning of a yes/no field: true, 1, "1" and "true" are yes; false, 0, "0" and "false" are no; anything else is refused. */
export function flag(value: unknown, field: string): boolean {
  check(FLAG, value, field);
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** A yes/no field that is no when it is not sent. */
export const optionalFlag = (value: unknown, field: string): boolean => (absent(value) ? false : flag(value, field));

export interface TextRule {
  /** Most characters (code points) after trimming. */
  max: number;
  /** Trim surrounding white space first (default true); multi-line texts keep theirs. */
  trim?: boolean;
  /** Cleans the text before the rule applies, instead of trimming it. */
  clean?: (raw: string) => string;
  /** Refuse a text that is empty after trimming. */
  required?: boolean;
  /** A pattern a non-empty text must match, and the words when it does not. */
  pattern?: { test: RegExp; problem: string };
}

const TEXT: Rule = { type: 'string', problem: 'must be text' };

/** A text of at most `max` characters. */
export function text(value: unknown, field: string, rule: TextRule): string {
  check(TEXT, value, field);
  const raw = value as string;
  const clean = rule.clean ? rule.clean(raw) : rule.trim === false ? raw : raw.trim();
  if (rule.required && clean.trim() === '') throw refuse(field, REQUIRED);
  check({ type: 'string', maxLength: rule.max }, clean, field);
  if (rule.pattern && clean !== '' && !rule.pattern.test.test(clean)) throw refuse(field, rule.pattern.problem);
  return clean;
}

/** One of `choices`, compared exactly (a number is not its text). */
export function choice<T extends string | number>(value: unknown, field: string, choices: readonly T[]): T {
  check({ enum: [...choices] }, value, field);
  return value as T;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A number sent as a number or as decimal text (`"12.50"`); NaN for anything else. */
export function numeric(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value.trim());
  return Number.NaN;
}

/** A whole number from `min` to `max`, sent as a number or as text. */
export function wholeNumber(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = numeric(value);
  const words = max === Number.MAX_SAFE_INTEGER ? `must be a whole number of ${min} or more` : `must be a whole number from ${min} to ${max}`;
  check({ type: 'integer', minimum: min, maximum: max, problem: words }, n, field);
  return n;
}

/** A JSON object (not an array, not null). */
export function object(value: unknown, field: string): Record<string, unknown> {
  check({ type: 'object', problem: 'must be an object' }, value, field);
  return value as Record<string, unknown>;
}

/** An object field that is `{}` when it is not sent. */
export const optionalObject = (value: unknown, field: string): Record<string, unknown> => (value === undefined || value === null ? {} : object(value, field));

// Control characters have no place in stored text; a multi-line text keeps tabs and line breaks.
const CONTROLS = 'must not contain control characters';
/** `TextRule.pattern` of a one-line text: no control characters, tabs or line breaks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const ONE_LINE = { test: /^[^\u0000-\u001f\u007f]*$/, problem: CONTROLS };
/** `TextRule.pattern` of a multi-line text: tabs and line breaks, no other control characters. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const MULTI_LINE = { test: /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, problem: CONTROLS };

/** Runs `read` for a part of an input, naming refused fields below `prefix` (`items[0].` + `price`). */
export function within<T>(prefix: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    const problems = problemsOf(err);
    if (!problems) throw err;
    throw refused(problems.map((p) => ({ ...p, field: `${prefix}${p.field}` })));
  }
}
