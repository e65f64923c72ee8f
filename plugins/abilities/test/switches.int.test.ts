import { ManualClock } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { abilitiesBase, eventually, listed, mcpClient, setAbilitiesOption, toolError, userWithPassword } from './support';

const SVC_ABILITIES = ['svc/sales-data', 'svc/subscriptions-data'];
const has = (names: string[]) => SVC_ABILITIES.every((n) => names.includes(n));
const none = (names: string[]) => SVC_ABILITIES.every((n) => !names.includes(n));

describe('the enable_abilities_api switch, across two app nodes', () => {
  let a: TestKernel;
  let b: TestKernel;
  let adminA: HttpClient;
  let adminB: HttpClient;
  let password: string;

  beforeAll(async () => {
    const options = { plugins: ['sales', 'abilities'], env: { SVC_LICENSE: 'business' } };
    a = await createTestKernel({ ...options, clock: new ManualClock('2025-04-01T12:00:00Z') });
    b = await createTestKernel({ ...options, clock: new ManualClock('2025-04-01T12:00:00Z'), database: a.database });
    ({ client: adminA, password } = await userWithPassword(a, a.admin.login, 'administrator'));
    adminB = b.client().withBasic(b.admin.login, password);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('offers nothing while the option is off', async () => {
    expect(none(await listed(a, adminA))).toBe(true);
    expect((await adminA.get(`${abilitiesBase(a)}/categories`)).body.map((c: { slug: string }) => c.slug)).not.toContain('svc-statistics');
    const run = await adminA.post(`${abilitiesBase(a)}/abilities/svc/sales-data/run`, { json: { input: {} } });
    expect(run.status).toBe(404);
    expect(run.body.code).toBe('ability_not_found');
    const mcp = await mcpClient(a.url, a.admin.login, password);
    expect((await mcp.listTools()).tools.map((t) => t.name)).not.toContain('svc-sales-data');
    expect(toolError(await mcp.callTool({ name: 'svc-sales-data', arguments: {} }))).toMatchObject({ code: 'ability_not_found', status: 404 });
    await mcp.close();
  });

  it('registers on both nodes without a restart when switched on, and unregisters when switched off', async () => {
    await setAbilitiesOption(a, true);
    await eventually(async () => has(await listed(a, adminA)));
    const run = await adminA.post(`${abilitiesBase(a)}/abilities/svc/sales-data/run`, { json: { input: {} } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ type: 'datatable', dimensions: [{ id: 'product', label: 'Product' }], metrics: expect.any(Array), rows: [], row_count: 0 });
    const mcp = await mcpClient(a.url, a.admin.login, password);
    expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['svc-sales-data', 'svc-subscriptions-data']));
    await mcp.close();

    // Node B reads the options again once its copy is 5 s old.
    (b.clock as ManualClock).advance(6);
    await eventually(async () => has(await listed(b, adminB)));
    expect((await adminB.get(`${abilitiesBase(b)}/categories`)).body.map((c: { slug: string }) => c.slug)).toContain('svc-statistics');

    await setAbilitiesOption(b, false);
    await eventually(async () => none(await listed(b, adminB)));
    expect((await adminB.get(`${abilitiesBase(b)}/categories`)).body.map((c: { slug: string }) => c.slug)).not.toContain('svc-statistics');
    (a.clock as ManualClock).advance(6);
    await eventually(async () => none(await listed(a, adminA)));
  });
});

describe('the license switch (SVC_PRO)', () => {
  let free: TestKernel;
  let admin: HttpClient;
  let password: string;

  beforeAll(async () => {
    free = await createTestKernel({ plugins: ['sales', 'abilities'] });
    ({ client: admin, password } = await userWithPassword(free, free.admin.login, 'administrator'));
  });
  afterAll(() => free?.close());

  it('loads neither sales nor abilities on the free license, yet offers the setting in Advanced', async () => {
    expect(free.kernel.config.pro).toBe(false);
    expect(free.kernel.plugins.filter((p) => p.state === 'skipped').map((p) => p.name).sort()).toEqual(['abilities', 'sales']);
    const page = await (await free.signedIn()).get('/svc-admin/settings');
    expect(page.text).toContain('Advanced');
    expect(page.text).toContain('name="enable_abilities_api"');
    expect(none(await listed(free, admin))).toBe(true);
  });

  it('answers svc_abilities_pro_required (503) without SVC_PRO once the option is on, after the permission check', async () => {
    await setAbilitiesOption(free, true);
    await eventually(async () => has(await listed(free, admin)));
    const described = (await admin.get(`${abilitiesBase(free)}/abilities/svc/sales-data`)).body;
    expect(described.category).toBe('svc-statistics');
    expect(described.input_schema.properties.limit.default).toBe(100);
    for (const name of ['sales-data', 'subscriptions-data']) {
      const res = await admin.post(`${abilitiesBase(free)}/abilities/svc/${name}/run`, { json: { input: {} } });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, code: 'svc_abilities_pro_required', message: expect.stringContaining('SVC_PRO') });
    }
    const mcp = await mcpClient(free.url, free.admin.login, password);
    expect(toolError(await mcp.callTool({ name: 'svc-subscriptions-data', arguments: {} }))).toMatchObject({ code: 'svc_abilities_pro_required', status: 503 });
    await mcp.close();
    const anonymous = await free.client().post(`${abilitiesBase(free)}/abilities/svc/sales-data/run`, { json: { input: {} } });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.code).toBe('svc_abilities_forbidden');
    const editor = await userWithPassword(free, 'editor', 'editor');
    expect((await editor.client.post(`${abilitiesBase(free)}/abilities/svc/sales-data/run`, { json: { input: {} } })).body.code).toBe('svc_abilities_forbidden');
  });

  it('leaves the abilities out on the creator license (SVC_PRO without the business plugin)', async () => {
    const creator = await createTestKernel({ plugins: ['sales', 'abilities'], env: { SVC_LICENSE: 'creator' }, database: free.database });
    try {
      expect(creator.kernel.config.pro).toBe(true);
      const client = creator.client().withBasic(creator.admin.login, password);
      expect(none(await listed(creator, client))).toBe(true);
      expect((await client.post(`${abilitiesBase(creator)}/abilities/svc/sales-data/run`, { json: { input: {} } })).status).toBe(404);
    } finally {
      await creator.close();
    }
  });

  it('runs them on the business license over the same database', async () => {
    const business = await createTestKernel({ plugins: ['sales', 'abilities'], env: { SVC_LICENSE: 'business' }, database: free.database });
    try {
      const client = business.client().withBasic(business.admin.login, password);
      expect(has(await listed(business, client))).toBe(true);
      const res = await client.post(`${abilitiesBase(business)}/abilities/svc/subscriptions-data/run`, { json: { input: { limit: 5 } } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'datatable', dimensions: [{ id: 'plan', label: 'Plan' }], rows: [], row_count: 0 });
    } finally {
      await business.close();
    }
  });
});
