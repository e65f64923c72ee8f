import type { HttpClient } from '../../../test/helpers/http-client';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport, reportObject } from './support/helpers';

const formNonce = (html: string) => /name="_svc_nonce" value="([a-f0-9]+)"/.exec(html)?.[1] ?? '';

describe('reports admin pages', () => {
  let k: ReportsTestKernel;
  let admin: HttpClient;
  let nonce: string;
  beforeAll(async () => {
    k = await startReportsKernel({ now: '2026-03-02T08:00:00Z' });
    admin = await k.tk.signedIn();
    nonce = formNonce((await admin.get('/svc-admin/reports')).text);
    await k.tk.kernel.users.create({ login: 'ed', role: 'editor', password: 'editor-password' });
  });
  afterAll(() => k.close());

  const form = (fields: Record<string, string | string[]>) => ({
    form: {
      _svc_nonce: nonce,
      name: 'Form report',
      format: 'classic',
      reportDateRange: 'last_week',
      frequency: 'weekly',
      dayOfWeek: 'monday',
      weekOfMonth: '1',
      sendTime: '09:00',
      recipients: 'one@example.com\ntwo@example.com, one@example.com',
      enabled: '1',
      scheduled: '1',
      blocks: ['compare', 'pages'],
      ...fields,
    },
  });

  it('lists reports in the menu for administrators only', async () => {
    const page = await admin.get('/svc-admin/reports');
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/svc-admin/reports"');
    expect(page.text).toContain('No reports yet');
    const editor = await k.tk.signedIn('ed', 'editor-password');
    expect((await editor.get('/svc-admin/reports')).status).toBe(403);
    expect((await editor.get('/svc-admin/reports/new')).status).toBe(403);
  });

  const fieldError = (html: string, field: string) => new RegExp(`<p class="field-error" id="error-${field}">([^<]*)</p>`).exec(html)?.[1]?.replace(/&#8220;|&#8221;|&#34;/g, '"') ?? null;

  it('shows a refused field on the form and saves nothing', async () => {
    const res = await admin.post('/svc-admin/reports/new', form({ sendTime: '25:00', name: 'Bad <time>' }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Nothing was saved: fix the problem marked below.');
    expect(fieldError(res.text, 'sendTime')).toBe('Enter a time such as 09:00 (from 00:00 to 23:59).');
    expect(res.text).toContain('value="Bad &lt;time&gt;"');
    expect((await k.get('/reports')).body.data.reports).toEqual([]);
    const noBlocks = await admin.post('/svc-admin/reports/new', form({ blocks: ['weather'] }));
    expect(noBlocks.status).toBe(400);
    expect(fieldError(noBlocks.text, 'blocks')).toBe('Choose the blocks from the list.');
  });

  it('shows every problem at once, next to its field, in the words of the form', async () => {
    const res = await admin.post(
      '/svc-admin/reports/new',
      form({ name: '', sendTime: '9', reportDateRange: 'custom', customStart: '', customEnd: '', recipients: 'ok@example.com\nnot-an-address\nalso@wrong' }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain('Nothing was saved: fix the 5 problems marked below.');
    expect(fieldError(res.text, 'name')).toBe('Give the report a name.');
    expect(fieldError(res.text, 'sendTime')).toBe('Enter a time such as 09:00 (from 00:00 to 23:59).');
    expect(fieldError(res.text, 'reportDateRange')).toBe('Give the first and the last day of the custom period.');
    expect(fieldError(res.text, 'recipients')).toBe('"not-an-address" is not an e-mail address. "also@wrong" is not an e-mail address.');
    for (const internal of ['sendTime:', 'recipients[', 'reportDateRange:', 'custom:']) expect(res.text).not.toContain(internal);
    const reversed = await admin.post('/svc-admin/reports/new', form({ reportDateRange: 'custom', customStart: '2026-02-10', customEnd: '2026-02-01', recipients: '', scheduled: '1' }));
    expect(fieldError(reversed.text, 'reportDateRange')).toBe('The first day of the custom period must not be after the last one.');
    expect(fieldError(reversed.text, 'recipients')).toBe('Add at least one recipient, or untick “Send automatically on schedule”.');
    expect((await k.get('/reports')).body.data.reports).toEqual([]);
  });

  it('creates a report from the form through the same validation', async () => {
    const res = await admin.post('/svc-admin/reports/new', form({ frequency: 'monthly', weekOfMonth: '-1', dayOfWeek: 'friday' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/svc-admin/reports?done=created');
    const [report] = (await k.get('/reports')).body.data.reports;
    expect(report).toMatchObject({ name: 'Form report', frequency: 'monthly', weekOfMonth: -1, dayOfWeek: 'friday', recipients: ['one@example.com', 'two@example.com'] });
    expect(report.content.map((b: { id: string }) => b.id)).toEqual(['compare', 'pages']);
    const list = await admin.get('/svc-admin/reports?done=created');
    expect(list.text).toContain('Report created.');
    expect(list.text).toContain('Monthly on the last Friday at 09:00');
    expect(list.text).toMatch(/class="state " data-status="scheduled">scheduled</);
  });

  it('edits a report and keeps the settings of blocks that stay', async () => {
    const id = await createReport(k, { name: 'Edit me', content: [{ id: 'pages', filters: [{ key: 'device', value: 'mobile' }], comment_text: 'kept' }] });
    const page = await admin.get(`/svc-admin/reports/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="Edit me"');
    const res = await admin.post(`/svc-admin/reports/${id}`, form({ name: 'Edited', frequency: 'daily', blocks: ['pages', 'referrers'] }));
    expect(res.status).toBe(302);
    const report = await reportObject(k, id);
    expect(report).toMatchObject({ name: 'Edited', frequency: 'daily', dayOfWeek: null });
    expect(report.content.map((b: { id: string; filters: unknown; comment_text: string }) => [b.id, b.filters, b.comment_text])).toEqual([
      ['pages', [{ key: 'device', value: 'mobile' }], 'kept'],
      ['referrers', [], ''],
    ]);
    expect((await admin.get('/svc-admin/reports/424242')).status).toBe(404);
    expect((await admin.get('/svc-admin/reports/abc')).status).toBe(404);
  });

  it('previews the mail in a sandboxed frame and sends a test from there', async () => {
    const id = await createReport(k, { name: 'Preview <me>', recipients: ['owner@example.com'] });
    const page = await admin.get(`/svc-admin/reports/${id}/preview`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<iframe title="E-mail preview" sandbox="" [^>]*srcdoc="&lt;!doctype html&gt;/);
    expect(page.text).not.toContain('<b>Preview <me></b>');
    expect(page.text).toContain('admin@example.com');
    k.smtp.clear();
    const sent = await admin.post(`/svc-admin/reports/${id}/preview`, { form: { _svc_nonce: nonce, recipients: 'qa@example.com' } });
    expect(sent.status).toBe(200);
    expect(sent.text).toMatch(/Test test-2026-03-02-\d+: <strong>sent<\/strong>/);
    expect(k.smtp.received.map((m) => m.to)).toEqual([['qa@example.com']]);
    const bad = await admin.post(`/svc-admin/reports/${id}/preview`, { form: { _svc_nonce: nonce, recipients: 'not-an-address' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/&#34;not-an-address&#34; is not an e-mail address\./);
    expect(bad.text).not.toContain('recipients[0]');
  });

  it('sends now, shows the queue in the delivery log, and deletes', async () => {
    const id = await createReport(k, { name: 'Send me', recipients: ['owner@example.com'] });
    const res = await admin.post(`/svc-admin/reports/${id}/send-now`, { form: { _svc_nonce: nonce } });
    expect(res.headers.get('location')).toBe('/svc-admin/reports?done=sent');
    const again = await admin.post(`/svc-admin/reports/${id}/send-now`, { form: { _svc_nonce: nonce } });
    expect(decodeURIComponent(again.headers.get('location') ?? '')).toContain('already has a queue for 2026-03-02');
    const log = await admin.get('/svc-admin/reports/logs');
    expect(log.text).toContain('data-queue="2026-03-02"');
    expect(log.text).toMatch(/class="state state-loaded" data-status="sending_successful">sent</);
    expect(log.text).toContain('Send me');
    const gone = await admin.post(`/svc-admin/reports/${id}/delete`, { form: { _svc_nonce: nonce } });
    expect(gone.headers.get('location')).toBe('/svc-admin/reports?done=deleted');
    expect(await reportObject(k, id)).toBeUndefined();
  });

  it('refuses a form post without the admin nonce', async () => {
    const res = await admin.post('/svc-admin/reports/new', form({ _svc_nonce: 'nope' }));
    expect(res.status).toBe(400);
  });
});
