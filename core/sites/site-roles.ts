import type { Database } from '../db/database';
import { upsert } from '../db/sql';
import type { SiteRole } from './types';

export interface SiteRoleRow {
  userId: number;
  siteId: number;
  role: SiteRole;
}

/**
 * People's roles per site (`site_roles`). A person with no row keeps the role
 * of their account on every site; one with rows sees only those sites.
 */
export class SiteRoles {
  constructor(private readonly db: Database) {}

  private get t(): string {
    return this.db.quote(this.db.table('site_roles'));
  }

  /** The roles of one person, by site id. */
  async of(userId: number): Promise<ReadonlyMap<number, SiteRole>> {
    const rows = await this.db.select<{ site_id: number | string; role: SiteRole }>(`SELECT site_id, role FROM ${this.t} WHERE user_id = ?`, [userId]);
    return new Map(rows.map((r) => [Number(r.site_id), r.role]));
  }

  /** Every row, for the Users page. */
  async all(): Promise<SiteRoleRow[]> {
    const rows = await this.db.select<{ user_id: number | string; site_id: number | string; role: SiteRole }>(
      `SELECT user_id, site_id, role FROM ${this.t} ORDER BY user_id, site_id`,
    );
    return rows.map((r) => ({ userId: Number(r.user_id), siteId: Number(r.site_id), role: r.role }));
  }

  /**
   * Forgets the roles on a removed site, except a person's last one: with no
   * row left they would see every site with their account's role, so that row
   * stays and they see no site until an administrator gives them another.
   */
  async forgetSite(siteId: number): Promise<void> {
    // The derived table lets MariaDB read the table it deletes from.
    await this.db.execute(
      `DELETE FROM ${this.t} WHERE site_id = ? AND user_id IN (SELECT user_id FROM (SELECT user_id FROM ${this.t} WHERE site_id <> ?) others)`,
      [siteId, siteId],
    );
  }

  /** Gives a person a role on a site, or takes it away (null). */
  async set(userId: number, siteId: number, role: SiteRole | null): Promise<void> {
    if (role === null) {
      await this.db.execute(`DELETE FROM ${this.t} WHERE user_id = ? AND site_id = ?`, [userId, siteId]);
      return;
    }
    await upsert(this.db, this.db.table('site_roles'), { user_id: userId, site_id: siteId, role }, ['user_id', 'site_id'], ['role']);
  }
}
