import { type Database, insertIfAbsent } from '../../../core';
import type { ShareInput, ShareLinkType } from '../types';

/** A stored row of `{prefix}svc_share_tokens`. */
export interface TokenRow {
  token: string;
  site_id: number;
  report_id: number;
  tab: string;
  view_query: string;
  permissions: string;
  shared_tabs: string;
  initial_state: string;
  created: number;
  expires: number;
}

export interface TokenQuery {
  type: ShareLinkType;
  token?: string;
  reportId?: number;
}

const NUMERIC: ReadonlyArray<keyof TokenRow> = ['site_id', 'report_id', 'created', 'expires'];

/** Storage of share tokens, each bound to one site; the token service is its only user. */
export class TokenStore {
  constructor(private readonly db: Database) {}

  private get t(): string {
    return this.db.quote(this.db.table('share_tokens'));
  }

  /** The site's tokens not expired at `now` matching `query`, newest first. */
  async live(siteId: number, now: number, query: TokenQuery): Promise<TokenRow[]> {
    const where = ['site_id = ?', '(expires = 0 OR expires > ?)'];
    const args: unknown[] = [siteId, now];
    if (query.type === 'link') where.push('report_id = 0');
    if (query.type === 'report') where.push('report_id <> 0');
    if (query.token !== undefined) {
      where.push('token = ?');
      args.push(query.token);
    }
    if (query.reportId) {
      where.push('report_id = ?');
      args.push(query.reportId);
    }
    const rows = await this.db.select<TokenRow>(`SELECT * FROM ${this.t} WHERE ${where.join(' AND ')} ORDER BY created DESC, token`, args);
    return rows.map(normalise);
  }

  /** The live token `token` of whichever site it belongs to: a visitor's link names no site, its token does. */
  async find(token: string, now: number): Promise<TokenRow | null> {
    const [row] = await this.db.select<TokenRow>(`SELECT * FROM ${this.t} WHERE token = ? AND (expires = 0 OR expires > ?)`, [token, now]);
    return row ? normalise(row) : null;
  }

  /** Stores a dashboard link, or a report's token unless the report already has one; true when inserted. */
  async insert(siteId: number, token: string, input: ShareInput, now: number): Promise<boolean> {
    if (input.reportId > 0) {
      // An expired token still holds the report's unique key until the daily purge.
      await this.db.execute(`DELETE FROM ${this.t} WHERE report_key = ? AND expires <> 0 AND expires <= ?`, [input.reportId, now]);
    }
    return insertIfAbsent(this.db, this.db.table('share_tokens'), {
      token,
      site_id: siteId,
      report_id: input.reportId,
      report_key: input.reportId > 0 ? input.reportId : null,
      tab: input.tab,
      view_query: input.viewQuery,
      permissions: JSON.stringify(input.permissions),
      shared_tabs: JSON.stringify(input.sharedTabs),
      initial_state: JSON.stringify(input.initialState),
      created: now,
      expires: input.expires,
    });
  }

  /** Gives an existing token new settings (a report's token is renewed, not replaced). */
  async renew(token: string, input: Pick<ShareInput, 'expires' | 'permissions' | 'initialState'>): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET expires = ?, permissions = ?, initial_state = ? WHERE token = ?`, [
      input.expires,
      JSON.stringify(input.permissions),
      JSON.stringify(input.initialState),
      token,
    ]);
  }

  async extend(token: string, expires: number): Promise<void> {
    await this.db.execute(`UPDATE ${this.t} SET expires = ? WHERE token = ? AND expires <> 0 AND expires < ?`, [expires, token, expires]);
  }

  async delete(siteId: number, token: string): Promise<boolean> {
    return (await this.db.execute(`DELETE FROM ${this.t} WHERE site_id = ? AND token = ?`, [siteId, token])) > 0;
  }

  async deleteExpired(now: number): Promise<number> {
    return this.db.execute(`DELETE FROM ${this.t} WHERE expires <> 0 AND expires <= ?`, [now]);
  }

  /** Every report that has a token, with the site of that token. */
  async reportIds(): Promise<Array<{ siteId: number; reportId: number }>> {
    const rows = await this.db.select<{ site_id: number; report_id: number }>(`SELECT DISTINCT site_id, report_id FROM ${this.t} WHERE report_id <> 0`);
    return rows.map((r) => ({ siteId: Number(r.site_id), reportId: Number(r.report_id) }));
  }

  async deleteForReport(siteId: number, reportId: number): Promise<number> {
    return this.db.execute(`DELETE FROM ${this.t} WHERE site_id = ? AND report_id = ?`, [siteId, reportId]);
  }
}

function normalise(row: TokenRow): TokenRow {
  const out = { ...row };
  for (const key of NUMERIC) (out as Record<string, unknown>)[key] = Number(row[key]);
  return out;
}
