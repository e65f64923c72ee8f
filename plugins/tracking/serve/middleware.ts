import type { Request, RequestHandler, Response } from 'express';
import { type PageTyping, addBodyAttributes } from './page-type';

export interface SvcTrackingMiddlewareOptions {
  /**
   * The `<script>` line of the svc settings page ("Tracking code"), written
   * before `</head>` of every HTML page that does not have it yet. Leave it
   * out to add only the body attributes.
   */
  snippet?: string;
  /**
   * The page's id and type (tracking.md §2.4). Default: `res.locals.svcPage`
   * when the route set it, else `404` for a 404 answer, `front-page` for `/`,
   * `search` when the query has `s`; other pages get no attributes.
   */
  page?: (req: Request, res: Response) => PageTyping | undefined;
}

type Callback = (err?: Error | null) => void;

function defaultPage(req: Request, res: Response): PageTyping | undefined {
  const set = res.locals.svcPage as PageTyping | undefined;
  if (set) return set;
  if (res.statusCode === 404) return { type: '404' };
  if (req.path === '/') return { type: 'front-page' };
  if (typeof req.query.s === 'string') return { type: 'search' };
  return undefined;
}

/** `write` / `end` arguments in their three shapes: (cb), (chunk, cb), (chunk, encoding, cb). */
function parts(args: unknown[]): { chunk?: Buffer; callback?: Callback } {
  const callback = args.find((a): a is Callback => typeof a === 'function');
  const [chunk, encoding] = args;
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return { callback };
  const buffer = Buffer.isBuffer(chunk) ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk) : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return { chunk: buffer, callback };
}

const isHtml = (res: Response) =>
  res.statusCode !== 204 && res.statusCode !== 304 && /^text\/html\b/i.test(String(res.getHeader('content-type') ?? '')) && !res.getHeader('content-encoding');

/**
 * Express middleware for sites served through Node: buffers each HTML page,
 * writes the page typing of tracking.md §2.4 into its `<body>` tag and the
 * tracking snippet into its `<head>`. Other answers pass through untouched;
 * a page typing the tracker could not store leaves the page as it is.
 * Put it before the routes (and before compression, which it leaves alone).
 */
export function svcTracking(options: SvcTrackingMiddlewareOptions = {}): RequestHandler {
  const snippet = options.snippet?.trim();
  if (snippet !== undefined && !/^<script\s[^>]*\bsrc="https?:\/\/[^"]+"[^>]*><\/script>$/i.test(snippet)) {
    throw new TypeError('snippet: the <script src="…"></script> line of the svc settings page is expected');
  }
  const src = snippet ? /\bsrc="([^"]+)"/i.exec(snippet)![1]! : '';
  const pageOf = options.page ?? defaultPage;

  return (req, res, next) => {
    if (req.method !== 'GET') return next();
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const chunks: Buffer[] = [];
    let buffering: boolean | undefined;
    const html = () => (buffering ??= isHtml(res));

    const transform = (page: string): string => {
      let out = page;
      const typing = pageOf(req, res);
      if (typing) {
        try {
          out = addBodyAttributes(out, typing);
        } catch {
          // a bad id or type: the page is served without attributes
        }
      }
      if (snippet && !out.includes(src)) out = out.replace(/<\/head>/i, `${snippet}\n</head>`);
      return out;
    };

    res.write = ((...args: unknown[]) => {
      if (!html()) return write(...args);
      const { chunk, callback } = parts(args);
      if (chunk) chunks.push(chunk);
      callback?.();
      return true;
    }) as Response['write'];
    res.end = ((...args: unknown[]) => {
      if (!html()) return end(...args);
      const { chunk, callback } = parts(args);
      if (chunk) chunks.push(chunk);
      const body = Buffer.from(transform(Buffer.concat(chunks).toString('utf8')));
      if (!res.headersSent) res.setHeader('Content-Length', body.length);
      return end(body, callback);
    }) as Response['end'];
    next();
  };
}
