import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from './database';
import { insertIfAbsent } from './sql';

/** How long a claim holds without renewal; the holder renews it four times as often. */
const LEASE_MS = 60_000;
/** How long a node waits for another node's migrations before it gives up. */
const WAIT_MS = 10 * 60_000;
const POLL_MS = 250;
const NAME = 'migrations';

/**
 * `{prefix}svc_locks`: named leases. It is made here rather than by a
 * migration, because the migrations run under one of its rows.
 */
async function ensureTable(db: Database): Promise<string> {
  const table = db.quote(db.table('locks'));
  const engine = db.dialect === 'mysql' ? ' ENGINE=InnoDB' : '';
  await db.execute(`CREATE TABLE IF NOT EXISTS ${table} (name VARCHAR(191) NOT NULL PRIMARY KEY, holder VARCHAR(64) NOT NULL, expires BIGINT NOT NULL)${engine}`);
  return table;
}

/** Claims the row for `holder` with one conditional write: a new row, or one whose lease ran out. */
async function claim(db: Database, table: string, holder: string): Promise<boolean> {
  const now = Date.now();
  if (await insertIfAbsent(db, db.table('locks'), { name: NAME, holder, expires: now + LEASE_MS })) return true;
  const taken = await db.execute(`UPDATE ${table} SET holder = ?, expires = ? WHERE name = ? AND expires < ?`, [holder, now + LEASE_MS, NAME, now]);
  return taken === 1;
}

/**
 * Serialises schema changes between app nodes with a row in
 * `{prefix}svc_locks`, claimed by a conditional write, which works alike on
 * one server, on SQLite and across a multi-primary cluster (where
 * `GET_LOCK` is only local to one node). The holder renews its lease while
 * it migrates; a node that died holding it is replaced once the lease runs
 * out. Waiting nodes poll, and give up after ten minutes.
 */
export async function withMigrationLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  const table = await ensureTable(db);
  const holder = randomUUID();
  const deadline = Date.now() + WAIT_MS;
  while (!(await claim(db, table, holder))) {
    if (Date.now() > deadline) throw new Error('timed out waiting for another node to finish migrating');
    await sleep(POLL_MS / 2 + Math.random() * POLL_MS);
  }
  const renew = setInterval(() => {
    db.execute(`UPDATE ${table} SET expires = ? WHERE name = ? AND holder = ?`, [Date.now() + LEASE_MS, NAME, holder]).catch(() => undefined);
  }, LEASE_MS / 4);
  renew.unref();
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await db.execute(`DELETE FROM ${table} WHERE name = ? AND holder = ?`, [NAME, holder]);
  }
}
