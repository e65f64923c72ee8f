import { DEFAULT_SITE_ID } from '../../../core';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport, reportObject } from './support/helpers';

const REPORT_KEYS = [
  'id', 'name', 'format', 'enabled', 'content', 'reportDateRange', 'fixedEndDate', 'frequency', 'weekOfMonth',
  'dayOfWeek', 'sendTime', 'lastEdit', 'scheduled', 'recipients', 'lastSendStatus', 'lastSendMessage',
].sort();

async function count(k: ReportsTestKernel): Promise<number> {
  const db = k.tk.kernel.db;
  const [row] = await db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${db.quote(db.table('reports'))}`);
  return Number(row!.n);
}

describe('reports REST API', () => {
  let k: ReportsTestKernel;
  beforeAll(async () => {
    k = await startReportsKernel({ now: '2026-03-02T08:00:00Z' });
    await k.tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  });
  afterAll(() => k.close());

  describe('access', () => {
    it('checks the capability before the nonce on GET reports and GET report/logs', async () => {
      const editor = await k.tk.signedIn('ed', 'editor-password');
      for (const path of ['/reports', '/report/logs']) {
        const noNonce = await editor.get(`${k.tk.api}${path}`);
        expect(noNonce.status).toBe(403);
        expect(noNonce.body).toEqual({ success: false, code: 'svc_forbidden', message: expect.any(String) });
        const withNonce = await editor.get(`${k.tk.api}${path}`, { query: { svc_nonce: await k.tk.nonce(editor) } });
        expect(withNonce.body.code).toBe('svc_forbidden');
        expect(withNonce.body.data).toBeUndefined();
      }
      const admin = await k.tk.signedIn();
      expect((await admin.get(`${k.tk.api}/reports`)).body.code).toBe('svc_invalid_nonce');
      expect((await admin.get(`${k.tk.api}/reports`, { query: { svc_nonce: 'f'.repeat(20) } })).body.code).toBe('svc_invalid_nonce');
      const ok = await admin.get(`${k.tk.api}/report/logs`, { query: { svc_nonce: await k.tk.nonce(admin) } });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ data: { logs: [] }, request_success: true, success: true });
      expect((await k.tk.client().get(`${k.tk.api}/reports`)).status).toBe(401);
    });

    it('asks an application-password caller for the svc_nonce too, after the capability', async () => {
      const ed = (await k.tk.kernel.users.findByLogin('ed'))!;
      const editor = k.tk.client().withBasic('ed', (await k.tk.kernel.appPasswords.create(ed, 'editor tests')).password);
      for (const path of ['/reports', '/report/logs']) {
        const bare = await k.admin.get(`${k.tk.api}${path}`);
        expect(bare.status).toBe(403);
        expect(bare.body).toEqual({ success: false, code: 'svc_invalid_nonce', message: expect.any(String) });
        expect((await k.admin.get(`${k.tk.api}${path}`, { query: { svc_nonce: 'f'.repeat(20) } })).body.code).toBe('svc_invalid_nonce');
        const nonce = await k.tk.nonce(k.admin);
        const withQuery = await k.admin.get(`${k.tk.api}${path}`, { query: { svc_nonce: nonce } });
        expect(withQuery.status).toBe(200);
        expect(withQuery.body.request_success).toBe(true);
        expect((await k.admin.get(`${k.tk.api}${path}`, { headers: { 'x-svc-nonce': nonce } })).status).toBe(200);
        const refused = await editor.get(`${k.tk.api}${path}`, { query: { svc_nonce: await k.tk.nonce(editor) } });
        expect(refused.body).toEqual({ success: false, code: 'svc_forbidden', message: expect.any(String) });
        expect((await editor.get(`${k.tk.api}${path}`)).body.code).toBe('svc_forbidden');
      }
    });

    it('needs manage_options for the report actions', async () => {
      const editor = await k.tk.signedIn('ed', 'editor-password');
      const res = await editor.post(`${k.tk.api}/do_action/report/create`, { json: { report: { name: 'x' } }, headers: { 'x-svc-nonce': await k.tk.nonce(editor) } });
      expect(res.status).toBe(403);
      expect(await count(k)).toBe(0);
    });
  });

  describe('create, update, list and delete', () => {
    it('creates a report and answers the stored report object', async () => {
      const res = await k.action('create', {
        report: {
          name: '  Team digest ',
          format: 'classic',
          frequency: 'monthly',
          dayOfWeek: 'friday',
          weekOfMonth: -1,
          sendTime: '18:30',
          reportDateRange: 'last_month',
          recipients: ['Ann@Example.COM', 'ann@example.com', ' bob@example.com', 'ANN@example.com'],
          content: [{ id: 'compare' }, { id: 'pages', filters: [{ key: 'device', value: 'mobile' }], comment_title: 'Note', comment_text: 'Mobile only' }],
        },
      });
      expect(res.status).toBe(200);
      const report = res.body.data.report;
      expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
      expect(report).toMatchObject({
        name: 'Team digest',
        frequency: 'monthly',
        dayOfWeek: 'friday',
        weekOfMonth: -1,
        sendTime: '18:30',
        reportDateRange: 'last_month',
        recipients: ['Ann@example.com', 'bob@example.com'],
        enabled: true,
        scheduled: true,
        lastEdit: Date.parse('2026-03-02T08:00:00Z') / 1000,
        lastSendStatus: 'scheduled',
      });
      expect(report.content[1]).toEqual({
        id: 'pages',
        filters: [{ key: 'device', value: 'mobile' }],
        content: '',
        date_range: '',
        date_range_enabled: false,
        fixed_end_date: '',
        comment_title: 'Note',
        comment_text: 'Mobile only',
      });
    });

    it('updates only the fields sent, and lists reports by last edit', async () => {
      k.clock.set('2026-03-02T09:00:00Z');
      const a = await createReport(k, { name: 'A', frequency: 'daily' });
      k.clock.set('2026-03-02T10:00:00Z');
      const b = await createReport(k, { name: 'B' });
      k.clock.set('2026-03-02T11:00:00Z');
      const res = await k.action('update', { report: { id: a, name: 'A renamed', frequency: 'weekly', dayOfWeek: 'tuesday' } });
      expect(res.status).toBe(200);
      expect(res.body.data.report).toMatchObject({ id: a, name: 'A renamed', frequency: 'weekly', dayOfWeek: 'tuesday', sendTime: '09:00', recipients: ['owner@example.com'] });
      const list = await k.get('/reports');
      expect(list.body.data.reports.slice(0, 2).map((r: { id: number }) => r.id)).toEqual([a, b]);
    });

    it('clears day and week for daily reports and the week for weekly ones', async () => {
      const id = await createReport(k, { frequency: 'monthly', dayOfWeek: 'monday', weekOfMonth: 2 });
      const weekly = (await k.action('update', { report: { id, frequency: 'weekly' } })).body.data.report;
      expect([weekly.dayOfWeek, weekly.weekOfMonth]).toEqual(['monday', null]);
      const daily = (await k.action('update', { report: { id, frequency: 'daily' } })).body.data.report;
      expect([daily.dayOfWeek, daily.weekOfMonth]).toEqual([null, null]);
    });

    it('deletes a report with its log and pending batches', async () => {
      const id = await createReport(k, { name: 'Doomed', recipients: Array.from({ length: 12 }, (_, i) => `r${i}@example.com`) });
      expect((await k.action('send-report-now', { id })).status).toBe(200);
      expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toHaveLength(1);
      const res = await k.action('delete', { id });
      expect(res.body.data).toEqual({ deleted: id });
      expect(await reportObject(k, id)).toBeUndefined();
      expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toEqual([]);
      const db = k.tk.kernel.db;
      expect(await db.select(`SELECT ID FROM ${db.quote(db.table('report_logs'))} WHERE report_id = ?`, [id])).toEqual([]);
      expect((await k.action('delete', { id })).status).toBe(404);
    });

    it('answers 404 for unknown reports', async () => {
      for (const [action, body] of [
        ['update', { report: { id: 9999, name: 'x' } }],
        ['delete', { id: 9999 }],
        ['send-test-report', { id: 9999 }],
        ['send-report-now', { id: 9999 }],
        ['preview', { id: 9999 }],
      ] as const) {
        const res = await k.action(action, body);
        expect([action, res.status, res.body.code]).toEqual([action, 404, 'svc_report_not_found']);
      }
    });
  });

  describe('validation', () => {
    const base = { name: 'Valid', recipients: ['owner@example.com'], content: [{ id: 'pages' }] };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['empty name', { name: '   ' }, 'name'],
      ['long name', { name: 'x'.repeat(256) }, 'name'],
      ['name with a line break', { name: 'a\nb' }, 'name'],
      ['unknown format', { format: 'story' }, 'format'],
      ['unknown frequency', { frequency: 'hourly' }, 'frequency'],
      ['capitalised day', { dayOfWeek: 'Monday' }, 'dayOfWeek'],
      ['weekly without a day', { frequency: 'weekly', dayOfWeek: null }, 'dayOfWeek'],
      ['monthly without a week', { frequency: 'monthly', dayOfWeek: 'monday' }, 'weekOfMonth'],
      ['week 5', { frequency: 'monthly', dayOfWeek: 'monday', weekOfMonth: 5 }, 'weekOfMonth'],
      ['week 0', { frequency: 'monthly', dayOfWeek: 'monday', weekOfMonth: 0 }, 'weekOfMonth'],
      ['week as text', { frequency: 'monthly', dayOfWeek: 'monday', weekOfMonth: '1' }, 'weekOfMonth'],
      ['send time without a leading zero', { sendTime: '9:00' }, 'sendTime'],
      ['send time 24:00', { sendTime: '24:00' }, 'sendTime'],
      ['send time as a number', { sendTime: 900 }, 'sendTime'],
      ['recipients as a string', { recipients: 'owner@example.com' }, 'recipients'],
      ['a bad address', { recipients: ['owner@example.com', 'not-an-address'] }, 'recipients[1]'],
      ['an address with a bad domain', { recipients: ['a@-bad-.com'] }, 'recipients[0]'],
      ['no recipients for a scheduled report', { recipients: [] }, 'recipients'],
      ['too many recipients', { recipients: Array.from({ length: 101 }, (_, i) => `r${i}@example.com`) }, 'recipients'],
      ['content not an array', { content: { id: 'pages' } }, 'content'],
      ['a block that is not an object', { content: ['pages'] }, 'content[0]'],
      ['an unknown block', { content: [{ id: 'pages' }, { id: 'weather' }] }, 'content[1].id'],
      ['a block twice', { content: [{ id: 'pages' }, { id: 'pages' }] }, 'content[1].id'],
      ['a filter on an unknown dimension', { content: [{ id: 'pages', filters: [{ key: 'shoe_size', value: '42' }] }] }, 'content[0].filters'],
      ['a filter that is not key/value', { content: [{ id: 'pages', filters: [42] }] }, 'content[0].filters'],
      ['a bad block date range', { content: [{ id: 'pages', date_range_enabled: true, date_range: 'forever' }] }, 'content[0].date_range'],
      ['a block override without a range', { content: [{ id: 'pages', date_range_enabled: true }] }, 'content[0].date_range'],
      ['a bad block end date', { content: [{ id: 'pages', fixed_end_date: '2026-13-01' }] }, 'content[0].fixed_end_date'],
      ['a block flag as text', { content: [{ id: 'pages', date_range_enabled: 'yes' }] }, 'content[0].date_range_enabled'],
      ['a long comment title', { content: [{ id: 'pages', comment_title: 'x'.repeat(256) }] }, 'content[0].comment_title'],
      ['block text as a number', { content: [{ id: 'pages', content: 5 }] }, 'content[0].content'],
      ['an unknown date range', { reportDateRange: 'last_fortnight' }, 'reportDateRange'],
      ['custom without dates', { reportDateRange: 'custom' }, 'reportDateRange'],
      ['custom ending before it starts', { reportDateRange: 'custom:2026-02-10:2026-02-01' }, 'reportDateRange'],
      ['an impossible end date', { fixedEndDate: '2026-02-30' }, 'fixedEndDate'],
      ['enabled as text', { enabled: 'yes' }, 'enabled'],
      ['scheduled as 2', { scheduled: 2 }, 'scheduled'],
    ];

    it.each(cases)('refuses %s with a 400 naming the field and saves nothing', async (_label, fields, field) => {
      const before = await count(k);
      const res = await k.action('create', { report: { ...base, ...fields } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, code: 'svc_invalid_param', message: expect.stringContaining(`${field}:`), data: { field } });
      expect(await count(k)).toBe(before);
    });

    it('refuses a bad update and keeps the stored report', async () => {
      const id = await createReport(k, { name: 'Keep me' });
      const res = await k.action('update', { report: { id, name: 'Changed', sendTime: '25:00' } });
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual({ field: 'sendTime' });
      expect((await reportObject(k, id)).name).toBe('Keep me');
    });

    const requests: Array<[string, string, unknown, string]> = [
      ['an unknown action', 'rename', { id: 1 }, 'action'],
      ['the old report- prefix', 'report-create', { report: base }, 'action'],
      ['a body that is an array', 'create', [base], 'body'],
      ['create without a report', 'create', {}, 'report'],
      ['update without a report', 'update', { id: 1 }, 'report'],
      ['update without an id', 'update', { report: { name: 'x' } }, 'report.id'],
      ['update with a text id', 'update', { report: { id: 'abc' } }, 'report.id'],
      ['delete with a negative id', 'delete', { id: -1 }, 'id'],
      ['delete with a fractional id', 'delete', { id: 1.5 }, 'id'],
      ['send-report-now without an id', 'send-report-now', {}, 'id'],
      ['preview with an id object', 'preview', { id: { id: 1 } }, 'id'],
      ['a test for report id 0', 'send-test-report', { id: 0 }, 'id'],
    ];

    it.each(requests)('refuses %s with a 400 naming the field', async (_label, action, body, field) => {
      const res = await k.action(action, body);
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual({ field });
    });

    it('refuses bad test recipients', async () => {
      const id = await createReport(k, { name: 'Tested' });
      expect((await k.action('send-test-report', { id, recipients: ['nope'] })).body.data).toEqual({ field: 'recipients[0]' });
      expect((await k.action('send-test-report', { id, recipients: 'owner@example.com' })).body.data).toEqual({ field: 'recipients' });
      expect((await k.action('send-test-report', { id, recipients: [] })).body.data).toEqual({ field: 'recipients' });
    });

    it('answers 400 to a body that is not JSON', async () => {
      const res = await k.admin.post(`${k.tk.api}/do_action/report/create`, { raw: '{"report":', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_invalid_json');
    });

    it('accepts custom ranges, block overrides and status filters', async () => {
      const res = await k.action('create', {
        report: {
          ...base,
          reportDateRange: 'custom:2026-01-01:2026-01-31',
          fixedEndDate: '2026-02-01',
          content: [{ id: 'pages', date_range_enabled: true, date_range: 'last_7_days', fixed_end_date: '2026-02-15', filters: 'status:404,page_url:/x' }],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.report).toMatchObject({ reportDateRange: 'custom:2026-01-01:2026-01-31', fixedEndDate: '2026-02-01' });
      expect(res.body.data.report.content[0].filters).toEqual([{ key: 'page_url', value: '/x' }, { key: 'status', value: '404' }]);
    });
  });

  describe('formats', () => {
    it('offers story only through svc_report_formats, and needs the story service to send it', async () => {
      k.tk.kernel.hooks.addFilter('svc_report_formats', (formats) => [...formats, 'story'], {}, 'reports-test');
      const id = await createReport(k, { name: 'Story', format: 'story' });
      for (const action of ['send-test-report', 'send-report-now', 'preview']) {
        const res = await k.action(action, { id });
        expect([action, res.status, res.body.code]).toEqual([action, 409, 'svc_story_unavailable']);
      }
      expect(await k.tk.kernel.db.select(`SELECT ID FROM ${k.tk.kernel.db.quote(k.tk.kernel.db.table('report_logs'))} WHERE report_id = ?`, [id])).toEqual([]);
    });
  });

  describe('the reports service for other plugins', () => {
    it('builds the shared-link form without private fields, and [] for disabled or unknown reports', async () => {
      const service = k.tk.kernel.services.get('reports')!;
      const id = await createReport(k, { name: 'Shared', frequency: 'weekly', dayOfWeek: 'friday', sendTime: '07:15', recipients: ['secret@example.com'] });
      await k.action('send-test-report', { id });
      const shared = await service.reportObject(DEFAULT_SITE_ID, id, { is_shared_link: true });
      expect(shared).toEqual({
        id,
        name: 'Shared',
        format: 'classic',
        enabled: true,
        content: expect.any(Array),
        reportDateRange: 'last_week',
        fixedEndDate: '',
        frequency: 'weekly',
        weekOfMonth: null,
        dayOfWeek: null,
        sendTime: '',
        lastEdit: 0,
        scheduled: false,
        recipients: [],
        lastSendStatus: '',
        lastSendMessage: '',
      });
      expect(await service.reportObject(DEFAULT_SITE_ID, id)).toMatchObject({ sendTime: '07:15', dayOfWeek: 'friday', recipients: ['secret@example.com'], lastSendStatus: 'sending_successful' });
      await k.action('update', { report: { id, enabled: false } });
      expect(await service.reportObject(DEFAULT_SITE_ID, id, { is_shared_link: true })).toEqual([]);
      expect(await service.reportObject(DEFAULT_SITE_ID, 424242, { is_shared_link: true })).toEqual([]);
      expect(await service.reportObject(DEFAULT_SITE_ID, 424242)).toBeNull();
    });

    it('reads a report\'s blocks and maps block ids to the data ids a share session may call', async () => {
      const service = k.tk.kernel.services.get('reports')!;
      const id = await createReport(k, { content: [{ id: 'compare' }, { id: 'pages', filters: [{ key: 'device', value: 'mobile' }] }] });
      expect((await service.blocks(DEFAULT_SITE_ID, id)).map((b) => [b.id, b.filters])).toEqual([['compare', []], ['pages', [{ key: 'device', value: 'mobile' }]]]);
      expect(await service.blocks(DEFAULT_SITE_ID, 424242)).toEqual([]);
      expect(service.blockEndpoints('compare')).toEqual(['compare', 'insights']);
      expect(service.blockEndpoints('not-found-pages')).toEqual(['not-found-pages']);
      expect(service.blockEndpoints('constructor')).toEqual([]);
      expect(service.blockEndpoints('weather')).toEqual([]);
    });
  });

  describe('onboarding', () => {
    it('creates the weekly summary for one address with svc_create_report_from_onboarding', async () => {
      k.clock.set('2026-03-03T10:00:00Z');
      await k.tk.kernel.hooks.doAction('svc_create_report_from_onboarding', 'Owner@Example.com');
      const list = (await k.get('/reports')).body.data.reports;
      expect(list[0]).toMatchObject({
        name: 'Weekly Summary',
        format: 'classic',
        frequency: 'weekly',
        dayOfWeek: 'monday',
        sendTime: '09:00',
        reportDateRange: 'last_week',
        enabled: true,
        scheduled: true,
        recipients: ['Owner@example.com'],
      });
      expect(list[0].content.map((b: { id: string }) => b.id)).toEqual(['compare', 'pages', 'referrers']);
    });

    it('creates nothing for a value that is not an address', async () => {
      const before = await count(k);
      await k.tk.kernel.hooks.doAction('svc_create_report_from_onboarding', 'nobody');
      expect(await count(k)).toBe(before);
      expect(k.tk.logs.some((l) => String(l.msg).includes('needs a valid e-mail address'))).toBe(true);
    });
  });
});
