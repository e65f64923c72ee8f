import { FieldProblems, object, refuse, text, wholeNumber } from '../../../core';
import type { FunnelStep } from './shapes';

/** A funnel of a site (`{prefix}svc_funnels`). */
export interface Funnel {
  ID: number;
  name: string;
  steps: FunnelStep[];
  date_created: number;
  date_updated: number;
}

export interface FunnelInput {
  name: string;
  steps: FunnelStep[];
}

export const MIN_STEPS = 2;
export const MAX_STEPS = 8;

/** A path (`/…`) or `*`, with `*` standing for any characters; no spaces. */
const PAGE_PATTERN = /^(\*|\/)[^\s]*$/;

function readStep(raw: unknown, field: string): FunnelStep {
  const step = object(raw, field);
  const hasPage = step.page !== undefined;
  const hasGoal = step.goal !== undefined;
  if (hasPage === hasGoal) throw refuse(field, 'must have either a page or a goal');
  if (hasGoal) return { goal: wholeNumber(step.goal, `${field}.goal`, 1) };
  const page = text(step.page, `${field}.page`, { max: 255, required: true, pattern: { test: PAGE_PATTERN, problem: 'must be a path starting with / or *, with * for any characters' } });
  return { page };
}

/** A funnel's name and steps from a request body; every refused field in one 400. */
export function parseFunnelInput(body: unknown): FunnelInput {
  const input = object(body, 'body');
  const problems = new FieldProblems();
  const name = problems.check(() => text(input.name, 'name', { max: 190, required: true }), '');
  const steps = problems.check(() => {
    if (!Array.isArray(input.steps) || input.steps.length < MIN_STEPS || input.steps.length > MAX_STEPS) {
      throw refuse('steps', `must be a list of ${MIN_STEPS} to ${MAX_STEPS} steps`);
    }
    return input.steps.map((s: unknown, i: number) => problems.check(() => readStep(s, `steps.${i}`), { page: '*' }));
  }, []);
  problems.throwIfAny();
  return { name, steps };
}

/** The goal ids a funnel's steps name. */
export const goalIds = (steps: readonly FunnelStep[]): number[] => steps.flatMap((s) => ('goal' in s ? [s.goal] : []));

export function toFunnel(row: Record<string, unknown>): Funnel {
  return {
    ID: Number(row.ID),
    name: String(row.name),
    steps: JSON.parse(String(row.steps)) as FunnelStep[],
    date_created: Number(row.date_created),
    date_updated: Number(row.date_updated),
  };
}
