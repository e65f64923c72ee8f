import { type Clock, type Database, DEFAULT_SITE_ID, insertIgnoring, type Options, type SvcConfig, type SvcLogger } from '../../../core';
import { FIRST_DOMAIN_OPTION } from '../collect/domains';
import type { LinkLookup } from './link-lookup';
import { normaliseLinkUrl } from './normalize';

const MAX_PAGES = 50;
const MAX_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const LOOKBACK_SECONDS = 30 * 24 * 60 * 60;

/** Outbound links (other hosts) in an HTML page, normalised (the HTML parser is loaded by the first scrape). */
export async function outboundLinks(html: string, pageUrl: URL): Promise<Set<string>> {
  const { Parser } = await import('htmlparser2');
  const links = new Set<string>();
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name !== 'a' || typeof attrs.href !== 'string') return;
      let target: URL;
      try {
        target = new URL(attrs.href, pageUrl);
      } catch {
        return;
      }
      if (target.host.toLowerCase() === pageUrl.host.toLowerCase()) return;
      const url = normaliseLinkUrl(target.href);
      if (url) links.add(url);
    },
  });
  parser.write(html);
  parser.end();
  return links;
}

async function fetchHtml(url: string): Promise<string | null> {
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'text/html' } });
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/html') || !res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The background job that fills the external-links lookup (tracking.md
 * §2.3, §8.1): it reads the site's own pages — the most visited pages in the
 * statistics, on the first tracked domain or else `SVC_BASE_URL`'s site —
 * and stores the outbound links it finds.
 */
export class LinkScraper {
  constructor(
    private readonly deps: { db: Database; clock: Clock; logger: SvcLogger; config: SvcConfig; options: Options; lookup: LinkLookup },
  ) {}

  async run(): Promise<{ pages: number; links: number }> {
    const { db, logger } = this.deps;
    const paths = await this.pages();
    const origins = await this.origins();
    const found = new Set<string>();
    let pages = 0;
    let origin: string | null = null;
    for (const path of paths) {
      const candidates: string[] = origin ? [origin] : origins;
      for (const candidate of candidates) {
        try {
          const url = new URL(path, candidate);
          const html = await fetchHtml(url.href);
          origin = candidate;
          if (html === null) break;
          pages++;
          for (const link of await outboundLinks(html, url)) found.add(link);
          break;
        } catch (err) {
          logger.debug({ err, path, origin: candidate }, 'page not read for outbound links');
        }
      }
    }
    let links = 0;
    const rows = [...found];
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200).map((u) => [u, new URL(u).host, this.deps.clock.unix()]);
      links += (await insertIgnoring(db, db.table('external_links'), ['url', 'host', 'created'], chunk)).affected;
    }
    if (links > 0) await this.deps.lookup.changed();
    logger.info({ pages, links }, 'external links collected');
    return { pages, links };
  }

  /** The default site's most viewed pages (its origins are the ones scraped). */
  private async pages(): Promise<string[]> {
    const { db, clock } = this.deps;
    const rows = await db.select<{ page_url: string }>(
      `SELECT page_url, COUNT(*) AS hits FROM ${db.quote(db.table('statistics'))} WHERE site_id = ? AND time >= ? AND page_type <> ? GROUP BY page_url ORDER BY hits DESC LIMIT ${MAX_PAGES}`,
      [DEFAULT_SITE_ID, clock.unix() - LOOKBACK_SECONDS, '404'],
    );
    const paths = rows.map((r) => r.page_url).filter((p) => p.startsWith('/'));
    return paths.length > 0 ? paths : ['/'];
  }

  private async origins(): Promise<string[]> {
    const first = await this.deps.options.get<string>(FIRST_DOMAIN_OPTION);
    if (typeof first === 'string' && /^[a-z0-9.-]+(:\d+)?$/i.test(first)) return [`https://${first}`, `http://${first}`];
    return [new URL(this.deps.config.baseUrl).origin];
  }
}
