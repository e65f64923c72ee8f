import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt } from '../helpers/dist';
import { type TestKernel, ADMIN, createTestKernel } from '../helpers/test-kernel';

const NODE_SCRIPT = path.join(__dirname, 'fixtures', 'cron-node.js');
const EVENTS = 40;

interface NodeMessage {
  type: 'ready' | 'done';
  ran?: number;
}

/** Forks one app node on the test database and resolves once it has booted. */
function startNode(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; done: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const child = fork(NODE_SCRIPT, [], { env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    const done = new Promise<number>((res, rej) => {
      child.on('message', (m: NodeMessage) => m.type === 'done' && res(m.ran ?? 0));
      child.on('exit', (code) => code !== 0 && rej(new Error(`node exited with ${code}: ${stderr}`)));
    });
    child.on('message', (m: NodeMessage) => m.type === 'ready' && resolve({ child, done }));
    child.on('exit', (code) => code !== 0 && reject(new Error(`node exited with ${code} before it was ready: ${stderr}`)));
  });
}

describe('two app processes on one database', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    ensureBuilt();
    tk = await createTestKernel();
  }, 120_000);
  afterAll(() => tk?.close());

  it('run each due single event exactly once between them', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (let report = 1; report <= EVENTS; report++) {
      await tk.kernel.scheduler.scheduleSingle(now - 10, 'svc_send_email_batch', [report, `queue-${report}`, 1]);
    }
    const env = {
      ...process.env,
      SVC_DATABASE_URL: tk.database.url,
      SVC_DATA_DIR: tk.dataDir,
      SVC_PLUGINS: 'recorder',
      SVC_ADMIN_USER: ADMIN.login,
      SVC_ADMIN_PASSWORD: ADMIN.password,
    };
    const nodes = await Promise.all([startNode(env), startNode(env)]);
    for (const { child } of nodes) child.send('go');
    const ran = await Promise.all(nodes.map((n) => n.done));

    expect(ran[0]! + ran[1]!).toBe(EVENTS);
    const db = tk.kernel.db;
    const rows = await db.select<{ option_name: string }>(`SELECT option_name FROM ${db.quote(db.table('options'))} WHERE option_name LIKE ?`, ['ran_%']);
    const perEvent = new Map<string, number>();
    for (const { option_name } of rows) {
      const report = option_name.split('_')[1]!;
      perEvent.set(report, (perEvent.get(report) ?? 0) + 1);
    }
    expect(perEvent.size).toBe(EVENTS);
    expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
    const pids = new Set(rows.map((r) => r.option_name.split('_')[2]));
    expect([...pids].every((pid) => nodes.some((n) => String(n.child.pid) === pid))).toBe(true);
    expect(await tk.kernel.scheduler.pending()).toEqual([]);
  }, 60_000);
});
