import type { Site } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type Json, type StoryKernel, dataAttribute, startStoryKernel } from './support';

const WIDE = { date_start: '2026-01-01', date_end: '2026-01-20' };

describe('share links of two sites', () => {
  let k: StoryKernel;
  let other: Site;
  const onSite = (action: string, site: number | undefined, body: Json = {}) => k.action(action, site === undefined ? body : { ...body, site });

  beforeAll(async () => {
    k = await startStoryKernel();
    other = await k.tk.kernel.sites.add({ name: 'Second Site', domain: 'second.example', timezone: 'Europe/Amsterdam' });
  });
  afterAll(() => k?.close());

  describe('a dashboard link of the default site', () => {
    let client: HttpClient;
    let token: string;
    beforeAll(async () => {
      const link = await k.share({ shared_tabs: ['statistics'] });
      token = link.token;
      client = (await k.visit(link.url)).client;
    });

    it('reads its own site and is refused another, whatever site the request names', async () => {
      expect((await k.viewerGet(client, token, '/data/datatable/pages', WIDE)).status).toBe(200);
      for (const site of [other.id, 'second.example']) {
        const res = await k.viewerGet(client, token, '/data/datatable/pages', { ...WIDE, site });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('svc_share_forbidden');
      }
    });

    it('is not listed, found or revoked on the other site', async () => {
      const listed = async (site?: number) => ((await onSite('list_share_links', site)).body.share_links as Json[]).map((l) => l.token);
      expect(await listed()).toContain(token);
      expect(await listed(other.id)).not.toContain(token);
      const revoked = await onSite('revoke_share_link', other.id, { token });
      expect(revoked.body.success).toBe(false);
      expect(await listed()).toContain(token);
    });
  });

  describe('a dashboard link of the second site', () => {
    let client: HttpClient;
    let token: string;
    beforeAll(async () => {
      const res = await onSite('get_share_token', other.id, { shared_tabs: ['statistics'] });
      token = res.body.share_token;
      const visit = await k.visit(res.body.share_url);
      expect(visit.res.status).toBe(200);
      // The shared page's API calls carry the link's site.
      expect(dataAttribute(visit.res.text, 'site')).toBe(String(other.id));
      // And the page is named after it.
      expect(visit.res.text).toContain('<title>Statistics · Second Site · svc</title>');
      client = visit.client;
    });

    it('reads the second site only: the default site is refused', async () => {
      const own = await k.viewerGet(client, token, '/data/datatable/pages', { ...WIDE, site: other.id });
      expect(own.status).toBe(200);
      const expected = await k.admin.get(`${k.tk.api}/data/datatable/pages`, { query: { ...WIDE, site: other.id } });
      expect(own.body.data).toEqual(expected.body.data);
      for (const query of [WIDE, { ...WIDE, site: 1 }]) {
        const res = await k.viewerGet(client, token, '/data/datatable/pages', query);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('svc_share_forbidden');
      }
    });
  });

  describe('a story link of a report of the second site', () => {
    let reportId: number;
    let url: string;
    beforeAll(async () => {
      const res = await k.admin.post(`${k.tk.api}/do_action/report/create`, {
        json: { site: other.id, report: { name: 'Second story', format: 'story', recipients: ['owner@example.com'], content: [{ id: 'pages' }] } },
      });
      reportId = res.body.data.report.id;
      url = (await onSite('get_share_token', other.id, { report_id: reportId })).body.share_url;
    });

    it('cannot be made on the default site, which does not know the report', async () => {
      const res = await k.action('get_share_token', { report_id: reportId });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('svc_report_not_found');
    });

    it('opens the story named after its site, whose block data comes from that site only', async () => {
      const { client, res } = await k.visit(url);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<title>Second story · Second Site</title>');
      expect(dataAttribute(res.text, 'site')).toBe(String(other.id));
      const token = dataAttribute(res.text, 'share-token')!;
      const data = await k.tk.client().post(`${k.tk.api}/get_action/story-report-data`, { json: { token } });
      expect(data.body.data).toMatchObject({ id: reportId, name: 'Second story' });
      const block = (site: number) => k.viewerGet(client, token, '/data/datatable/pages', { site });
      expect((await block(other.id)).status).toBe(200);
      expect((await block(1)).status).toBe(403);
    });
  });
});
