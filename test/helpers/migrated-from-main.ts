import { type Database, connectDatabase } from '../../core/db/database';
import { type Migration, runMigrations } from '../../core/db/migrator';
import { createMemoryLogger } from '../../core/logger';
import { coreMigrations } from '../../core/migrations';
import { type TestDatabase, createTestDatabase } from './test-db';

export interface MigratedDatabase {
  db: Database;
  /** Applies the plugin's migrations that came after `before` (those of a database made before them). */
  upgrade(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A fresh database with the kernel's schema and plugin `owner`'s migrations
 * up to `before` (exclusive), as an install of that time left it; rows
 * planted there then meet the later migrations through `upgrade`.
 */
export async function databaseBefore(owner: string, migrations: readonly Migration[], before: string): Promise<MigratedDatabase> {
  const { logger } = createMemoryLogger('error');
  const database: TestDatabase = await createTestDatabase();
  const db = await connectDatabase(database.url, 'mg_');
  await runMigrations(db, 'core', coreMigrations, logger);
  const cut = migrations.findIndex((m) => m.name === before);
  if (cut < 0) throw new Error(`${owner} has no migration ${before}`);
  await runMigrations(db, owner, migrations.slice(0, cut), logger);
  return {
    db,
    upgrade: () => runMigrations(db, owner, migrations, logger),
    async close() {
      await db.close();
      await database.drop();
    },
  };
}
