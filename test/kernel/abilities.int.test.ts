import { SvcError } from '../../core/errors';
import { definePlugin } from '../../core/plugins/manifest';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const sample = definePlugin({
  name: 'sample-abilities',
  tier: 'free',
  register(ctx) {
    ctx.abilities.registerCategory({ slug: 'math', label: 'Math', description: 'Arithmetic' });
    ctx.abilities.registerCategory({ slug: 'other', label: 'Other', description: 'Everything else' });
    ctx.abilities.register<{ a: number; b: number }, { sum: number }>({
      name: 'sample/add',
      label: 'Add',
      description: 'Adds two numbers',
      category: 'math',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer', default: 1 } },
        required: ['a'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
      annotations: { readonly: true },
      permission: (_input, principal) => principal.user !== null,
      execute: async ({ a, b }) => ({ sum: a + b }),
    });
    ctx.abilities.register({
      name: 'sample/explode',
      label: 'Explode',
      description: 'Always fails',
      category: 'other',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      permission: (_input, principal) => {
        if (!principal.user) throw new SvcError('sample_forbidden', 'Sign in first.', 403);
        return true;
      },
      execute: async () => {
        throw new Error('database password is hunter2');
      },
    });
  },
});

describe('host abilities interface', () => {
  let tk: TestKernel;
  let base: string;
  let basic: ReturnType<TestKernel['client']>;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [sample] });
    base = `${tk.url}${tk.kernel.config.restPrefix}/wp-abilities/v1`;
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    const { password } = await tk.kernel.appPasswords.create(admin, 'abilities');
    basic = tk.client().withBasic('admin', password);
  });
  afterAll(() => tk.close());

  it('lists abilities for signed-in people, filtered by category', async () => {
    expect((await tk.client().get(`${base}/abilities`)).status).toBe(401);
    const all = await basic.get(`${base}/abilities`);
    expect(all.status).toBe(200);
    expect(all.body.map((a: { name: string }) => a.name).sort()).toEqual(['sample/add', 'sample/explode']);
    const math = await basic.get(`${base}/abilities`, { query: { category: 'math' } });
    expect(math.body).toEqual([
      expect.objectContaining({ name: 'sample/add', category: 'math', meta: { annotations: { readonly: true, destructive: false, idempotent: false } } }),
    ]);
    expect((await basic.get(`${base}/categories`)).body).toHaveLength(2);
  });

  it('describes one ability and answers 404 for unknown ones', async () => {
    const one = await basic.get(`${base}/abilities/sample/add`);
    expect(one.body.input_schema.required).toEqual(['a']);
    const missing = await basic.get(`${base}/abilities/sample/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('ability_not_found');
  });

  it('runs a read-only ability with GET (JSON or query fields) and POST', async () => {
    expect((await basic.get(`${base}/abilities/sample/add/run`, { query: { input: '{"a":2,"b":3}' } })).body).toEqual({ sum: 5 });
    expect((await basic.get(`${base}/abilities/sample/add/run`, { query: { input: { a: '4' } } })).body).toEqual({ sum: 5 });
    expect((await basic.post(`${base}/abilities/sample/add/run`, { json: { input: { a: 1, b: 1 } } })).body).toEqual({ sum: 2 });
  });

  it('refuses input outside the schema with 400 and the schema error', async () => {
    const res = await basic.post(`${base}/abilities/sample/add/run`, { json: { input: { a: 'x' } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: 'ability_invalid_input', message: 'input.a must be integer' });
    const extra = await basic.post(`${base}/abilities/sample/add/run`, { json: { input: { a: 1, z: 1 } } });
    expect(extra.status).toBe(400);
    const badJson = await basic.get(`${base}/abilities/sample/add/run`, { query: { input: '{nope' } });
    expect(badJson.status).toBe(400);
  });

  it('asks the ability about permission before validating, and hides failures', async () => {
    const anon = await tk.client().post(`${base}/abilities/sample/add/run`, { json: { input: { a: 'x' } } });
    expect(anon.status).toBe(403);
    expect(anon.body.code).toBe('ability_invalid_permissions');
    const coded = await tk.client().post(`${base}/abilities/sample/explode/run`, { json: { input: {} } });
    expect(coded.body).toEqual({ success: false, code: 'sample_forbidden', message: 'Sign in first.' });
    const failed = await basic.post(`${base}/abilities/sample/explode/run`, { json: { input: {} } });
    expect(failed.status).toBe(500);
    expect(failed.text).not.toContain('hunter2');
    expect(tk.logs.some((l) => String(l.msg).includes('hunter2'))).toBe(true);
    const wrongMethod = await basic.get(`${base}/abilities/sample/explode/run`);
    expect(wrongMethod.body.code).toBe('ability_invalid_method');
  });

  it('needs the nonce from session callers', async () => {
    const client = await tk.signedIn();
    const res = await client.post(`${base}/abilities/sample/add/run`, { json: { input: { a: 1 } } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('svc_invalid_nonce');
    const nonce = await tk.nonce(client);
    const ok = await client.post(`${base}/abilities/sample/add/run`, { json: { input: { a: 1 } }, headers: { 'x-svc-nonce': nonce } });
    expect(ok.body).toEqual({ sum: 2 });
  });
});

describe('abilities as MCP tools', () => {
  let tk: TestKernel;
  let password: string;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [sample] });
    const admin = (await tk.kernel.users.findByLogin('admin'))!;
    password = (await tk.kernel.appPasswords.create(admin, 'mcp')).password;
  });
  afterAll(() => tk.close());

  async function connect(login: string, secret: string) {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'test', version: '1.0.0' });
    const auth = `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;
    await client.connect(new StreamableHTTPClientTransport(new URL(`${tk.url}/svc/mcp`), { requestInit: { headers: { authorization: auth } } }));
    return client;
  }

  it('lists and calls tools with an application password', async () => {
    const client = await connect('admin', password);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['sample-add', 'sample-explode']);
    expect(tools.find((t) => t.name === 'sample-add')?.annotations?.readOnlyHint).toBe(true);
    const result = await client.callTool({ name: 'sample-add', arguments: { a: 20, b: 22 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 42 });
    const invalid = await client.callTool({ name: 'sample-add', arguments: { a: 'x' } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as Array<{ text: string }>)[0]!.text)).toEqual({ code: 'ability_invalid_input', message: 'input.a must be integer', status: 400 });
    await client.close();
  });

  it('refuses callers without a valid application password', async () => {
    const anon = await tk.client().post('/svc/mcp', { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toContain('Basic');
    await expect(connect('admin', 'wrong wrong wrong')).rejects.toThrow();
  });
});
