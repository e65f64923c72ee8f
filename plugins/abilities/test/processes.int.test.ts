import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, ensureBuilt } from '../../../test/helpers/dist';
import { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel, freePort } from '../../../test/helpers/test-kernel';
import { eventually, mcpClient, setAbilitiesOption, toolError, userWithPassword } from './support';

interface AppNode {
  url: string;
  child: ChildProcess;
  dataDir: string;
}

/** `npm start`'s server in its own OS process, on the test database. */
async function startNode(tk: TestKernel): Promise<AppNode> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-node-'));
  const env = {
    ...process.env,
    PORT: String(port),
    SVC_BASE_URL: url,
    SVC_DATABASE_URL: tk.database.url,
    SVC_DATA_DIR: dataDir,
    SVC_LICENSE: 'business',
    SVC_PLUGINS: 'sales,abilities',
  };
  const child = spawn(process.execPath, [path.join(DIST, 'core', 'server.js')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`node exited with ${code}: ${stderr}`))));
  const ready = eventually(async () => (await fetch(`${url}/wp-json/wp-abilities/v1/categories`).catch(() => null))?.status === 401, 30_000);
  await Promise.race([ready, exited]);
  return { url, child, dataDir };
}

async function stopNode(node: AppNode): Promise<void> {
  if (node.child.exitCode === null) {
    const exited = new Promise((resolve) => node.child.once('exit', resolve));
    node.child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(node.dataDir, { recursive: true, force: true });
}

describe('two app processes on one database', () => {
  let tk: TestKernel;
  let nodes: AppNode[] = [];
  let password: string;

  beforeAll(async () => {
    ensureBuilt();
    tk = await createTestKernel({ plugins: ['sales', 'abilities'], env: { SVC_LICENSE: 'business' } });
    ({ password } = await userWithPassword(tk, tk.admin.login, 'administrator'));
    await setAbilitiesOption(tk, true);
    nodes = await Promise.all([startNode(tk), startNode(tk)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(nodes.map(stopNode));
    await tk?.close();
  });

  it('share one budget of 30 runs a minute per user and ability', async () => {
    const clients = nodes.map((n) => new HttpClient(n.url).withBasic(tk.admin.login, password));
    const run = (i: number, name = 'sales-data') => clients[i % 2]!.post(`/wp-json/wp-abilities/v1/abilities/svc/${name}/run`, { json: { input: {} } });
    // Budgets count in windows aligned to the clock: begin early in one, so the burst and the refusals fall in the same window.
    await eventually(async () => Math.floor(Date.now() / 1000) % 60 < 15, 50_000);
    for (let i = 0; i < 30; i++) expect((await run(i)).status).toBe(200);
    for (const i of [0, 1]) {
      const refused = await run(i);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('svc_abilities_rate_limited');
    }
    const mcp = await mcpClient(nodes[1]!.url, tk.admin.login, password);
    expect(toolError(await mcp.callTool({ name: 'svc-sales-data', arguments: {} }))).toMatchObject({ code: 'svc_abilities_rate_limited', status: 429 });
    expect((await mcp.callTool({ name: 'svc-subscriptions-data', arguments: {} })).isError).toBeFalsy();
    await mcp.close();
  }, 120_000);

  it('follow the option switched off on another node within seconds', async () => {
    await setAbilitiesOption(tk, false);
    const names = async (node: AppNode) =>
      (await new HttpClient(node.url).withBasic(tk.admin.login, password).get<Array<{ name: string }>>('/wp-json/wp-abilities/v1/abilities')).body.map((a) => a.name);
    const started = Date.now();
    await eventually(async () => (await Promise.all(nodes.map(names))).every((list) => !list.includes('svc/sales-data')), 15_000);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
