import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { JS_TYPE, PUBLIC_SCRIPT_HEADERS } from './scripts';

/** A script ready to serve: its code, gzipped copy and content-hash ETag. */
export interface BuiltScript {
  code: Buffer;
  gzipped: Buffer;
  /** Quoted, as the header carries it. */
  etag: string;
}

/** Year-long caching for URLs that carry the content hash, revalidation otherwise. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';
/** The embed snippet carries the options: browsers keep it five minutes, then revalidate by ETag. */
export const EMBED_CACHE = 'public, max-age=300';

export const contentHash = (code: Buffer | string): string => createHash('sha256').update(code).digest('hex').slice(0, 16);

/** Keeps the last built script per key, so unchanged content is gzipped once. */
export class ScriptCache {
  private readonly last = new Map<string, BuiltScript>();

  build(key: string, code: Buffer): BuiltScript {
    const etag = `"${contentHash(code)}"`;
    const cached = this.last.get(key);
    if (cached?.etag === etag) return cached;
    const built = { code, gzipped: gzipSync(code, { level: 9 }), etag };
    this.last.set(key, built);
    return built;
  }
}

export const acceptsGzip = (req: Request): boolean => /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));

/**
 * The headers every served script carries; true when the browser's copy is
 * current (the caller answers 304).
 */
export function scriptHeaders(req: Request, res: Response, etag: string, cacheControl: string): boolean {
  res.set(PUBLIC_SCRIPT_HEADERS);
  res.setHeader('Content-Type', JS_TYPE);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  res.vary('Accept-Encoding');
  return req.headers['if-none-match'] === etag;
}

/** Answers with a script from memory: 304 when current, gzipped when accepted. */
export function sendScript(req: Request, res: Response, script: BuiltScript, cacheControl: string): void {
  if (scriptHeaders(req, res, script.etag, cacheControl)) {
    res.status(304).end();
    return;
  }
  if (acceptsGzip(req)) {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(script.gzipped);
    return;
  }
  res.send(script.code);
}

/** Headless mode: no script is offered (tracking.md §5 rule 4). */
export function sendHeadless(res: Response): void {
  res.set(PUBLIC_SCRIPT_HEADERS);
  res.status(404).type(JS_TYPE).setHeader('Cache-Control', 'no-store');
  res.send('/* svc: headless mode; the tracking script is not offered. */\n');
}
