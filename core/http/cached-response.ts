import type { Request, Response } from 'express';

/** Year-long caching for URLs that carry the content hash, revalidation otherwise. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/** A body held in memory with its gzipped copy and its quoted content-hash ETag. */
export interface CachedBody {
  code: Buffer;
  gzipped: Buffer;
  etag: string;
}

export const acceptsGzip = (req: Request): boolean => /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));

/**
 * Sets the headers of a content-hashed answer; when the browser's copy is
 * current it answers 304 and returns true.
 */
export function cachedHeaders(req: Request, res: Response, etag: string, headers: { cacheControl: string; contentType: string }): boolean {
  res.setHeader('Content-Type', headers.contentType);
  res.setHeader('Cache-Control', headers.cacheControl);
  res.setHeader('ETag', etag);
  res.vary('Accept-Encoding');
  if (req.headers['if-none-match'] !== etag) return false;
  res.status(304).end();
  return true;
}

/** Answers with a body from memory: 304 when current, gzipped when accepted. */
export function sendCached(req: Request, res: Response, body: CachedBody, headers: { cacheControl: string; contentType: string }): void {
  if (cachedHeaders(req, res, body.etag, headers)) return;
  if (acceptsGzip(req)) {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(body.gzipped);
    return;
  }
  res.send(body.code);
}
