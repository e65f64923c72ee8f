import { PER_LOGIN } from '../../../core/auth/login-limiter';
import { DEFAULT_WINDOW } from '../../../plugins/abilities/rate-limit';
import { setAbilitiesOption, userWithPassword } from '../../../plugins/abilities/test/support';
import { HttpClient } from '../../helpers/http-client';
import { ADMIN, type TestKernel, createTestKernel } from '../../helpers/test-kernel';
import { type AppNode, startAppNodes } from '../app-node';
import type { GaleraCluster } from '../galera-cluster';
import { clusterDatabase } from './cluster-database';

/** Requests until the first 429, at most `max`; answers how many came before it. */
async function untilRefused(request: (i: number) => Promise<number>, max = 100): Promise<number> {
  for (let i = 0; i < max; i++) {
    const status = await request(i);
    if (status === 429) return i;
  }
  throw new Error(`no 429 within ${max} requests`);
}

/**
 * Waits, when need be, until the current budget window (`window` seconds,
 * aligned to the clock as the rate limiter aligns them) has `needed` seconds
 * left, so counts compared with each other fall in one window.
 */
async function oneWindowAhead(window: number, needed: number): Promise<void> {
  const left = window - ((Date.now() / 1000) % window);
  if (left < needed) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}

/** Sign-in sessions, nonces and rate-limit budgets shared by two app nodes on two cluster nodes. */
export function sharedStateTests(cluster: () => GaleraCluster): void {
  let tk: TestKernel;
  let nodes: AppNode[] = [];
  let password: string;
  let database: Awaited<ReturnType<typeof clusterDatabase>>;
  beforeAll(async () => {
    database = await clusterDatabase(cluster(), 3);
    tk = await createTestKernel({ database, plugins: ['sales', 'abilities'], env: { SVC_LICENSE: 'business' } });
    ({ password } = await userWithPassword(tk, ADMIN.login, 'administrator'));
    await setAbilitiesOption(tk, true);
    const env = (node: 1 | 2) => ({ SVC_DATABASE_URL: cluster().url(database.name, node), SVC_LICENSE: 'business', SVC_PLUGINS: 'sales,abilities' });
    nodes = await startAppNodes(env(1), env(2));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await tk?.close();
    await database?.drop();
  }, 60_000);

  it('serve a browser signed in on one node from the other, its nonce included', async () => {
    const onA = new HttpClient(nodes[0]!.url);
    expect((await onA.post('/svc-admin/login', { form: { log: ADMIN.login, pwd: ADMIN.password } })).status).toBe(302);
    const cookie = `svc_session=${onA.cookie('svc_session')}`;
    const onB = new HttpClient(nodes[1]!.url);
    const nonce = (await onB.get<{ nonce: string }>('/wp-json/svc/v1/nonce', { headers: { cookie } })).body.nonce;
    expect(nonce).toMatch(/^[a-f0-9]+$/);
    expect((await onA.get('/wp-json/svc/v1/users/me/application-passwords', { headers: { 'x-svc-nonce': nonce } })).status).toBe(200);
    expect((await onB.get('/svc-admin/account', { headers: { cookie } })).text).toContain('Signed in as <strong>admin</strong>');
  }, 30_000);

  it('draw failed sign-ins from one budget: alternating nodes is refused after as many tries as one node', async () => {
    const tryOn = (node: AppNode, login: string) => async () =>
      (await new HttpClient(node.url).post('/svc-admin/login', { form: { log: login, pwd: 'a wrong password' } })).status;
    await oneWindowAhead(PER_LOGIN.window, 60);
    const oneNode = await untilRefused(tryOn(nodes[0]!, 'eve'));
    const [onA, onB] = [tryOn(nodes[0]!, 'mallory'), tryOn(nodes[1]!, 'mallory')];
    const alternating = await untilRefused((i) => (i % 2 ? onB() : onA()));
    expect(oneNode).toBeGreaterThan(1);
    expect(alternating).toBe(oneNode);
    expect(await onA()).toBe(429);
    expect(await onB()).toBe(429);
  }, 60_000);

  it('draw concurrent failed sign-ins on both nodes from one budget: no more get through than the budget', async () => {
    const tryOn = (node: AppNode) => async () => (await new HttpClient(node.url).post('/svc-admin/login', { form: { log: 'trudy', pwd: 'a wrong password' } })).status;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => tryOn(nodes[i % 2]!)()));
    expect(answers.filter((status) => status !== 429)).toHaveLength(PER_LOGIN.max);
  }, 60_000);

  it('draw ability runs from one budget: alternating nodes is refused after as many runs as one node', async () => {
    const run = (node: AppNode, ability: string) => async () =>
      (await new HttpClient(node.url).withBasic(ADMIN.login, password).post(`/wp-json/wp-abilities/v1/abilities/svc/${ability}/run`, { json: { input: {} } })).status;
    await oneWindowAhead(DEFAULT_WINDOW, 40);
    const oneNode = await untilRefused(run(nodes[0]!, 'subscriptions-data'));
    const [onA, onB] = [run(nodes[0]!, 'sales-data'), run(nodes[1]!, 'sales-data')];
    const alternating = await untilRefused((i) => (i % 2 ? onB() : onA()));
    expect(oneNode).toBeGreaterThan(1);
    expect(alternating).toBe(oneNode);
    expect(await onB()).toBe(429);
  }, 120_000);
}
