import { DEFAULT_SITE_ID } from '../../../core';
import type { ShareService } from '../services/share-service';
import { type Json, type StoryKernel, startStoryKernel } from './support';

describe('the token service (get_share_links)', () => {
  let k: StoryKernel;
  let share: ShareService;
  beforeAll(async () => {
    k = await startStoryKernel();
    share = k.tk.kernel.services.get('share')!;
  });
  afterAll(() => k.close());

  const table = () => k.tk.kernel.db.quote(k.tk.kernel.db.table('share_tokens'));
  const rows = async () => k.tk.kernel.db.select<{ token: string; report_id: number; expires: number }>(`SELECT token, report_id, expires FROM ${table()}`);

  it('lists all, dashboard or report links, narrowed by token and report, newest first and indexed from 0', async () => {
    const first = await k.share();
    k.clock.advance(10);
    const second = await k.share({ shared_tabs: ['sources'] });
    const reportId = await k.report();
    k.clock.advance(10);
    const story = await k.share({ report_id: reportId });
    try {
      const all = await share.tokens.get_share_links();
      expect(all.slice(0, 3).map((l) => l.token)).toEqual([story.token, second.token, first.token]);
      expect(Object.keys(all)).toEqual(all.map((_, i) => String(i)));
      const links = await share.tokens.get_share_links('link');
      expect(links.every((l) => l.report_id === 0)).toBe(true);
      expect(links.map((l) => l.token)).toEqual(expect.arrayContaining([first.token, second.token]));
      const reports = await share.tokens.get_share_links('report');
      expect(reports.map((l) => l.token)).toEqual([story.token]);
      expect(await share.tokens.get_share_links('all', second.token)).toEqual([all[1]]);
      expect(await share.tokens.get_share_links('link', story.token)).toEqual([]);
      expect(await share.tokens.get_share_links('all', '', reportId)).toEqual([all[0]]);
    } finally {
      k.clock.advance(-20);
    }
  });

  it('finds nothing for a malformed token, even one a case or a space away from a stored one', async () => {
    const made = await k.share();
    for (const bad of [made.token.toUpperCase(), `${made.token} `, made.token.slice(1), `${made.token.slice(0, 31)}g`, "' OR 1=1 --"]) {
      expect(await share.tokens.get_share_links('all', bad)).toEqual([]);
    }
  });

  it('makes a report token with the story view when a report has none, once', async () => {
    const reportId = await k.report({ name: 'Fresh' });
    expect((await rows()).filter((r) => Number(r.report_id) === reportId)).toEqual([]);
    const [made] = await share.tokens.get_share_links('report', '', reportId);
    expect(made).toMatchObject({ report_id: reportId, shared_tabs: ['story'], permissions: { can_change_date: false, can_filter: false } });
    expect(made!.url).toBe(`${k.tk.url}/svc-dashboard/story/?svc_share_token=${made!.token}`);
    const again = await Promise.all([1, 2, 3].map(() => share.tokens.get_share_links('report', '', reportId)));
    expect(new Set(again.map(([l]) => l!.token))).toEqual(new Set([made!.token]));
    expect((await rows()).filter((r) => Number(r.report_id) === reportId)).toHaveLength(1);
    // Only for `report` with an id, no token, and a report that exists.
    expect(await share.tokens.get_share_links('report', '', 987654)).toEqual([]);
    const other = await k.report({ name: 'Other' });
    expect(await share.tokens.get_share_links('all', '', other)).toEqual([]);
    expect(await share.tokens.get_share_links('report', 'f'.repeat(32), other)).toEqual([]);
  });

  it('keeps one token per report when two makers race, on every database', async () => {
    const reportId = await k.report({ name: 'Raced' });
    const made = await Promise.all([
      k.share({ report_id: reportId, expiration: '24h' }),
      k.share({ report_id: reportId, expiration: '30d' }),
      k.tk.kernel.services.get('story')!.reportLink(DEFAULT_SITE_ID, reportId),
    ]);
    expect(new Set([made[0].token, made[1].token])).toEqual(new Set([made[0].token]));
    expect(made[2]).toContain(made[0].token);
    expect((await rows()).filter((r) => Number(r.report_id) === reportId)).toHaveLength(1);
  });

  it('replaces an expired report token with a new one', async () => {
    const reportId = await k.report({ name: 'Expiring' });
    const old = await k.share({ report_id: reportId, expiration: '24h' });
    k.clock.advance(86400);
    try {
      expect(await share.tokens.get_share_links('all', old.token)).toEqual([]);
      const renewed = await k.share({ report_id: reportId });
      expect(renewed.token).not.toBe(old.token);
      expect((await rows()).filter((r) => Number(r.report_id) === reportId).map((r) => r.token)).toEqual([renewed.token]);
    } finally {
      k.clock.advance(-86400);
    }
  });

  it('keeps a report link alive for 30 days from each mail that carries it', async () => {
    const reportId = await k.report({ name: 'Weekly' });
    const story = k.tk.kernel.services.get('story')!;
    const url = await story.reportLink(DEFAULT_SITE_ID, reportId);
    const token = /svc_share_token=([a-f0-9]{32})/.exec(url)![1]!;
    k.clock.advance(20 * 86400);
    try {
      expect(await story.reportLink(DEFAULT_SITE_ID, reportId)).toBe(url);
      const [link] = await share.tokens.get_share_links('all', token);
      expect(link!.expires).toBe(k.clock.unix() + 30 * 86400);
    } finally {
      k.clock.advance(-20 * 86400);
    }
    const never = await k.report({ name: 'Never' });
    const kept = await k.share({ report_id: never, expiration: 'never' });
    await story.reportLink(DEFAULT_SITE_ID, never);
    expect((await share.tokens.get_share_links('all', kept.token))[0]!.expires).toBe(0);
  });

  it('purges expired tokens and the tokens of deleted reports in the daily job', async () => {
    const short = await k.share({ expiration: '24h' });
    const forever = await k.share({ expiration: 'never' });
    const reportId = await k.report({ name: 'Deleted soon' });
    const story = await k.share({ report_id: reportId });
    const del = await k.admin.post(`${k.tk.api}/do_action/report/delete`, { json: { id: reportId } });
    expect(del.status).toBe(200);
    k.clock.advance(86400);
    try {
      await k.tk.kernel.scheduler.runRecurring('svc_daily', k.clock.now(), true);
      const left = (await rows()).map((r) => r.token);
      expect(left).not.toContain(short.token);
      expect(left).not.toContain(story.token);
      expect(left).toContain(forever.token);
      expect(k.tk.logs.some((l: Json) => l.msg === 'viewer sessions ended; expired and orphaned share tokens removed' && l.expired >= 1 && l.orphaned >= 1)).toBe(true);
    } finally {
      k.clock.advance(-86400);
    }
  });
});
