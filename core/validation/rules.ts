import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * One value's rule, as a JSON Schema checked by ajv. `problem` (an
 * annotation of the kit) gives the words for any refusal of that rule;
 * without it the words come from the failing keyword (`wordsOf`).
 */
export type Rule = Record<string, unknown> & { problem?: string };

// Lengths count characters (code points), as the database columns do.
const ajv = new Ajv({ allErrors: false, strict: true });
ajv.addKeyword({ keyword: 'problem', schemaType: 'string' });

const compiled = new Map<string, ValidateFunction>();

function validatorOf(rule: Rule): ValidateFunction {
  const key = JSON.stringify(rule);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rule);
    compiled.set(key, validate);
  }
  return validate;
}

/** The words for one refusal of ajv, in the way every input of the service says it. */
export function wordsOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    default:
      return error.message ?? 'is not valid';
  }
}

/** What is wrong with `value` under `rule`, or null when it passes. */
export function problemOf(rule: Rule, value: unknown): string | null {
  const validate = validatorOf(rule);
  if (validate(value)) return null;
  return rule.problem ?? wordsOf(validate.errors![0]!);
}
