import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { type CachedBody, cachedHeaders, sendCached } from '../../../core';
import { JS_TYPE, PUBLIC_SCRIPT_HEADERS } from './scripts';

/** A script ready to serve: its code, gzipped copy and content-hash ETag. */
export type BuiltScript = CachedBody;

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

/**
 * The headers every served script carries; when the browser's copy is current
 * it answers 304 and returns true.
 */
export function scriptHeaders(req: Request, res: Response, etag: string, cacheControl: string): boolean {
  res.set(PUBLIC_SCRIPT_HEADERS);
  return cachedHeaders(req, res, etag, { cacheControl, contentType: JS_TYPE });
}

/** Answers with a script from memory: 304 when current, gzipped when accepted. */
export function sendScript(req: Request, res: Response, script: BuiltScript, cacheControl: string): void {
  res.set(PUBLIC_SCRIPT_HEADERS);
  sendCached(req, res, script, { cacheControl, contentType: JS_TYPE });
}

/** Headless mode: no script is offered (tracking.md §5 rule 4). */
export function sendHeadless(res: Response): void {
  res.set(PUBLIC_SCRIPT_HEADERS);
  res.status(404).type(JS_TYPE).setHeader('Cache-Control', 'no-store');
  res.send('/* svc: headless mode; the tracking script is not offered. */\n');
}
