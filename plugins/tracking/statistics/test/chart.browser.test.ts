/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { isoDay } from '../../../../core';
import { browserSuite, describeBrowser } from '../../../../test/helpers/browser';
import { createTestKernel } from '../../../../test/helpers/test-kernel';

const OUTPUT = path.join(__dirname, '..', '..', '..', '..', 'test-output');

interface Line {
  label: string;
  data: number[];
}

/** The same day a year before (the days here are never 29 February). */
const yearBefore = (day: string) => `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`;
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describeBrowser('statistics chart of the picked metric', () => {
  const b = browserSuite(
    async () => {
      const tk = await createTestKernel({ plugins: ['tracking', 'story'], env: { SVC_TIMEZONE: 'UTC', SVC_LICENSE: 'creator' } });
      const quiet = { out: () => undefined, err: () => undefined, progress: () => undefined };
      expect(await tk.kernel.commands.get('demo')!.run(['--days', '30', '--visitors', '25', '--seed', '7'], quiet)).toBe(0);
      await tk.kernel.statistics.folder.foldPending();
      return tk;
    },
    { startMs: 90_000 },
  );

  /** The lines the chart draws, once their labels are `labels` (and the first has `points` values, when given). */
  const lines = async (labels: RegExp[], points = 0): Promise<Line[]> => {
    const handle = await b.page.waitForFunction(
      ({ sources, points }) => {
        const raw = document.querySelector<HTMLCanvasElement>('[data-chart]')?.dataset.series;
        const drawn = raw ? (JSON.parse(raw) as Line[]) : [];
        const patterns = sources.map((s) => new RegExp(s));
        const shaped = drawn.length === patterns.length && drawn.every((l, i) => patterns[i]!.test(l.label));
        return shaped && (!points || drawn[0]!.data.length === points) ? drawn : null;
      },
      { sources: labels.map((l) => l.source), points },
    );
    return (await handle.jsonValue()) as Line[];
  };
  /** A REST client signed in as the administrator. */
  const admin = async () => {
    const user = (await b.tk.kernel.users.findByLogin(b.tk.admin.login))!;
    return b.tk.client().withBasic(user.login, (await b.tk.kernel.appPasswords.create(user, `chart ${Date.now()}`)).password);
  };
  const pressed = () => b.page.locator('[data-compare] [aria-pressed="true"]').getAttribute('data-metric');
  const noSidewaysScroll = () => b.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  it('charts the clicked card, overlays the previous period, changes the interval and keeps the view in the URL', async () => {
    await b.page.goto(`${b.tk.url}/svc-admin/statistics?range=last_7_days`);
    await b.page.waitForSelector('[data-compare] button[data-metric="visitors"][aria-pressed="true"]');
    const visitors = await lines([/^Visitors$/]);
    expect(visitors[0]!.data).toHaveLength(7);

    await b.page.click('[data-compare] [data-metric="pageviews"]');
    const pageviews = await lines([/^Pageviews$/]);
    expect(await pressed()).toBe('pageviews');
    expect(await b.page.locator('[data-compare] button[aria-pressed="false"]').count()).toBe(5);
    expect(await b.page.textContent('[data-chart-title]')).toBe('Pageviews');
    expect(new URL(b.page.url()).searchParams.get('metric')).toBe('pageviews');
    expect(pageviews[0]!.data.reduce((a, v) => a + v, 0)).toBe(Number((await b.page.textContent('[data-metric="pageviews"] .metric-value'))!.replace(/[^\d]/g, '')));

    // The cards are buttons a keyboard reaches.
    await b.page.focus('[data-compare] [data-metric="sessions"]');
    await b.page.keyboard.press('Enter');
    await lines([/^Sessions$/]);
    expect(await pressed()).toBe('sessions');
    await b.page.focus('[data-compare] [data-metric="pageviews"]');
    await b.page.keyboard.press('Space');
    await lines([/^Pageviews$/]);

    await b.page.selectOption('[data-chart-compare]', 'previous');
    const today = isoDay(b.tk.clock.unix(), 'UTC');
    const [start, end] = [shift(today, -13), shift(today, -7)];
    const compared = await lines([/^Pageviews$/, new RegExp(`^Pageviews \\(${start} – ${end}\\)$`)]);
    const api = await admin();
    const previous = await api.get(`${b.tk.api}/data/insights`, { query: { date_start: start, date_end: end, metrics: 'pageviews' } });
    expect(previous.status).toBe(200);
    expect(compared[1]!.data).toEqual(previous.body.data.datasets.pageviews);
    expect(compared[1]!.data.some((v) => v > 0)).toBe(true);
    expect(new URL(b.page.url()).searchParams.get('compare')).toBe('previous');

    // A week offers hours and days; a month adds weeks.
    const offered = () => b.page.locator('[data-chart-interval] option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(await offered()).toEqual(['', 'hour', 'day']);
    await b.page.selectOption('[data-chart-interval]', 'hour');
    const hourly = await lines([/^Pageviews$/, /^Pageviews \(/], 7 * 24);
    expect(hourly[1]!.data).toHaveLength(7 * 24);
    expect(hourly[0]!.data.reduce((a, v) => a + v, 0)).toBe(pageviews[0]!.data.reduce((a, v) => a + v, 0));
    expect(new URL(b.page.url()).searchParams.get('interval')).toBe('hour');

    await b.page.selectOption('[data-chart-compare]', 'year');
    await lines([/^Pageviews$/, new RegExp(`^Pageviews \\(${yearBefore(shift(today, -6))} – ${yearBefore(today)}\\)$`)]);

    await b.page.reload();
    const again = await lines([/^Pageviews$/, /^Pageviews \(/], 7 * 24);
    expect(again[0]!.data).toEqual(hourly[0]!.data);
    expect(await pressed()).toBe('pageviews');
    expect(await b.page.inputValue('[data-chart-compare]')).toBe('year');
    expect(await b.page.inputValue('[data-chart-interval]')).toBe('hour');

    // A longer period leaves hours out (the chart falls back to the automatic interval) and offers weeks.
    await b.page.selectOption('select[name=preset]', 'last_30_days');
    await b.page.waitForFunction(() => new URL(location.href).searchParams.get('range') === 'last_30_days');
    await lines([/^Pageviews$/, /^Pageviews \(/], 30);
    expect(await offered()).toEqual(['', 'day', 'week']);
    expect(await b.page.inputValue('[data-chart-interval]')).toBe('');
    await b.page.selectOption('[data-chart-compare]', '');
    await lines([/^Pageviews$/]);
    expect(new URL(b.page.url()).searchParams.has('compare')).toBe(false);
    await b.page.selectOption('[data-chart-compare]', 'previous');
    await lines([/^Pageviews$/, /^Pageviews \(/]);

    // Times read as durations on the axis.
    await b.page.click('[data-compare] [data-metric="avg_time_on_page"]');
    await lines([/^Time on page$/, /^Time on page \(/]);

    fs.mkdirSync(OUTPUT, { recursive: true });
    for (const width of [1366, 390]) {
      await b.page.setViewportSize({ width, height: 900 });
      await b.page.waitForTimeout(200);
      expect(await noSidewaysScroll()).toBe(true);
      await b.page.screenshot({ path: path.join(OUTPUT, `statistics-chart-${width}.png`), fullPage: true });
    }
    expect(b.problems).toEqual([]);
  });

  it('lets a share link fixing the period chart any metric against the period before the shared one', async () => {
    const today = isoDay(b.tk.clock.unix(), 'UTC');
    const [start, end] = [shift(today, -9), shift(today, -3)];
    const made = await (await admin()).post(`${b.tk.api}/do_action/get_share_token`, {
      json: { shared_tabs: ['statistics'], initial_state: { date_range: { start, end }, filters: {} } },
    });
    const token = made.body.share_token as string;
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // The address asks for other days; the link's own days stay, and the comparison is of the week before them.
    await page.goto(`${b.tk.url}/svc-dashboard/statistics/?svc_share_token=${token}&range=last_30_days&metric=sessions&compare=previous&interval=day`);
    await page.waitForSelector('[data-compare] button[data-metric="sessions"][aria-pressed="true"]');
    expect(await page.isHidden('[data-range]')).toBe(true);
    const label = `^Sessions \\(${shift(start, -7)} – ${shift(start, -1)}\\)$`;
    const drawn = await page.waitForFunction((pattern) => {
      const raw = document.querySelector<HTMLCanvasElement>('[data-chart]')?.dataset.series;
      const series = raw ? (JSON.parse(raw) as Line[]) : [];
      return series.length === 2 && new RegExp(pattern).test(series[1]!.label) ? series : null;
    }, label);
    const series = (await drawn.jsonValue()) as Line[];
    expect(series[0]!.data).toHaveLength(7);
    const api = await admin();
    const figures = await api.get(`${b.tk.api}/data/insights`, { query: { date_start: start, date_end: end, metrics: 'sessions', compare: 'previous' } });
    expect(series[0]!.data).toEqual(figures.body.data.datasets.sessions);
    expect(series[1]!.data).toEqual(figures.body.data.comparison.datasets.sessions);
    await page.click('[data-compare] [data-metric="bounce_rate"]');
    await page.waitForFunction(() => (document.querySelector<HTMLCanvasElement>('[data-chart]')?.dataset.series ?? '').includes('Bounce rate'));
    const url = new URL(page.url());
    expect([url.searchParams.get('svc_share_token'), url.searchParams.get('metric')]).toEqual([token, 'bounce_rate']);
    await context.close();
  });
});
