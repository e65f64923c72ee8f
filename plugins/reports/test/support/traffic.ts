import { DateTime } from 'luxon';
import type { Database } from '../../../../core';

export interface Visit {
  /** Local time in the site timezone, e.g. 2026-03-02T10:00. */
  at: string;
  url: string;
  referrer?: string;
  uid?: string;
  type?: string;
}

/** Writes sessions and pageviews of a site (the default one unless named) straight into the kernel's statistics tables (one session per visit). */
export async function insertVisits(db: Database, timezone: string, visits: readonly Visit[], siteId = 1): Promise<void> {
  const q = (t: string) => db.quote(db.table(t));
  for (const [i, v] of visits.entries()) {
    const time = DateTime.fromISO(v.at, { zone: timezone }).toSeconds();
    const uid = v.uid ?? `visitor-${i}`;
    const { id: session } = await db.insert(
      `INSERT INTO ${q('sessions')} (site_id, uid, time, last_time, host, referrer, first_time_visit, bounce) VALUES (?, ?, ?, ?, 'example.com', ?, 1, 1)`,
      [siteId, uid, time, time, v.referrer ?? ''],
    );
    await db.insert(
      `INSERT INTO ${q('statistics')} (site_id, page_url, parameters, fragment, page_id, page_type, time, uid, time_on_page, session_id) VALUES (?, ?, '', '', 0, ?, ?, ?, 10, ?)`,
      [siteId, v.url, v.type ?? 'page', time, uid, session],
    );
  }
}
