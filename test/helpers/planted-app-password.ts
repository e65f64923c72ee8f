import { hashPassword } from '../../core/auth/passwords';
import type { Database } from '../../core/db/database';

/**
 * Writes an application password straight into the table, the way one made
 * before public ids was stored, bypassing the checks of `appPasswords.create`
 * (tests of accounts that must never hold one).
 */
export async function plantAppPassword(db: Database, userId: number, secret: string, created: number): Promise<void> {
  await db.execute(`INSERT INTO ${db.quote(db.table('application_passwords'))} (uuid, user_id, name, password, created) VALUES (?, ?, ?, ?, ?)`, [
    '6f1c1b1e-0000-4000-8000-000000000001',
    userId,
    'planted',
    await hashPassword(secret),
    created,
  ]);
}
