import type { Transaction } from 'sequelize';
import type { Database, SvcServices } from '../../../core';
import { insertIgnore, num, tbl } from '../db';

/** A session may be written a little after the shop event that belongs to it (clock skew between servers). */
const SKEW = 60;
const MAX_NAME = 191;

interface KnownSession {
  id: number;
  time: number;
  referrer: string;
}

/** The UTM fields read from a session's pageviews: parsed by the sources plugin, or the query-string key. */
type UtmField = 'campaign' | 'source';

/** Lower-cased host of a referrer URL without `www.`; '' when it is none. */
function referrerDomain(referrer: string): string {
  try {
    return new URL(referrer).hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
  } catch {
    return '';
  }
}

/**
 * Links shop events to the visitor's tracked session through the uid, so
 * country (city_code), device, campaign and traffic source come from
 * tracking. One linker serves one ingestion call of one site and reads
 * each visitor's sessions of that site once.
 */
export class VisitorLinker {
  private readonly sessions = new Map<string, KnownSession[]>();
  private readonly sources = new Map<number, string>();

  constructor(
    private readonly db: Database,
    private readonly siteId: number,
    /** The sources plugin's parsed campaigns, when it is loaded. */
    private readonly campaigns: () => SvcServices['campaigns'] | undefined,
  ) {}

  /** The visitor's sessions, oldest first. */
  private async known(uid: string, t: Transaction): Promise<KnownSession[]> {
    let known = this.sessions.get(uid);
    if (!known) {
      const rows = await this.db.select<{ ID: number; time: number; referrer: string }>(`SELECT ID, time, referrer FROM ${tbl(this.db, 'sessions')} WHERE site_id = ? AND uid = ? ORDER BY time, ID`, [this.siteId, uid], t);
      known = rows.map((r) => ({ id: num(r.ID), time: num(r.time), referrer: r.referrer ?? '' }));
      this.sessions.set(uid, known);
    }
    return known;
  }

  /** The visitor's latest session started at or before `time`, or 0. */
  async session(uid: string, time: number, t: Transaction): Promise<number> {
    if (!uid) return 0;
    return (await this.known(uid, t)).findLast((s) => s.time <= time + SKEW)?.id ?? 0;
  }

  /**
   * Where the visitor first came from (first touch): of the visitor's first
   * session before `time`, the `utm_source` its pageviews carried, else the
   * referrer's domain (`google.com`), else `direct`; '' without a tracked
   * session.
   */
  async trafficSource(uid: string, time: number, t: Transaction): Promise<string> {
    if (!uid) return '';
    const first = (await this.known(uid, t)).find((s) => s.time <= time + SKEW);
    if (!first) return '';
    let source = this.sources.get(first.id);
    if (source === undefined) {
      source = (await this.utm(first.id, 'source', t)) || referrerDomain(first.referrer) || 'direct';
      this.sources.set(first.id, source);
    }
    return source;
  }

  /**
   * The campaign the session arrived with, as an id of ecommerce_campaigns
   * (0 without one).
   */
  async campaign(sessionId: number, t: Transaction): Promise<number> {
    if (!sessionId) return 0;
    const name = await this.utm(sessionId, 'campaign', t);
    if (!name) return 0;
    const created = await insertIgnore(this.db, 'ecommerce_campaigns', { name }, t);
    if (created) return created;
    const [row] = await this.db.select<{ ID: number }>(`SELECT ID FROM ${tbl(this.db, 'ecommerce_campaigns')} WHERE name = ?`, [name], t);
    return num(row!.ID);
  }

  /**
   * A UTM field of the session: the first value the sources plugin parsed
   * for the session's pageviews, else `utm_<field>` (key in any case) of its
   * first pageviews' query strings (statistics.parameters), which sources
   * may not have parsed yet; '' without one.
   */
  private async utm(sessionId: number, field: UtmField, t: Transaction): Promise<string> {
    const parsed = (await this.campaigns()?.sessionUtm(sessionId, field, t)) ?? '';
    return (parsed || (await this.rawUtm(sessionId, `utm_${field}`, t))).slice(0, MAX_NAME);
  }

  private async rawUtm(sessionId: number, key: string, t: Transaction): Promise<string> {
    const rows = await this.db.select<{ parameters: string }>(
      `SELECT parameters FROM ${tbl(this.db, 'statistics')} WHERE session_id = ? AND parameters <> '' ORDER BY time, ID LIMIT 5`,
      [sessionId],
      t,
    );
    for (const { parameters } of rows) {
      for (const [name, value] of new URLSearchParams(parameters)) if (name.toLowerCase() === key && value.trim()) return value.trim();
    }
    return '';
  }
}
