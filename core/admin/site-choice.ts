import type { Request, Response } from 'express';
import type { Capability, SvcUser } from '../auth/types';
import type { SvcConfig } from '../config';
import { isSvcError } from '../errors';
import type { Sites } from '../sites/sites';
import type { Site } from '../sites/types';

/** Remembers the site chosen in the admin header, so every page opens on it until another is chosen. */
export const SITE_COOKIE = 'svc_site';

function cookieOf(req: Request): string | undefined {
  const pair = (req.headers.cookie ?? '').split(/;\s*/).find((c) => c.startsWith(`${SITE_COOKIE}=`));
  return pair === undefined ? undefined : decodeURIComponent(pair.slice(SITE_COOKIE.length + 1));
}

/**
 * The site an admin page shows: `?site=` (id or domain; an unknown one or one
 * the person may not see is a 404), else the remembered choice when still
 * theirs, else their default. A `?site=` choice is remembered. The share-link
 * viewer never reads the cookie: its site comes from its link.
 */
export async function chosenSite(sites: Sites, config: SvcConfig, user: SvcUser, capability: Capability, req: Request, res: Response): Promise<Site> {
  const asked = (req.query as Record<string, unknown>).site;
  if (asked !== undefined && asked !== '') {
    const site = await sites.authorize(user, asked, capability);
    if (!user.system) res.cookie(SITE_COOKIE, String(site.id), { httpOnly: true, sameSite: 'lax', path: config.basePath || '/', encode: String });
    return site;
  }
  const remembered = user.system ? undefined : cookieOf(req);
  if (remembered !== undefined) {
    try {
      return await sites.authorize(user, remembered, capability);
    } catch (err) {
      if (!isSvcError(err) || err.code !== 'svc_unknown_site') throw err;
    }
  }
  return sites.authorize(user, undefined, capability);
}
