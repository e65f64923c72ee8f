import { ensureBuilt } from '../helpers/dist';
import { recordedRuns, startCronNode } from '../helpers/cron-node';
import { type TestKernel, ADMIN, createTestKernel } from '../helpers/test-kernel';

const EVENTS = 40;

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
    const nodes = await Promise.all([startCronNode(env), startCronNode(env)]);
    for (const node of nodes) node.go();
    const ran = await Promise.all(nodes.map((n) => n.done));

    expect(ran[0]! + ran[1]!).toBe(EVENTS);
    const { perEvent, pids } = await recordedRuns(tk.kernel.db);
    expect(perEvent.size).toBe(EVENTS);
    expect([...perEvent.values()].every((n) => n === 1)).toBe(true);
    expect([...pids].every((pid) => nodes.some((n) => String(n.child.pid) === pid))).toBe(true);
    expect(await tk.kernel.scheduler.pending()).toEqual([]);
  }, 60_000);
});
