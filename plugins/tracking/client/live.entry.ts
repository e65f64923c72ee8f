import { type Row, type TableSpec, clear, countryName, createApi, el, formatNumber, notice, renderTable } from '../../../core/assets/client';

interface Realtime {
  visitors: number;
  pageviews_per_minute: Array<{ minute: number; pageviews: number }>;
  top_pages: Row[];
  top_referrers: Row[];
  top_countries: Row[];
}

/** Milliseconds between refreshes while the page is visible. */
const EVERY = 5000;
const visitors = [{ key: 'visitors', label: 'Visitors' }];
const TABLES: Record<'top_pages' | 'top_referrers' | 'top_countries', TableSpec> = {
  top_pages: { title: 'Page', dimension: 'page_url', columns: visitors, empty: 'Nobody is on a page right now.' },
  top_referrers: { title: 'Referrer', dimension: 'referrer', columns: visitors, empty: 'Nobody is on the site right now.', label: (v) => v || 'Direct / none' },
  top_countries: { title: 'Country', dimension: 'country', columns: visitors, empty: 'Nobody is on the site right now.', label: (v) => (v ? countryName(v) : 'Unknown') },
};

/** The per-minute pageviews as bars scaled to the busiest minute, each titled with its time and count. */
function bars(target: Element, minutes: Realtime['pageviews_per_minute'], clock: Intl.DateTimeFormat): void {
  const most = Math.max(1, ...minutes.map((m) => m.pageviews));
  clear(
    target,
    ...minutes.map((m) => {
      const title = `${clock.format(new Date(m.minute * 1000))}: ${formatNumber(m.pageviews)} pageview${m.pageviews === 1 ? '' : 's'}`;
      const bar = el('span', { class: m.pageviews > 0 ? 'bar' : 'bar zero', title });
      if (m.pageviews > 0) bar.style.height = `${Math.max(2, Math.round((m.pageviews / most) * 100))}%`;
      return bar;
    }),
  );
}

/** The live page: fetches `{api_base}/data/realtime` every 5 s while visible; a failed refresh shows an error until one succeeds. */
function start(root: HTMLElement): void {
  const api = createApi();
  const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: root.dataset.timezone || undefined });
  const error = root.querySelector('[data-live-error]')!;
  const updated = root.querySelector('[data-live-updated]')!;
  const tables = Object.entries(TABLES).map(([key, spec]) => ({ key: key as keyof typeof TABLES, spec, target: root.querySelector(`[data-live-table="${key}"]`)! }));
  for (const t of tables) clear(t.target, notice('loading', 'Loading…'));

  const load = async () => {
    try {
      const data = await api.get<Realtime>('/data/realtime');
      root.querySelector('[data-live-visitors]')!.textContent = formatNumber(data.visitors);
      root.querySelector('[data-live-pageviews]')!.textContent = formatNumber(data.pageviews_per_minute.reduce((sum, m) => sum + m.pageviews, 0));
      bars(root.querySelector('[data-live-minutes]')!, data.pageviews_per_minute, clock);
      for (const t of tables) renderTable(t.target, t.spec, data[t.key], null);
      updated.textContent = `Updated ${new Date().toLocaleTimeString()}`;
      root.classList.remove('is-stale');
      clear(error);
    } catch (err) {
      root.classList.add('is-stale');
      const why = err instanceof Error ? err.message : 'The server did not answer.';
      clear(error, notice('error', `Refreshing failed: ${why} The figures below may be out of date; trying again in 5 seconds.`));
    }
  };

  let timer: number | undefined;
  let busy = false;
  const schedule = () => {
    if (!busy && timer === undefined && !document.hidden) timer = window.setTimeout(run, EVERY);
  };
  const run = () => {
    timer = undefined;
    busy = true;
    void load().finally(() => {
      busy = false;
      schedule();
    });
  };
  // A hidden tab stops asking; coming back refreshes at once.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = undefined;
    } else if (!busy && timer === undefined) run();
  });
  run();
}

const root = document.getElementById('svc-live');
if (root) start(root);
