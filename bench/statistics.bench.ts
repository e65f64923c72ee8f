import { definePlugin } from '../core/plugins/manifest';
import { generateTraffic } from '../core/statistics/test/generator';
import { isoDay } from '../core/statistics/dates';
import { registerFunnels } from '../plugins/tracking/funnels/register';
import { funnels } from '../plugins/tracking/migrations/0005-funnels';
import { registerStatisticsTab } from '../plugins/tracking/statistics/register';
import type { Bench } from './run';
import { benchDialects, printBounds, startBenchKernel, timeRequests } from './support';

const PAGEVIEWS = Number(process.env.SVC_BENCH_PAGEVIEWS || 1_000_000);
const RUNS = Number(process.env.SVC_BENCH_RUNS || 100);
const WARMUP = 3;
const TARGET_P95_MS = 300;
const TARGET_RATIO = 3;
/** The first site's dashboard beside the others against alone. */
const TARGET_SITES_RATIO = 1.1;
const TZ = 'Europe/Amsterdam';

const filters = (...list: Array<{ key: string; value: string | string[]; operator?: string }>) => ({ filters: JSON.stringify(list) });
const ONE_FILTER = filters({ key: 'country', value: 'DE' });
const TWO_FILTERS = filters({ key: 'device', value: 'mobile' }, { key: 'page_url', operator: 'contains', value: 'blog' });
const THREE_FILTERS = filters({ key: 'browser', operator: 'is_not', value: 'Chrome' }, { key: 'country', value: ['DE', 'NL'] }, { key: 'referrer_domain', operator: 'contains', value: 'google' });

/** Every request the statistics dashboard makes for one period, its details views and filtered views. */
const DASHBOARD: Array<{ name: string; path: string; params?: Record<string, string> }> = [
  { name: 'compare', path: '/data/compare' },
  { name: 'insights', path: '/data/insights', params: { metrics: 'visitors,pageviews' } },
  { name: 'pages', path: '/data/datatable/pages', params: { limit: '10' } },
  { name: 'pages+visitors', path: '/data/datatable/pages', params: { limit: '10', metrics: 'visitors,pageviews,bounce_rate' } },
  { name: 'entry-pages', path: '/data/datatable/entry-pages', params: { limit: '10' } },
  { name: 'exit-pages', path: '/data/datatable/exit-pages', params: { limit: '10' } },
  { name: 'referrers', path: '/data/datatable/referrers', params: { limit: '10' } },
  { name: 'devices', path: '/data/devices', params: { limit: '10' } },
  { name: 'browsers', path: '/data/devices', params: { group_by: 'browser', limit: '10' } },
  { name: 'operating-systems', path: '/data/datatable/operating-systems', params: { limit: '10' } },
  { name: 'screen-sizes', path: '/data/datatable/screen-sizes', params: { limit: '10' } },
  { name: 'countries', path: '/data/datatable/countries', params: { limit: '10' } },
  { name: 'not-found-pages', path: '/data/datatable/not-found-pages', params: { limit: '10' } },
  { name: 'goals', path: '/data/goals' },
  { name: 'live-visitors', path: '/data/live-visitors' },
  // The funnel the bench defines on the first site (home page, pricing, its goal).
  { name: 'funnel', path: '/data/funnel', params: { funnel: '1' } },
  // A details view: every page, searched and sorted by visitors.
  { name: 'pages details', path: '/data/datatable/pages', params: { details: '1', search: '/', order_by: 'visitors', metrics: 'visitors,pageviews' } },
  { name: 'chart, 1 filter', path: '/data/insights', params: { metrics: 'visitors,pageviews', ...ONE_FILTER } },
  { name: 'pages, 1 filter', path: '/data/datatable/pages', params: { limit: '10', metrics: 'visitors,pageviews', ...ONE_FILTER } },
  { name: 'chart, 2 filters', path: '/data/insights', params: { metrics: 'visitors,pageviews', ...TWO_FILTERS } },
  { name: 'referrers, 2 filters', path: '/data/datatable/referrers', params: { limit: '10', ...TWO_FILTERS } },
  { name: 'chart, 3 filters', path: '/data/insights', params: { metrics: 'visitors,pageviews', ...THREE_FILTERS } },
  { name: 'pages, 3 filters', path: '/data/datatable/pages', params: { limit: '10', metrics: 'visitors,pageviews', ...THREE_FILTERS } },
  { name: 'funnel, 2 filters', path: '/data/funnel', params: { funnel: '1', ...TWO_FILTERS } },
];

const statisticsTab = definePlugin({
  name: 'statistics-tab',
  tier: 'free',
  migrations: [funnels],
  async register(ctx) {
    await registerStatisticsTab(ctx);
    registerFunnels(ctx);
  },
});

/** Sites of the second round: the first site's data stays, the others get as many pageviews between them. */
const SITES = Number(process.env.SVC_BENCH_SITES || 50);

/** Every dashboard request of both periods; prints p50/p95 and the bounds, and gives them by `period|name`. */
async function measure(api: string, auth: string, now: number, label: string, log: (line: string) => void): Promise<{ p50: Map<string, number>; p95: Map<string, number> }> {
  const today = isoDay(now, TZ);
  const periods = {
    '30 days': { date_start: isoDay(now - 29 * 86400, TZ), date_end: today },
    '12 months': { date_start: isoDay(now - 364 * 86400, TZ), date_end: today },
  };
  const requests = Object.entries(periods).flatMap(([period, range]) =>
    DASHBOARD.map((q) => ({ period, name: q.name, url: `${api}${q.path}?${new URLSearchParams({ ...range, ...q.params })}` })),
  );
  const times = await timeRequests(requests, { auth, runs: RUNS, warmup: WARMUP, label, log });
  printBounds(times.p95, DASHBOARD.map((q) => q.name), { short: '30 days', long: '12 months', targetMs: TARGET_P95_MS, targetRatio: TARGET_RATIO, label, log });
  return times;
}

const bench: Bench = {
  name: `statistics dashboard queries at ${PAGEVIEWS.toLocaleString('en')} pageviews, on one site and then beside ${SITES - 1} more`,
  async run(log) {
    for (const dialect of benchDialects()) {
      const bk = await startBenchKernel(dialect, { SVC_TIMEZONE: TZ, SVC_PLUGINS: 'statistics-tab' }, [statisticsTab]);
      try {
        const { kernel } = bk;
        const admin = (await kernel.users.findByLogin('admin'))!;
        const auth = `Basic ${Buffer.from(`admin:${(await kernel.appPasswords.create(admin, 'bench')).password}`).toString('base64')}`;
        const now = kernel.clock.unix();
        const load = async (siteIds: number[], label: string) => {
          let started = Date.now();
          await generateTraffic(kernel.db, { pageviews: PAGEVIEWS, days: 365, end: now, timezone: TZ, siteIds });
          log(`[${label}] loaded ${PAGEVIEWS.toLocaleString('en')} pageviews over 365 days in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          started = Date.now();
          const days = await kernel.statistics.folder.rebuild((done, total) => {
            if (done % 2000 === 0) log(`[${label}] folded ${done} of ${total} site-days (${((Date.now() - started) / 1000).toFixed(0)} s)`);
          });
          log(`[${label}] folded ${days} days into the summaries in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        };
        await load([1], dialect);
        // Funnel 1 of DASHBOARD: the generator's first goal (id 1, "Opened pricing") follows `/` and `/pricing`.
        const steps = JSON.stringify([{ page: '/' }, { page: '/pricing' }, { goal: 1 }]);
        await kernel.db.execute(`INSERT INTO ${kernel.db.quote(kernel.db.table('funnels'))} (site_id, name, steps, date_created, date_updated) VALUES (1, 'Bench', ?, ?, ?)`, [steps, now, now]);
        const cold = performance.now();
        const first = await fetch(`${bk.api}/data/datatable/pages?${new URLSearchParams({ date_start: isoDay(now - 364 * 86400, TZ), date_end: isoDay(now, TZ), ...THREE_FILTERS })}`, { headers: { authorization: auth } });
        await first.text();
        log(`[${dialect}] the first 12-month request with filters after the start read ${kernel.statistics.blocks.cached(1).length} day blocks in ${(performance.now() - cold).toFixed(0)} ms, holding ${(kernel.statistics.blocks.usedBytes / 1048576).toFixed(1)} of ${(kernel.statistics.blocks.limitBytes / 1048576).toFixed(0)} MB`);
        const oneSite = await measure(bk.api, auth, now, dialect, log);
        const rawChart = { id: 'bench_raw', siteId: 1, mode: 'raw' as const, range: { start: now - 30 * 86400, end: now }, metrics: ['visitors' as const, 'pageviews' as const], groupBy: ['day'], filters: [], status: '200' as const };
        await kernel.statistics.engine.run(rawChart);
        const t0 = performance.now();
        await kernel.statistics.engine.run(rawChart);
        log(`[${dialect}] for comparison, the 30-day chart from raw hits only: ${(performance.now() - t0).toFixed(0)} ms`);

        if (SITES < 2) continue;
        const label = `${dialect}, ${SITES} sites`;
        const others: number[] = [];
        for (let n = 2; n <= SITES; n++) others.push((await kernel.sites.add({ name: `Site ${n}`, domain: `site${n}.example` })).id);
        await load(others, label);
        const manySites = await measure(bk.api, auth, now, label, log);
        for (const stat of ['p50', 'p95'] as const) {
          const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
          const ratio = sum(manySites[stat]) / sum(oneSite[stat]);
          const each = [...manySites[stat]].map(([key, ms]) => ms / Math.max(1, oneSite[stat].get(key)!)).sort((a, b) => a - b);
          log(
            `[${label}] the first site's whole dashboard (${each.length} requests, sum of ${stat}s) beside ${SITES - 1} more sites: ${sum(manySites[stat]).toFixed(0)} ms against ${sum(oneSite[stat]).toFixed(0)} ms alone, ` +
              `ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_SITES_RATIO}): ${ratio <= TARGET_SITES_RATIO ? 'met' : 'MISSED'}; per request median ${each[Math.floor(each.length / 2)]!.toFixed(2)}, worst ${each[each.length - 1]!.toFixed(2)}`,
          );
        }
      } finally {
        await bk.stop();
      }
    }
  },
};

export default bench;
