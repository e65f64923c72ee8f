import { type SvcError, badRequest, isSvcError } from './errors';

/** One refused field of an input: its name as the API spells it and what is wrong with it. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/**
 * A 400 naming every refused field: `field: problem; …` in the message, the
 * first field in `data.field` and, when there are several, each one in
 * `data.problems`, so a form can show them all at once next to their fields.
 */
export const refused = (problems: readonly FieldProblem[]): SvcError =>
  badRequest(problems.map((p) => `${p.field}: ${p.problem}`).join('; '), 'svc_invalid_param', {
    field: problems[0]!.field,
    ...(problems.length > 1 ? { problems: [...problems] } : {}),
  });

/** The refused fields of a 400 that names its field (`data.field`), or null for any other error. */
export function problemsOf(err: unknown): FieldProblem[] | null {
  if (!isSvcError(err) || err.status !== 400 || typeof err.data?.field !== 'string') return null;
  if (Array.isArray(err.data.problems)) return err.data.problems as FieldProblem[];
  const field = err.data.field;
  return [{ field, problem: err.message.startsWith(`${field}: `) ? err.message.slice(field.length + 2) : err.message }];
}

/**
 * Collects every refused field of one input instead of stopping at the
 * first: `check` runs a parse and notes its refusal, `throwIfAny` ends with
 * one 400 naming them all.
 */
export class FieldProblems {
  private readonly list: FieldProblem[] = [];

  check<T>(parse: () => T, fallback: T): T {
    try {
      return parse();
    } catch (err) {
      const problems = problemsOf(err);
      if (!problems) throw err;
      this.list.push(...problems);
      return fallback;
    }
  }

  /** Notes a problem of `field` unless that field was refused already. */
  add(field: string, problem: string): void {
    if (!this.has(field)) this.list.push({ field, problem });
  }

  has(field: string): boolean {
    return this.list.some((p) => p.field === field);
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw refused(this.list);
  }
}
