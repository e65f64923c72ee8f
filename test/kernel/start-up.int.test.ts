import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DIST, SVC_BIN, cleanEnv, ensureBuilt, runScript } from '../helpers/dist';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { freePort } from '../helpers/test-kernel';

const svc = (cwd: string, env: Record<string, string>, ...args: string[]) => runScript(SVC_BIN, args, { cwd, env });

interface Server {
  child: ChildProcess;
  /** The start-up log entry. */
  listening: Record<string, unknown>;
}

/** `dist/core/server.js` in its own process; resolves on its start-up log line. */
function startServer(cwd: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [path.join(DIST, 'core', 'server.js')], { cwd, env: cleanEnv(env) });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no start-up line in 30 s: ${out}${err}`)), 30_000);
    child.stderr!.on('data', (c) => (err += String(c)));
    child.stdout!.on('data', (c) => {
      out += String(c);
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (String(entry.msg).startsWith('svc listening')) {
          clearTimeout(timer);
          resolve({ child, listening: entry });
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** True when a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const otherAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('configuration in one place: .env files, HOST, the front page and the start-up line', () => {
  let database: TestDatabase;
  let dir: string;
  let servers: Server[] = [];

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
  }, 120_000);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-start-'));
  });
  afterEach(async () => {
    await Promise.all(servers.map(stop));
    servers = [];
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => database?.drop());

  it('gives svc the license of the .env file in the working directory; the environment wins', async () => {
    fs.writeFileSync(path.join(dir, '.env'), `SVC_LICENSE=business\nSVC_PLUGINS=sales\nSVC_DATABASE_URL=${database.url}\n`);
    const help = await svc(dir, {}, 'help');
    expect(help.stdout).toContain('svc sales backfill <integration>');
    const backfill = await svc(dir, {}, 'sales', 'backfill', 'nowhere');
    expect(backfill.stderr).toContain('svc: no integration named nowhere');
    expect(backfill.stderr).not.toContain('unknown command');

    const free = await svc(dir, { SVC_LICENSE: 'free' }, 'sales', 'backfill', 'nowhere');
    expect(free.code).toBe(2);
    expect(free.stderr).toContain('unknown command sales');
  }, 60_000);

  it('reads <SVC_DATA_DIR>/.env too', async () => {
    const data = path.join(dir, 'state');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, '.env'), `SVC_LICENSE=business\nSVC_PLUGINS=sales\n`);
    const help = await svc(dir, { SVC_DATA_DIR: data, SVC_DATABASE_URL: database.url }, 'help');
    expect(help.stdout).toContain('svc sales backfill <integration>');
  }, 60_000);

  it('stops with one line naming a .env that cannot be read', async () => {
    fs.mkdirSync(path.join(dir, '.env'));
    const run = await svc(dir, {}, 'migrate');
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`svc: ${path.join(dir, '.env')}: cannot be read (EISDIR)`);
  }, 60_000);

  it('binds to HOST only, names that address on start-up, and sends / to the admin', async () => {
    const port = await freePort();
    fs.writeFileSync(path.join(dir, '.env'), `HOST=127.0.0.1\nSVC_PLUGINS=none\n`);
    const server = await startServer(dir, { PORT: String(port), SVC_DATABASE_URL: database.url, SVC_DATA_DIR: dir });
    servers.push(server);
    expect(server.listening.msg).toBe(
      `svc listening on 127.0.0.1, port ${port}: http://127.0.0.1:${port}/svc-admin/; links in mails and snippets use SVC_BASE_URL http://localhost:${port}`,
    );
    expect(server.listening).toMatchObject({ host: '127.0.0.1', port, listen: [`http://127.0.0.1:${port}`], envFiles: [path.join(dir, '.env')] });
    const front = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
    expect(front.status).toBe(302);
    expect(front.headers.get('location')).toBe('/svc-admin/');
    if (otherAddress) expect(await accepts(otherAddress, port)).toBe(false);
  }, 60_000);

  it('listens on every interface by default and says so', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/stats`;
    const server = await startServer(dir, { PORT: String(port), SVC_BASE_URL: base, SVC_PLUGINS: 'none', SVC_DATABASE_URL: database.url, SVC_DATA_DIR: dir });
    servers.push(server);
    expect(String(server.listening.msg)).toMatch(new RegExp(`^svc listening on all interfaces, port ${port}: http://127\\.0\\.0\\.1:${port}/stats/svc-admin/`));
    expect(server.listening.msg).not.toContain('SVC_BASE_URL');
    expect(server.listening.envFiles).toEqual([]);
    const front = await fetch(`${base}`, { redirect: 'manual' });
    expect(front.headers.get('location')).toBe('/stats/svc-admin/');
    if (otherAddress) expect(await accepts(otherAddress, port)).toBe(true);
  }, 60_000);
});
