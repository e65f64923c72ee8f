import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

export type BenchDialect = 'sqlite' | 'mysql';

const mysqlServer = () => process.env.SVC_BENCH_MYSQL_URL || process.env.SVC_TEST_MYSQL_URL;

/** `SVC_BENCH_MYSQL_URL` (or the test URL) enables the MariaDB runs; `SVC_BENCH_DIALECTS` (`sqlite`, `mysql`) narrows them. */
export function benchDialects(): BenchDialect[] {
  const all: BenchDialect[] = mysqlServer() ? ['sqlite', 'mysql'] : ['sqlite'];
  const only = (process.env.SVC_BENCH_DIALECTS ?? '').split(',').map((d) => d.trim()).filter(Boolean);
  return only.length ? all.filter((d) => only.includes(d)) : all;
}

async function onServer(server: string, sql: string): Promise<void> {
  const connection = await mysql.createConnection(server);
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/** An empty database: a temporary SQLite file, or a new database on the MariaDB server. */
export async function freshDatabase(dialect: BenchDialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
    return { url: `sqlite:${path.join(dir, 'svc.sqlite')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const server = mysqlServer()!;
  const name = `svc_bench_${randomBytes(4).toString('hex')}`;
  await onServer(server, `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(server, `DROP DATABASE IF EXISTS \`${name}\``) };
}
