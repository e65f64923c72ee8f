import { type DataRequest, roomFor, type StatisticsApi } from '../../../core';
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
  // How far each session got, by the walk's session numbers, and the furthest step each visitor's sessions reached, by its visitor numbers.
  let progress: Uint8Array = new Uint8Array(4096);
  let reachedBy: Uint8Array = new Uint8Array(1024);
  const source = { siteId, range: req.range, status: req.status, filters: req.filters, tag: pageMask };
  await stats.walkPageviews(source, (pv) => {
    let m = pv.tag;
    for (let g = 0; g < pv.goals.length; g++) m |= goalBits.get(pv.goals[g]!) ?? 0;
    if (m === 0) return;
    if (pv.session >= progress.length) progress = roomFor(progress, pv.session, (n) => new Uint8Array(n));
    let next = progress[pv.session]!;
    const before = next;
    while (next < steps.length && (m & (1 << next)) !== 0) next++;
    if (next === before) return;
    progress[pv.session] = next;
    if (pv.visitor >= reachedBy.length) reachedBy = roomFor(reachedBy, pv.visitor, (n) => new Uint8Array(n));
    if (next > reachedBy[pv.visitor]!) reachedBy[pv.visitor] = next;
  });
  // Visitors who stopped at each step, then, from the last step back, those who got at least that far.
  const counts = new Array<number>(steps.length + 1).fill(0);
  for (let v = 0; v < reachedBy.length; v++) counts[reachedBy[v]!]!++;
  for (let i = steps.length - 1; i > 0; i--) counts[i]! += counts[i + 1]!;
  counts.shift();
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
