import type { QueryInterface } from 'sequelize';
import { type ColumnTypes, columnTypes } from './column-types';
import type { SvcLogger } from '../logger';
import type { Database } from './database';
import { withMigrationLock } from './migration-lock';

export interface MigrationContext {
  db: Database;
  queryInterface: QueryInterface;
  /** Column types for the active dialect. */
  types: ColumnTypes;
}

/** A numbered schema step; names are unique per owner (core or a plugin). */
export interface Migration {
  name: string;
  up(context: MigrationContext): Promise<void>;
  down?(context: MigrationContext): Promise<void>;
}

/**
 * Applies pending migrations of one owner. Every owner shares the
 * `{prefix}svc_migrations` table; names are stored as `<owner>/<name>`, so
 * running twice is a no-op and two nodes starting together take turns.
 */
export async function runMigrations(
  db: Database,
  owner: string,
  migrations: readonly Migration[],
  logger: SvcLogger,
): Promise<string[]> {
  if (migrations.length === 0) return [];
  const names = migrations.map((m) => `${owner}/${m.name}`);
  if (!(await anyPending(db, names))) return [];
  // Loaded only when there is work: umzug and its command-line kit weigh megabytes a server keeps for good.
  const { SequelizeStorage, Umzug } = await import('umzug');
  const context: MigrationContext = { db, queryInterface: db.sequelize.getQueryInterface(), types: columnTypes(db.dialect) };
  const umzug = new Umzug<MigrationContext>({
    migrations: migrations.map((m) => ({
      name: `${owner}/${m.name}`,
      up: ({ context: c }) => m.up(c),
      down: m.down ? ({ context: c }) => m.down!(c) : undefined,
    })),
    context,
    storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: db.table('migrations'), modelName: 'SvcMigration' }),
    logger: undefined,
  });
  return withMigrationLock(db, async () => {
    const applied = await umzug.up();
    for (const m of applied) logger.info({ migration: m.name }, `migration ${m.name} applied`);
    return applied.map((m) => m.name);
  });
}

/** Whether any of `names` is not recorded as applied (true as well while the table does not exist yet). */
async function anyPending(db: Database, names: readonly string[]): Promise<boolean> {
  let applied: Set<string>;
  try {
    applied = new Set((await db.select<{ name: string }>(`SELECT name FROM ${db.quote(db.table('migrations'))}`)).map((r) => r.name));
  } catch {
    return true;
  }
  return names.some((name) => !applied.has(name));
}
