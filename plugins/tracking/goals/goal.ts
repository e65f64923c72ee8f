import { parse as parseSelector } from 'css-what';
import { badRequest, choice, FieldProblems, flag, refuse, text as readText, type TextRule, wholeNumber } from '../../../core';
import { cleanText } from '../collect/text';

export const GOAL_TYPES = ['clicks', 'views', 'visits', 'hook'] as const;
export const GOAL_STATUSES = ['active', 'inactive'] as const;
export const CONVERSION_METRICS = ['visitors', 'sessions', 'pageviews'] as const;

/** A goal definition (`{prefix}svc_goals`). */
export interface Goal {
  ID: number;
  title: string;
  type: (typeof GOAL_TYPES)[number];
  status: (typeof GOAL_STATUSES)[number];
  /** '*' for every page, else a path or URL. */
  url: string;
  page_id: number;
  selector: string;
  hook: string;
  conversion_metric: (typeof CONVERSION_METRICS)[number];
  block_goal: number;
  block_uid: string;
  date_created: number;
}

export type GoalInput = Omit<Goal, 'ID' | 'date_created'>;

export const GOAL_DEFAULTS: GoalInput = {
  title: '',
  type: 'clicks',
  status: 'inactive',
  url: '*',
  page_id: 0,
  selector: '',
  hook: '',
  conversion_metric: 'visitors',
  block_goal: 0,
  block_uid: '',
};

export function toGoal(row: Record<string, unknown>): Goal {
  return {
    ID: Number(row.ID),
    title: String(row.title ?? ''),
    type: row.type as Goal['type'],
    status: row.status as Goal['status'],
    url: String(row.url ?? '*'),
    page_id: Number(row.page_id ?? 0),
    selector: String(row.selector ?? ''),
    hook: String(row.hook ?? ''),
    conversion_metric: row.conversion_metric as Goal['conversion_metric'],
    block_goal: Number(row.block_goal ?? 0),
    block_uid: String(row.block_uid ?? ''),
    date_created: Number(row.date_created ?? 0),
  };
}

/** A goal's text, cleaned as tracked text is (controls become spaces) before the rule applies. */
const text = (field: string, value: unknown, max: number, pattern?: TextRule['pattern']): string =>
  readText(value, field, { max, clean: (raw) => cleanText(raw, max + 1), ...(pattern ? { pattern } : {}) });

/** A CSS selector the tracker can look for: it must parse (`>` is the child combinator), and it cannot carry markup. */
function selector(value: unknown): string {
  const clean = text('selector', value, 255, { test: /^[^<]*$/, problem: 'must not contain <' });
  if (clean === '') return clean;
  try {
    parseSelector(clean);
  } catch (err) {
    throw refuse('selector', `is not a CSS selector (${err instanceof Error ? err.message : String(err)}), e.g. #signup or button.buy`);
  }
  return clean;
}

const URL_PATTERN = { test: /^(\*|\/\S*|https?:\/\/\S+)$/, problem: 'must be * for every page, a path that starts with / or a full address starting with https://' };
const HOOK_PATTERN = { test: /^[A-Za-z0-9_.\-/]+$/, problem: 'may hold letters, digits and _ . - / only' };

/**
 * Validates a goal body for create (every field optional, defaults apply) or
 * update (only the fields given). Unknown fields are refused. Click and view
 * goals need a selector that parses (block goals get theirs from their uid);
 * hook goals need a hook name. Every problem is named in one 400.
 */
export function parseGoalInput(body: unknown, base: GoalInput, { creating = false } = {}): GoalInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The goal must be a JSON object.');
  const out: GoalInput = { ...base };
  const problems = new FieldProblems();
  const given = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) {
    problems.check(() => {
      switch (key) {
        case 'title':
          out.title = text('title', value, 255);
          break;
        case 'type':
          out.type = choice(value, 'type', GOAL_TYPES);
          break;
        case 'status':
          out.status = choice(value, 'status', GOAL_STATUSES);
          break;
        case 'url':
          out.url = text('url', value, 255, URL_PATTERN) || '*';
          break;
        case 'page_id':
          out.page_id = wholeNumber(value, 'page_id', 0);
          break;
        case 'selector':
          out.selector = selector(value);
          break;
        case 'hook':
          out.hook = text('hook', value, 191, HOOK_PATTERN);
          break;
        case 'conversion_metric':
          out.conversion_metric = choice(value, 'conversion_metric', CONVERSION_METRICS);
          break;
        case 'block_goal':
          out.block_goal = flag(value, 'block_goal') ? 1 : 0;
          break;
        case 'block_uid':
          out.block_uid = text('block_uid', value, 64, { test: /^[A-Za-z0-9_-]+$/, problem: 'may hold letters, digits, _ and - only' });
          break;
        case 'ID':
        case 'date_created':
        case 'svc_nonce':
          break;
        default:
          throw refuse(key.slice(0, 40), 'is not a goal field');
      }
    }, undefined);
  }
  if (out.block_goal === 1 && out.block_uid !== '' && out.selector === '') out.selector = `[data-svc-goal="${out.block_uid}"]`;
  const checksTarget = creating || 'type' in given || 'selector' in given || 'hook' in given;
  if (checksTarget && (out.type === 'clicks' || out.type === 'views') && out.selector === '') {
    problems.add('selector', `is needed for a ${out.type === 'clicks' ? 'click' : 'view'} goal: the element to watch, e.g. #signup or button.buy`);
  }
  if (checksTarget && out.type === 'hook' && out.hook === '') problems.add('hook', 'is needed for a hook goal');
  problems.throwIfAny();
  return out;
}
