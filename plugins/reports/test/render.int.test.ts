import fs from 'node:fs';
import path from 'node:path';
import { type ReportsTestKernel, startReportsKernel } from './support/reports-kernel';
import { createReport } from './support/helpers';
import { insertVisits } from './support/traffic';

const OUT = path.resolve(__dirname, '..', '..', '..', 'test-output');
const XSS_PATH = '/<script>alert(1)</script>';
const XSS_REFERRER = 'https://evil.example/"><img src=x onerror=alert(1)>';

/** Table rows of one block in the rendered mail, as cell texts. */
function blockRows(html: string, title: string): string[][] {
  const start = html.indexOf(`>${title}</h2>`);
  if (start < 0) return [];
  const end = html.indexOf('View details', start);
  const section = html.slice(start, end);
  return [...section.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((m) => [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.trim()))
    .filter((cells) => cells.length > 1);
}

describe('report mail rendering', () => {
  let k: ReportsTestKernel;
  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    k = await startReportsKernel({ now: '2026-03-02T08:30:00Z' });
    // Last week (23 February to 1 March 2026) and the week before it.
    await insertVisits(k.tk.kernel.db, 'UTC', [
      { at: '2026-02-23T10:00', url: '/', referrer: 'https://www.google.com/' },
      { at: '2026-02-24T10:00', url: '/', referrer: 'https://www.google.com/' },
      { at: '2026-02-25T10:00', url: '/', referrer: 'https://www.google.com/' },
      { at: '2026-02-26T10:00', url: '/pricing' },
      { at: '2026-02-27T10:00', url: '/pricing' },
      { at: '2026-02-28T10:00', url: XSS_PATH, referrer: XSS_REFERRER },
      { at: '2026-03-01T10:00', url: '/blog/a' },
      { at: '2026-03-01T11:00', url: '/blog/b' },
      { at: '2026-03-01T12:00', url: '/blog/c' },
      { at: '2026-03-01T13:00', url: '/blog/d' },
      { at: '2026-02-24T12:00', url: '/missing', type: '404' },
      { at: '2026-02-17T10:00', url: '/' },
      { at: '2026-02-18T10:00', url: '/' },
      { at: '2026-02-19T10:00', url: '/pricing' },
    ]);
  });
  afterAll(() => k.close());

  const preview = async (id: number): Promise<string> => {
    const res = await k.action('preview', { id });
    expect(res.status).toBe(200);
    return res.body.data.html as string;
  };

  it('links "View details" and "Open the dashboard" to the dashboard on the period (and filters) the mail shows', async () => {
    const id = await createReport(k, {
      content: [
        { id: 'pages', filters: [{ key: 'device', value: 'mobile' }] },
        { id: 'referrers', date_range_enabled: true, date_range: 'last_month' },
      ],
    });
    const html = await preview(id);
    const links = [...html.matchAll(/<a href="([^"]+)"[^>]*>\s*(View details|Open the dashboard)/g)].map((m) => new URL(m[1]!.replaceAll('&amp;', '&')));
    const view = (u: URL) => [u.pathname, u.searchParams.get('range'), u.searchParams.get('date_start'), u.searchParams.get('date_end'), u.searchParams.get('filters')];
    expect(links.map(view)).toEqual([
      ['/svc-admin/statistics', 'custom', '2026-02-23', '2026-03-01', '{"device":"mobile"}'],
      ['/svc-admin/statistics', 'custom', '2026-02-01', '2026-02-28', null],
      ['/svc-admin/statistics', 'custom', '2026-02-23', '2026-03-01', null],
    ]);
  });

  it('renders a classic mail with escaped tracked values, the compare summary and at most 5 rows per block', async () => {
    const id = await createReport(k, {
      name: '<b>Weekly</b> & "friends"',
      content: [
        { id: 'compare' },
        { id: 'pages', content: 'Top pages <iframe src="//evil.example">', comment_title: 'Note <u>', comment_text: 'Launch week & more' },
        { id: 'referrers' },
        { id: 'not-found-pages' },
      ],
    });
    const html = await preview(id);
    fs.writeFileSync(path.join(OUT, 'reports-classic.html'), html);

    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('/&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('https://evil.example/&#34;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('<b>Weekly</b>');
    expect(html).toContain('&lt;b&gt;Weekly&lt;/b&gt; &amp; &#34;friends&#34;');
    expect(html).toContain('Note &lt;u&gt;');

    expect(blockRows(html, 'Summary')).toEqual([
      ['Pageviews', '10', '3', '+233.33%'],
      ['Sessions', '10', '3', '+233.33%'],
      ['Visitors', '10', '3', '+233.33%'],
      ['Bounce rate', '100%', '100%', '0%'],
    ]);
    const pages = blockRows(html, 'Most visited pages');
    expect(pages).toHaveLength(5);
    expect(pages.slice(0, 2)).toEqual([['/', '3', '3'], ['/pricing', '2', '2']]);
    expect(blockRows(html, 'Pages not found')).toEqual([['/missing', '1']]);
    expect(blockRows(html, 'Top referrers').slice(0, 2)).toEqual([['Direct or unknown', '6', '6'], ['https://www.google.com/', '3', '3']]);
    expect(html).toContain('23 Feb 2026 – 1 Mar 2026');
    const queryIds = new Set(k.tk.logs.map((l) => l.queryId));
    for (const id of ['report_block_compare', 'report_block_pages', 'report_block_referrers', 'report_block_not_found_pages']) expect(queryIds).toContain(id);
  });

  it('lays the mail out in tables with inline styles, a dark-mode logo and a base tag', async () => {
    const html = await preview(await createReport(k, { name: 'Layout', content: [{ id: 'pages' }] }));
    expect(html).toMatch(/<base href="http:\/\/127\.0\.0\.1:\d+\/">/);
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toMatch(/<img class="logo-light" src="http:\/\/127\.0\.0\.1:\d+\/svc\/reports\/assets\/logo\.png"/);
    expect(html).toMatch(/<img class="logo-dark" src="http:\/\/127\.0\.0\.1:\d+\/svc\/reports\/assets\/logo-dark\.png"/);
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('role="presentation"');
    expect(html).not.toMatch(/<div/);
    const logo = await k.tk.client().get('/svc/reports/assets/logo-dark.png');
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('applies svc_mail_report_limit, svc_mail_report_results, svc_mail_reports_blocks and svc_email_blocks', async () => {
    const hooks = k.tk.kernel.hooks;
    hooks.addFilter('svc_mail_report_limit', () => 2, {}, 'render-test');
    hooks.addFilter('svc_mail_report_results', (rows, qd) => (qd.id === 'report_block_referrers' ? [{ referrer: 'added-by-filter', sessions: 1, pageviews: 1 }, ...rows] : rows), {}, 'render-test');
    hooks.addFilter('svc_mail_reports_blocks', (blocks) => Object.fromEntries(Object.entries(blocks).filter(([id]) => id !== 'not-found-pages')), {}, 'render-test');
    hooks.addFilter('svc_email_blocks', (blocks) => [
      ...blocks,
      { id: 'landing-pages', title: 'Landing pages', header: ['Page', 'Visitors'], url: '/svc-admin/statistics', query_args: { source: 'datatable', id: 'pages', metrics: ['visitors'], group_by: ['page_url'] } },
    ], {}, 'render-test');
    const id = await createReport(k, { name: 'Filtered', content: [{ id: 'pages' }, { id: 'referrers' }, { id: 'not-found-pages' }, { id: 'landing-pages' }] });
    const html = await preview(id);
    expect(blockRows(html, 'Most visited pages')).toHaveLength(2);
    expect(blockRows(html, 'Top referrers').map((r) => r[0])).toEqual(['added-by-filter', 'Direct or unknown']);
    expect(html).not.toContain('Pages not found');
    expect(blockRows(html, 'Landing pages')).toEqual([['/', '3'], ['/pricing', '2']]);
  });

  it('uses the template paths svc_email_template, svc_email_block_template and svc_email_readmore_template return', async () => {
    const dir = fs.mkdtempSync(path.join(k.tk.dataDir, 'templates-'));
    fs.writeFileSync(path.join(dir, 'main.ejs'), '<main data-custom="main"><%= title %>|<%- blocks %>|<%- read_more %>|<%= domain %></main>');
    fs.writeFileSync(path.join(dir, 'block.ejs'), '<section data-custom="block"><%= title %>: <%= subtitle %></section>');
    fs.writeFileSync(path.join(dir, 'more.ejs'), '<aside data-custom="more"><%= read_more_text %> <%= read_more_url %></aside>');
    const hooks = k.tk.kernel.hooks;
    hooks.addFilter('svc_email_template', () => path.join(dir, 'main.ejs'), { priority: 20 }, 'render-test');
    hooks.addFilter('svc_email_block_template', () => path.join(dir, 'block.ejs'), { priority: 20 }, 'render-test');
    hooks.addFilter('svc_email_readmore_template', () => path.join(dir, 'missing.ejs'), { priority: 20 }, 'render-test');
    const html = await preview(await createReport(k, { name: 'Custom', content: [{ id: 'pages' }] }));
    expect(html).toMatch(/^<main data-custom="main">Custom\|<section data-custom="block">Most visited pages: 23 Feb 2026 – 1 Mar 2026<\/section>\|/);
    expect(html).toContain('Open the dashboard</a>');
    expect(k.tk.logs.some((l) => String(l.msg).includes('svc_email_readmore_template returned a path that is not a file'))).toBe(true);
  });
});

describe('story mail rendering', () => {
  let k: ReportsTestKernel;
  beforeAll(async () => {
    fs.mkdirSync(OUT, { recursive: true });
    k = await startReportsKernel({ now: '2026-03-02T08:30:00Z', plugins: ['story'] });
  });
  afterAll(() => k.close());

  it('renders a short teaser with a button to the story link, and sends it with a text part', async () => {
    const id = await createReport(k, { name: 'Story <script>alert(1)</script>', format: 'story', content: [{ id: 'pages' }] });
    const html = (await k.action('preview', { id })).body.data.html as string;
    fs.writeFileSync(path.join(OUT, 'reports-story.html'), html);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('Story &lt;script&gt;alert(1)&lt;/script&gt;');
    const link = /<a href="(http:\/\/127\.0\.0\.1:\d+\/svc-dashboard\/story\/\?svc_share_token=([a-f0-9]{32}))"[^>]*>View the report<\/a>/.exec(html);
    expect(link).not.toBeNull();
    const token = link![2]!;
    const links = await k.admin.post(`${k.tk.api}/do_action/list_share_links`, { json: {} });
    expect(links.body.share_links).toContainEqual(expect.objectContaining({ token, report_id: id, url: link![1] }));
    expect(html).not.toContain('Most visited pages');
    const res = await k.action('send-test-report', { id });
    expect(res.body.data.queue.status).toBe('sending_successful');
    const [mail] = k.smtp.received;
    expect(mail!.parsed.text).toContain(`View the report: http://127.0.0.1`);
    expect(mail!.parsed.text).toContain(`svc_share_token=${token}`);
  });
});
