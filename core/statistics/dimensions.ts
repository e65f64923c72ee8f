import type { Database } from '../db/database';

/**
 * A table joined onto the pageviews (alias `s`) when a dimension, filter or
 * metric needs it. SQL comes from code, never from a request.
 */
export interface JoinDef {
  id: string;
  /** Joins that must come before this one. */
  after?: readonly string[];
  sql(db: Database): string;
}

/** A column a query can group and filter by. */
export interface DimensionDef {
  name: string;
  label: string;
  /** SQL expression over the aliases the joins introduce. */
  expr: string;
  joins: readonly string[];
  /** Folded into the daily summaries, so ranges grouped or filtered by it avoid raw hits. */
  summarised?: boolean;
  /**
   * Its summaries also keep visitor sketches per value (`summary_dim_sketches`),
   * so distinct visitors grouped or filtered by it come from the summaries too.
   */
  sketched?: boolean;
  /** Other names accepted in requests (e.g. `utm_source` for `source`). */
  aliases?: readonly string[];
  /**
   * Values kept in rows of another table, any number per pageview (the goal):
   * a filter other than `is` one value asks whether the pageview has a
   * matching row (EXISTS / NOT EXISTS) instead of joining, so no pageview is
   * counted twice, and under a negation one without rows is kept.
   */
  rows?: { table: string; key: string; column: string };
  /**
   * Its value of a pageview is known when the pageview's day is folded and does
   * not change after (no later job fills it in), so the day blocks may hold it.
   * The kernel's dimensions are; a plugin's only when it says so.
   */
  settled?: boolean;
}

const t = (db: Database, name: string) => db.quote(db.table(name));

/** Joins of the kernel's statistics schema (migrations/0003-statistics.ts). */
export const CORE_JOINS: readonly JoinDef[] = [
  { id: 'session', sql: (db) => `LEFT JOIN ${t(db, 'sessions')} ses ON ses.ID = s.session_id` },
  { id: 'browser', after: ['session'], sql: (db) => `LEFT JOIN ${t(db, 'browsers')} br ON br.ID = ses.browser_id` },
  { id: 'browser_version', after: ['session'], sql: (db) => `LEFT JOIN ${t(db, 'browser_versions')} bv ON bv.ID = ses.browser_version_id` },
  { id: 'platform', after: ['session'], sql: (db) => `LEFT JOIN ${t(db, 'platforms')} pl ON pl.ID = ses.platform_id` },
  { id: 'platform_version', after: ['session'], sql: (db) => `LEFT JOIN ${t(db, 'platform_versions')} pv ON pv.ID = ses.platform_version_id` },
  { id: 'device', after: ['session'], sql: (db) => `LEFT JOIN ${t(db, 'devices')} dv ON dv.ID = ses.device_id` },
  { id: 'location', after: ['session'], sql: (db) => `LEFT JOIN ${t(db, 'locations')} loc ON loc.city_code = ses.city_code` },
  { id: 'goal', sql: (db) => `INNER JOIN ${t(db, 'goal_statistics')} gs ON gs.statistic_id = s.ID` },
];

/**
 * The host of the session's referrer, without a leading `www.`. Referrers are
 * stored as the `href` of a parsed http(s) URL, so the host sits between `://`
 * and the next `/`; SUBSTR and INSTR read alike on SQLite and MariaDB.
 */
function referrerDomainExpr(): string {
  const referrer = "COALESCE(ses.referrer, '')";
  const rest = `SUBSTR(${referrer}, INSTR(${referrer}, '://') + 3)`;
  const host = `CASE WHEN INSTR(${rest}, '/') > 0 THEN SUBSTR(${rest}, 1, INSTR(${rest}, '/') - 1) ELSE ${rest} END`;
  return `CASE WHEN ${referrer} = '' THEN '' WHEN ${host} LIKE 'www.%' THEN SUBSTR(${host}, 5) ELSE ${host} END`;
}

/** The dimensions of tracking.md's schema; plugins add more (campaign fields). */
export const CORE_DIMENSIONS: readonly DimensionDef[] = [
  { name: 'page_url', label: 'Page', expr: 's.page_url', joins: [], summarised: true },
  { name: 'page_type', label: 'Page type', expr: 's.page_type', joins: [], summarised: true },
  // The first and last page of each pageview's session: per session, so the summaries hold them like the referrer.
  { name: 'entry_page', label: 'Entry page', expr: "COALESCE(ses.first_visited_url, '')", joins: ['session'], summarised: true },
  { name: 'exit_page', label: 'Exit page', expr: "COALESCE(ses.last_visited_url, '')", joins: ['session'], summarised: true },
  { name: 'referrer', label: 'Referrer', expr: "COALESCE(ses.referrer, '')", joins: ['session'], summarised: true },
  { name: 'referrer_domain', label: 'Referring domain', expr: referrerDomainExpr(), joins: ['session'], summarised: true },
  { name: 'host', label: 'Domain', expr: "COALESCE(ses.host, '')", joins: ['session'], summarised: true },
  { name: 'browser', label: 'Browser', expr: "COALESCE(br.name, '')", joins: ['browser'], summarised: true },
  { name: 'browser_version', label: 'Browser version', expr: "COALESCE(bv.name, '')", joins: ['browser_version'], summarised: true },
  { name: 'platform', label: 'Platform', expr: "COALESCE(pl.name, '')", joins: ['platform'], summarised: true },
  { name: 'os_version', label: 'OS version', expr: "COALESCE(pv.name, '')", joins: ['platform_version'], summarised: true },
  { name: 'device', label: 'Device', expr: "COALESCE(dv.name, '')", joins: ['device'], summarised: true },
  { name: 'screen', label: 'Screen size', expr: "COALESCE(ses.screen, '')", joins: ['session'], summarised: true },
  { name: 'country', label: 'Country', expr: "COALESCE(loc.country_code, '')", joins: ['location'], summarised: true, aliases: ['country_code'] },
  { name: 'region', label: 'Region', expr: "COALESCE(loc.state, '')", joins: ['location'], aliases: ['state'] },
  { name: 'city', label: 'City', expr: "COALESCE(loc.city, '')", joins: ['location'] },
  { name: 'goal', label: 'Goal', expr: 'gs.goal_id', joins: ['goal'], summarised: true, sketched: true, aliases: ['goal_id'], rows: { table: 'goal_statistics', key: 'statistic_id', column: 'goal_id' } },
];

/** Internal grouping of the summaries: 1 for 404 hits, 0 for the rest. */
export const STATUS_EXPR = "CASE WHEN s.page_type = '404' THEN 1 ELSE 0 END";
