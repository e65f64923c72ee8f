import {
  type CardSpec,
  type Comparison,
  countryName,
  DataPage,
  renderCards,
  renderTable,
  type Row,
  type Section,
  type TableSpec,
} from '../../../core/assets/client';
import { MetricChart } from './metric-chart';
import { startOnboarding } from './onboarding';

const CARDS: CardSpec[] = [
  { metric: 'visitors', label: 'Visitors' },
  { metric: 'pageviews', label: 'Pageviews' },
  { metric: 'sessions', label: 'Sessions' },
  { metric: 'bounce_rate', label: 'Bounce rate', format: 'percent', lowerIsBetter: true },
  { metric: 'avg_time_on_page', label: 'Time on page', format: 'duration' },
  { metric: 'conversions', label: 'Conversions' },
];

const NO_DATA = 'No visits in this period. Add the tracking script to your site, or choose a longer period.';
const sessionsAndViews = [{ key: 'sessions', label: 'Sessions' }, { key: 'pageviews', label: 'Pageviews' }];
/** The viewport classes of the tracker's `screen` field (README "Screen sizes"). */
const SCREEN_LABELS: Record<string, string> = { mobile: 'Mobile <576px', tablet: 'Tablet <992px', laptop: 'Laptop <1440px', desktop: 'Desktop ≥1440px' };
const shares = [{ key: 'sessions', label: 'Sessions' }, { key: 'share', label: 'Share', format: 'percent' as const }];

/** A ranked table section; clicking a row filters the whole page by it. */
function table(key: string, path: string, spec: TableSpec, extra: Record<string, unknown> = {}, filterKey = spec.dimension): Section<Row[]> {
  return {
    selector: `[data-table="${key}"]`,
    fetch: (page) => page.api.get<Row[]>(path, page.params({ limit: 10, ...extra })),
    render: (target, rows, page) => renderTable(target, spec, rows, (_d, value) => page.setFilter(filterKey, value)),
  };
}

const root = document.getElementById('svc-stats');
if (root) {
  const chart = new MetricChart(root.querySelector<HTMLElement>('.chart-card')!, CARDS, NO_DATA);
  let goalTitles = new Map<string, string>();
  const sections: Section[] = [
    {
      selector: '[data-compare]',
      fetch: (page) => page.api.get<Comparison>('/data/compare', page.params()),
      render: (target, data, page) => renderCards(target, CARDS, data as Comparison, chart.pick(page)),
    },
    chart.section as Section,
    table('pages', '/data/datatable/pages', { title: 'Page', dimension: 'page_url', empty: NO_DATA, columns: [
      { key: 'pageviews', label: 'Pageviews' }, { key: 'sessions', label: 'Sessions' }, { key: 'avg_time_on_page', label: 'Time', format: 'duration' }] }),
    table('referring-domains', '/data/datatable/referring-domains', { title: 'Domain', dimension: 'referrer_domain', empty: 'No visits came from other sites in this period.',
      label: (v) => v || 'Direct / none', columns: [{ key: 'sessions', label: 'Sessions' }, { key: 'bounce_rate', label: 'Bounce', format: 'percent' }] }),
    table('referrers', '/data/datatable/referrers', { title: 'Referrer', dimension: 'referrer', empty: 'No visits came from other sites in this period.',
      label: (v) => v || 'Direct / none', columns: [{ key: 'sessions', label: 'Sessions' }, { key: 'bounce_rate', label: 'Bounce', format: 'percent' }] }),
    table('entry-pages', '/data/datatable/entry-pages', { title: 'Entry page', dimension: 'entry_page', empty: NO_DATA, columns: [
      { key: 'sessions', label: 'Sessions' }, { key: 'bounce_rate', label: 'Bounce', format: 'percent' }] }),
    table('exit-pages', '/data/datatable/exit-pages', { title: 'Exit page', dimension: 'exit_page', empty: NO_DATA, columns: [
      { key: 'sessions', label: 'Sessions' }, { key: 'pageviews', label: 'Pageviews' }] }),
    table('operating-systems', '/data/datatable/operating-systems', { title: 'Operating system', dimension: 'platform', empty: NO_DATA, columns: sessionsAndViews }),
    table('browser-versions', '/data/datatable/browser-versions', { title: 'Browser version', dimension: 'browser_version', empty: NO_DATA,
      label: (v) => v || 'Unknown', columns: sessionsAndViews }),
    table('screen-sizes', '/data/datatable/screen-sizes', { title: 'Screen size', dimension: 'screen', empty: NO_DATA,
      label: (v) => SCREEN_LABELS[v] ?? (v || 'Not sent'), columns: sessionsAndViews }),
    table('devices', '/data/devices', { title: 'Device', dimension: 'device', empty: NO_DATA, columns: shares }),
    table('browsers', '/data/devices', { title: 'Browser', dimension: 'browser', empty: NO_DATA, columns: shares }, { group_by: 'browser' }),
    table('countries', '/data/datatable/countries', { title: 'Country', dimension: 'country', empty: 'No locations recorded in this period.',
      label: countryName, columns: [{ key: 'sessions', label: 'Sessions' }, { key: 'pageviews', label: 'Pageviews' }] }),
    table('not-found-pages', '/data/datatable/not-found-pages', { title: 'Missing page', dimension: 'page_url',
      empty: 'No visitor hit a missing page in this period.', columns: [{ key: 'pageviews', label: 'Hits' }] }),
    {
      ...table('goals', '/data/goals', { title: 'Goal', dimension: 'goal_id', label: (id) => goalTitles.get(id) ?? id,
        empty: 'No goals yet. Goals count visitors who click a button, open a page or trigger an event.',
        columns: [{ key: 'conversions', label: 'Conversions' }, { key: 'conversion_rate', label: 'Rate', format: 'percent' }] }, {}, 'goal'),
      fetch: async (page) => {
        const goals = await page.api.get<Row[]>('/data/goals', page.params());
        goalTitles = new Map(goals.map((g) => [String(g.goal_id), String(g.title)]));
        return goals;
      },
    } as Section,
  ];
  const page = new DataPage(root, sections, {
    page_url: { label: 'Page' },
    referrer: { label: 'Referrer' },
    device: { label: 'Device' },
    browser: { label: 'Browser' },
    referrer_domain: { label: 'Referring domain' },
    entry_page: { label: 'Entry page' },
    exit_page: { label: 'Exit page' },
    platform: { label: 'Operating system' },
    browser_version: { label: 'Browser version' },
    screen: { label: 'Screen size', value: (v) => SCREEN_LABELS[v] ?? v },
    country: { label: 'Country', value: countryName },
    goal: { label: 'Goal', value: (id) => goalTitles.get(id) ?? id },
  });
  chart.attach(page);
  void page.load();

  const live = root.querySelector('[data-live]')!;
  const refreshLive = async () => {
    if (document.hidden) return;
    try {
      live.textContent = String((await page.api.get<{ count: number }>('/data/live-visitors')).count);
    } catch {
      live.textContent = '–';
    }
  };
  void refreshLive();
  setInterval(refreshLive, 30_000);
  // The live count is of the whole site: with filters set, it says so rather than seem filtered.
  const liveScope = root.querySelector('[data-live-scope]')!;
  const showLiveScope = () => (liveScope.textContent = Object.keys(page.state.filters).length ? 'live now on the whole site' : 'live now');
  root.addEventListener('svc:view', showLiveScope);
  showLiveScope();
  // The funnels page opens on the same period and filters.
  const funnelsLink = root.querySelector<HTMLAnchorElement>('[data-funnels-link]');
  const followView = () => funnelsLink && (funnelsLink.search = location.search);
  root.addEventListener('svc:view', followView);
  followView();

  const onboarding = root.querySelector<HTMLElement>('[data-onboarding]');
  if (onboarding && !page.share) {
    startOnboarding(onboarding, page.api, () => {
      void page.load();
      void refreshLive();
    });
  }
}
