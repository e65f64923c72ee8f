/**
 * The input validation kit: every field of an input is read by one of these
 * readers, so "true", a whole number or a text mean the same everywhere, and
 * every refusal is a 400 naming its field (`svc_invalid_param`,
 * `field: problem`, `data.field`; several at once through `FieldProblems`).
 */
export { type FieldProblem, FieldProblems, problemsOf, refused } from '../field-problems';
export { MULTI_LINE, ONE_LINE, REQUIRED, absent, choice, flag, numeric, object, optionalFlag, optionalObject, refuse, text, type TextRule, wholeNumber, within } from './readers';
