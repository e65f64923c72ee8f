import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Sequelize } from 'sequelize';

export interface TestDatabase {
  /** Value for `SVC_DATABASE_URL`. */
  url: string;
  kind: 'sqlite' | 'mysql';
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or a new
 * MariaDB/MySQL database on `SVC_TEST_MYSQL_URL` when the mysql project runs.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.SVC_TEST_DB === 'mysql') {
    const serverUrl = process.env.SVC_TEST_MYSQL_URL;
    if (!serverUrl) throw new Error('SVC_TEST_MYSQL_URL is not set');
    const name = `svc_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new Sequelize(serverUrl, { logging: false, dialect: 'mysql' });
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.close();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      kind: 'mysql',
      async drop() {
        const conn = new Sequelize(serverUrl, { logging: false, dialect: 'mysql' });
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.close();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  return {
    url: `sqlite:${path.join(dir, 'svc.sqlite')}`,
    kind: 'sqlite',
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
