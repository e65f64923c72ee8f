import type { RequestHandler } from 'express';
import { SvcError } from '../errors';

/** True when every `%` escape of the URL's path decodes (a `%` followed by two hex digits, forming UTF-8). */
function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a request whose path holds a malformed `%` escape (`/%zz`, a cut
 * UTF-8 sequence) with 400 `svc_invalid_url_encoding`, before any route
 * tries to decode it.
 */
export const refuseMalformedPaths: RequestHandler = (req, _res, next) => {
  const url = req.url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes('%') || decodable(path)) return next();
  next(new SvcError('svc_invalid_url_encoding', 'The address holds a malformed % escape.', 400));
};
