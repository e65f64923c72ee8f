import type { DataRequest, StatisticsApi } from '../../../core';
import type { Funnel } from './funnel';
import type { FunnelStepFigures } from './shapes';

const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 10000) / 100 : 0);

/** A page step's pattern as LIKE reads it: `*` any run of characters, ASCII letters in either case. */
const pageTest = (page: string): RegExp => new RegExp(`^${page.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'is');

/**
 * Each step's visitors for the request's period, site and filters. A
 * session reaches a step when, at the pageview that reached the step before
 * or later, one of its pageviews matches it (the pageview of a page step can
 * also complete the following goal step); a visitor counts at a step when any
 * of their sessions of the period reached it. The pageviews come in time
 * order, each session's progress kept as they pass.
 */
export async function funnelFigures(stats: StatisticsApi, siteId: number, req: DataRequest, funnel: Funnel, labels: readonly string[]): Promise<FunnelStepFigures[]> {
  const steps = funnel.steps;
  const pageSteps = steps.flatMap((step, i) => ('page' in step ? [{ bit: 1 << i, test: pageTest(step.page) }] : []));
  const goalBits = new Map<number, number>();
  steps.forEach((step, i) => 'goal' in step && goalBits.set(step.goal, (goalBits.get(step.goal) ?? 0) | (1 << i)));
  const pageMasks = new Map<string, number>();
  const pageMask = (page: string): number => {
    let m = pageMasks.get(page);
    if (m === undefined) {
      m = 0;
      for (const p of pageSteps) if (p.test.test(page)) m |= p.bit;
      pageMasks.set(page, m);
    }
    return m;
  };
  const progress = new Map<number, number>();
  // The furthest step each visitor's sessions reached, by the walk's visitor numbers.
  let reachedBy = new Uint8Array(1024);
  const source = { siteId, range: req.range, status: req.status, filters: req.filters, tag: pageMask };
  // A session's pageviews of a day come one after another: its progress is looked up once per run of them.
  let session = -1;
  let next = 0;
  await stats.walkPageviews(source, (pv) => {
    let m = pv.tag;
    for (let g = 0; g < pv.goals.length; g++) m |= goalBits.get(pv.goals[g]!) ?? 0;
    if (m === 0) return;
    if (pv.session !== session) {
      session = pv.session;
      next = progress.get(session) ?? 0;
    }
    const before = next;
    while (next < steps.length && (m & (1 << next)) !== 0) next++;
    if (next === before) return;
    progress.set(session, next);
    if (pv.visitor >= reachedBy.length) {
      const grown = new Uint8Array(Math.max(pv.visitor + 1, reachedBy.length * 2));
      grown.set(reachedBy);
      reachedBy = grown;
    }
    if (next > reachedBy[pv.visitor]!) reachedBy[pv.visitor] = next;
  });
  const counts = steps.map(() => 0);
  for (const reached of reachedBy) for (let i = 0; i < reached; i++) counts[i]!++;
  return counts.map((visitors, i) => {
    const before = i === 0 ? visitors : counts[i - 1]!;
    return {
      step: i + 1,
      label: labels[i] ?? '',
      visitors,
      conversion_rate: percent(visitors, counts[0]!),
      drop_off: before - visitors,
      drop_off_rate: percent(before - visitors, before),
    };
  });
}
