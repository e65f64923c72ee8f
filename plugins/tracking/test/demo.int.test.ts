import { type CliIO, definePlugin, UsageError } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import type { SvcDemoVisit } from '../hooks';
import { count, rows } from './helpers';

const received: SvcDemoVisit[][] = [];
const sales = definePlugin({
  name: 'demo-listener',
  tier: 'free',
  requires: ['tracking'],
  register(ctx) {
    ctx.hooks.addAction('svc_demo_generated', (visits) => void received.push(visits));
  },
});

function io(): CliIO & { lines: string[]; progress: jest.Mock } {
  const lines: string[] = [];
  return { lines, out: (l) => void lines.push(l), err: (l) => void lines.push(l), progress: jest.fn() };
}

describe('svc demo', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], inline: [sales] });
  });
  afterAll(() => tk.close());

  it('sends realistic traffic through the pipeline over the days asked, with a progress bar', async () => {
    const demo = tk.kernel.commands.get('demo')!;
    const out = io();
    expect(await demo.run(['--days', '3', '--visitors', '30', '--seed', '7'], out)).toBe(0);
    // --visitors is visits per day: the progress and the summary count the same 90 visits.
    expect(out.progress).toHaveBeenLastCalledWith(90, 90, 'visits');
    const summary = /^Generated 90 visits from (\d+) visitors \((\d+) page views\) over 3 days\.$/.exec(out.lines.at(-1)!);
    expect(summary).not.toBeNull();

    const pageviews = await count(tk, 'statistics');
    expect(Number(summary![2])).toBe(pageviews);
    const [visitors] = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(DISTINCT uid) AS n FROM ${tk.kernel.db.quote(tk.kernel.db.table('sessions'))}`);
    expect(Number(summary![1])).toBe(Number(visitors!.n));
    expect(Number(summary![1])).toBeLessThan(90);
    expect(pageviews).toBeGreaterThan(90);
    const days = await tk.kernel.db.select<{ d: number }>(`SELECT DISTINCT FLOOR(time / 86400) AS d FROM ${tk.kernel.db.quote(tk.kernel.db.table('statistics'))}`);
    expect(days.length).toBe(3);
    expect(await count(tk, 'statistics', 'page_type = ?', ['404'])).toBeGreaterThan(0);
    expect(await count(tk, 'statistics', 'time_on_page > 0')).toBeGreaterThan(0);
    expect(await count(tk, 'statistics_searches')).toBeGreaterThan(0);
    expect(await count(tk, 'goal_statistics')).toBeGreaterThan(0);
    expect(await count(tk, 'sessions', 'referrer <> ?', [''])).toBeGreaterThan(0);
    expect(await count(tk, 'sessions', 'first_time_visit = 0')).toBeGreaterThan(0);
    expect(await count(tk, 'sessions', 'bounce = 0')).toBeGreaterThan(0);
    const devices = await rows(tk, 'devices');
    expect(devices.map((d) => d.name)).toEqual(expect.arrayContaining(['desktop', 'mobile']));
    const countries = await tk.kernel.db.select(
      `SELECT DISTINCT l.country_code FROM ${tk.kernel.db.quote(tk.kernel.db.table('sessions'))} s JOIN ${tk.kernel.db.quote(tk.kernel.db.table('locations'))} l ON l.city_code = s.city_code`,
    );
    expect(countries.length).toBeGreaterThan(3);

    expect(received).toHaveLength(1);
    expect(received[0]!.length).toBe(pageviews);
    const visit = received[0]![0]!;
    expect(visit).toEqual({ uid: expect.any(String), time: expect.any(Number), url: expect.stringMatching(/^http/), session: expect.any(Number) });
    expect(await count(tk, 'sessions', 'ID = ? AND uid = ?', [visit.session, visit.uid])).toBe(1);
  });

  it('refuses bad arguments with a usage error', async () => {
    const demo = tk.kernel.commands.get('demo')!;
    await expect(demo.run(['--days', 'x'], io())).rejects.toBeInstanceOf(UsageError);
    await expect(demo.run(['--visitors', '0'], io())).rejects.toBeInstanceOf(UsageError);
    await expect(demo.run(['--nope', '1'], io())).rejects.toBeInstanceOf(UsageError);
    await expect(demo.run(['extra'], io())).rejects.toBeInstanceOf(UsageError);
  });
});
