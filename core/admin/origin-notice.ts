import type { Request, Response } from 'express';
import type { SvcConfig } from '../config';

const COOKIE = 'svc_origin_notice';

export interface OriginNotice {
  /** Where the browser opened the admin. */
  opened: string;
  /** `SVC_BASE_URL`, which links in mails, share links and the tracking snippet use. */
  baseUrl: string;
}

/**
 * The admin answers on whatever address it is opened at and calls the API
 * there; only links meant for others use `SVC_BASE_URL`. When the two differ
 * the operator is told once per browser session (a session cookie remembers
 * the address it was told about).
 */
export function originNoticeOnce(req: Request, res: Response, config: SvcConfig): OriginNotice | null {
  const host = req.get('host');
  if (!host) return null;
  const opened = `${req.protocol}://${host}`;
  if (opened === new URL(config.baseUrl).origin) return null;
  const seen = (req.headers.cookie ?? '').split(/;\s*/).some((c) => c === `${COOKIE}=${encodeURIComponent(opened)}`);
  if (seen) return null;
  res.cookie(COOKIE, encodeURIComponent(opened), { httpOnly: true, sameSite: 'lax', path: config.basePath || '/', encode: String });
  return { opened, baseUrl: config.baseUrl };
}
