import type { MetricName } from './types';

/**
 * The building blocks every metric is derived from. The additive ones sum
 * across days; visitors, first-time visitors and converted visitors (those
 * who completed a goal) are distinct counts (exact on raw hits, merged
 * sketches across summary days). `conversions` counts goal completions.
 */
export type Component = 'pageviews' | 'sessions' | 'bounces' | 'time_on_page' | 'conversions' | 'visitors' | 'first_time_visitors' | 'converted_visitors';

export const ADDITIVE: readonly Component[] = ['pageviews', 'sessions', 'bounces', 'time_on_page', 'conversions'];
export const DISTINCT: readonly Component[] = ['visitors', 'first_time_visitors', 'converted_visitors'];

export type Components = Record<Component, number>;

export const emptyComponents = (): Components => ({
  pageviews: 0,
  sessions: 0,
  bounces: 0,
  time_on_page: 0,
  conversions: 0,
  visitors: 0,
  first_time_visitors: 0,
  converted_visitors: 0,
});

/** Whether the pageview `s` completed a goal: 1 or 0 (with the goal join every row did). */
export function convertedSql(goalJoined: boolean, goalTable: string): string {
  return goalJoined ? '1' : `CASE WHEN EXISTS (SELECT 1 FROM ${goalTable} gx WHERE gx.statistic_id = s.ID) THEN 1 ELSE 0 END`;
}

/** Raw-hit SQL of each component. With the goal join each row is one completed goal. */
export function componentSql(component: Component, goalJoined: boolean, goalTable: string): string {
  switch (component) {
    case 'pageviews':
      return 'COUNT(*)';
    case 'sessions':
      return 'COUNT(DISTINCT s.session_id)';
    case 'bounces':
      return 'COUNT(DISTINCT CASE WHEN ses.bounce = 1 THEN s.session_id END)';
    case 'time_on_page':
      return 'COALESCE(SUM(s.time_on_page), 0)';
    case 'conversions':
      return goalJoined ? 'COUNT(*)' : `COALESCE(SUM((SELECT COUNT(*) FROM ${goalTable} gx WHERE gx.statistic_id = s.ID)), 0)`;
    case 'visitors':
      return 'COUNT(DISTINCT s.uid)';
    case 'first_time_visitors':
      return 'COUNT(DISTINCT CASE WHEN ses.first_time_visit = 1 THEN s.uid END)';
    case 'converted_visitors':
      return `COUNT(DISTINCT CASE WHEN ${convertedSql(goalJoined, goalTable)} = 1 THEN s.uid END)`;
  }
}

/** Components that need the session join. */
export const SESSION_COMPONENTS: ReadonlySet<Component> = new Set(['bounces', 'first_time_visitors']);

const round2 = (n: number) => Math.round(n * 100) / 100;
const ratio = (a: number, b: number, scale = 1) => (b > 0 ? round2((a / b) * scale) : 0);

interface MetricDef {
  needs: readonly Component[];
  derive(c: Components): number;
}

/**
 * Every metric as a function of components. Rates are percentages with two
 * decimals; durations are seconds with two decimals.
 */
export const METRIC_DEFS: Readonly<Record<MetricName, MetricDef>> = {
  pageviews: { needs: ['pageviews'], derive: (c) => c.pageviews },
  visitors: { needs: ['visitors'], derive: (c) => c.visitors },
  sessions: { needs: ['sessions'], derive: (c) => c.sessions },
  bounces: { needs: ['bounces'], derive: (c) => c.bounces },
  bounce_rate: { needs: ['bounces', 'sessions'], derive: (c) => ratio(c.bounces, c.sessions, 100) },
  avg_time_on_page: { needs: ['time_on_page', 'pageviews'], derive: (c) => ratio(c.time_on_page, c.pageviews) },
  avg_session_duration: { needs: ['time_on_page', 'sessions'], derive: (c) => ratio(c.time_on_page, c.sessions) },
  first_time_visitors: { needs: ['first_time_visitors'], derive: (c) => c.first_time_visitors },
  conversions: { needs: ['conversions'], derive: (c) => c.conversions },
  // Visitors who completed a goal, of all visitors: never above 100 % (a sketch estimate is capped).
  conversion_rate: { needs: ['converted_visitors', 'visitors'], derive: (c) => Math.min(100, ratio(c.converted_visitors, c.visitors, 100)) },
};

export function componentsFor(metrics: readonly MetricName[]): Component[] {
  const needed = new Set<Component>();
  for (const m of metrics) for (const c of METRIC_DEFS[m].needs) needed.add(c);
  return [...needed];
}

/** Percentage change from `previous` to `current`; null when there is nothing to compare with. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return round2(((current - previous) / previous) * 100);
}
