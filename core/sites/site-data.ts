import type { Database } from '../db/database';

/**
 * Per dialect: the install's tables (name starting with its prefix) that have
 * a `site_id` column — every table holding per-site data, whoever owns it.
 */
const TABLES_WITH_SITE_ID = {
  sqlite: "SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) c ON c.name = 'site_id' WHERE m.type = 'table' AND substr(m.name, 1, ?) = ?",
  mysql:
    "SELECT TABLE_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND COLUMN_NAME = 'site_id' AND LEFT(TABLE_NAME, ?) = ?",
} as const;

/**
 * Deletes the rows of one site from every table that holds per-site data
 * (people's roles on it are the sites service's to forget); how many went.
 */
export async function deleteSiteRows(db: Database, siteId: number): Promise<number> {
  const prefix = db.table('');
  const tables = await db.select<{ name: string }>(TABLES_WITH_SITE_ID[db.dialect], [prefix.length, prefix]);
  let deleted = 0;
  for (const { name } of tables) {
    if (name !== db.table('site_roles')) deleted += await db.execute(`DELETE FROM ${db.quote(name)} WHERE site_id = ?`, [siteId]);
  }
  return deleted;
}
