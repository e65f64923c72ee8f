import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { normaliseLinkUrl } from '../links/normalize';
import { count, heartbeat, pageview, rows, setOptions, track } from './helpers';

/** The tracked site: two pages with outbound links. */
function startSite(): Promise<{ server: http.Server; host: string }> {
  const pages: Record<string, string> = {
    '/': `<html><body><a href="https://Partner.example/offer#top">Partner</a><a href="/about/">About</a>
          <a href="https://docs.example/guide.pdf">PDF</a><a href="mailto:x@y.example">mail</a><a href="javascript:void(0)">js</a></body></html>`,
    '/about/': `<a href="http://github.com/svc?tab=repos">Code</a><a href="https://partner.example/offer/">same</a>`,
  };
  const server = http.createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, host: `127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

describe('outbound links (tracking.md §3.3 step 10, §8.1)', () => {
  let tk: TestKernel;
  let site: { server: http.Server; host: string };
  beforeAll(async () => {
    site = await startSite();
    tk = await createTestKernel({ plugins: ['tracking'], env: { SVC_LICENSE: 'creator' } });
    await setOptions(tk, { track_external_links: true });
  });
  afterAll(async () => {
    await tk.close();
    await new Promise((resolve) => site.server.close(resolve));
  });

  it('normalises click URLs: host lowercased, fragment stripped, trailing slash without query or extension', () => {
    expect(normaliseLinkUrl('https://Partner.EXAMPLE/offer#top')).toBe('https://partner.example/offer/');
    expect(normaliseLinkUrl('https://partner.example/offer?x=1#y')).toBe('https://partner.example/offer?x=1');
    expect(normaliseLinkUrl('https://docs.example/guide.pdf')).toBe('https://docs.example/guide.pdf');
    expect(normaliseLinkUrl('https://docs.example')).toBe('https://docs.example/');
    expect(normaliseLinkUrl('https://docs.example/Path/Keep')).toBe('https://docs.example/Path/Keep/');
    for (const bad of ['mailto:a@b.example', 'javascript:alert(1)', 'ftp://x.example/', '//no-scheme', '', 42, null]) expect(normaliseLinkUrl(bad)).toBe('');
  });

  it('fills the lookup from the outbound links of the pages seen, on the first tracked domain', async () => {
    await track(tk, pageview(`http://${site.host}/`, 'reader'));
    await track(tk, pageview(`http://${site.host}/about/`, 'reader'));
    await track(tk, pageview(`http://${site.host}/missing/`, 'reader', { page_type: '404' }));
    await tk.kernel.scheduler.runRecurring('svc_daily', tk.clock.now(), true);
    const links = (await rows<{ url: string }>(tk, 'external_links')).map((r) => r.url).sort();
    expect(links).toEqual(['http://github.com/svc?tab=repos', 'https://docs.example/guide.pdf', 'https://partner.example/offer/']);
  });

  it('records a click found in the lookup once per page view, and ignores unknown or invalid URLs', async () => {
    await track(tk, pageview(`http://${site.host}/`, 'clicker'));
    await track(tk, { ...heartbeat(`http://${site.host}/`, 'clicker', 3), external_link_url: 'https://PARTNER.example/offer#x' });
    await track(tk, { ...heartbeat(`http://${site.host}/`, 'clicker', 3), external_link_url: 'https://docs.example/guide.pdf' });
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['clicker']);
    const joins = await rows(tk, 'statistics_external_links', 'statistic_id = ?', [stat!.ID]);
    expect(joins).toHaveLength(1);
    const [link] = await rows(tk, 'external_links', 'ID = ?', [joins[0]!.external_link_id]);
    expect(link!.url).toBe('https://partner.example/offer/');
    await track(tk, pageview(`http://${site.host}/about/`, 'other', { external_link_url: 'https://unknown.example/' }));
    await track(tk, pageview(`http://${site.host}/about/`, 'other2', { external_link_url: 'javascript:alert(1)' }));
    expect(await count(tk, 'statistics_external_links')).toBe(1);
    expect(await count(tk, 'external_links', 'url LIKE ?', ['%unknown%'])).toBe(0);
  });

  it('records nothing when the setting is off', async () => {
    await setOptions(tk, { track_external_links: false });
    await track(tk, pageview(`http://${site.host}/`, 'off', { external_link_url: 'https://docs.example/guide.pdf' }));
    expect(await count(tk, 'statistics_external_links')).toBe(1);
  });

  it('follows the setting of the site of the click (issue 15)', async () => {
    const blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example', timezone: 'UTC' });
    expect(await tk.kernel.settings.save({ track_external_links: true }, blog.id)).toMatchObject({ saved: true });
    await track(tk, pageview('https://blog.example/', 'blog-clicker', { external_link_url: 'https://docs.example/guide.pdf' }));
    await track(tk, pageview(`http://${site.host}/`, 'still-off', { external_link_url: 'https://docs.example/guide.pdf' }));
    expect(await count(tk, 'statistics_external_links')).toBe(2);
    const [stat] = await rows(tk, 'statistics', 'uid = ?', ['blog-clicker']);
    expect(await count(tk, 'statistics_external_links', 'statistic_id = ?', [stat!.ID])).toBe(1);
  });
});

describe('outbound links on the free license', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'] });
    await setOptions(tk, { track_external_links: true });
    const db = tk.kernel.db;
    await db.execute(`INSERT INTO ${db.quote(db.table('external_links'))} (url, host, created) VALUES (?, ?, ?)`, ['https://partner.example/', 'partner.example', 1]);
  });
  afterAll(() => tk.close());

  it('does not record clicks', async () => {
    await track(tk, pageview('https://site.example/', 'free', { external_link_url: 'https://partner.example/' }));
    expect(await count(tk, 'statistics_external_links')).toBe(0);
  });
});
