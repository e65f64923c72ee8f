import { definePlugin } from '../../plugins/manifest';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

const sample = definePlugin({
  name: 'site-ability',
  tier: 'free',
  register(ctx) {
    ctx.abilities.registerCategory({ slug: 'where', label: 'Where', description: 'Which site' });
    ctx.abilities.register<{ site?: string | number }, { site: number }>({
      name: 'sample/which-site',
      label: 'Which site',
      description: 'The site an ability runs on',
      category: 'where',
      inputSchema: { type: 'object', properties: { site: { type: ['integer', 'string'] } }, additionalProperties: false },
      outputSchema: { type: 'object', properties: { site: { type: 'integer' } }, required: ['site'] },
      annotations: { readonly: true },
      permission: (_input, principal) => principal.user !== null,
      execute: async () => ({ site: (await ctx.sites.current()).id }),
    });
  },
});

describe('abilities and MCP tools on a site', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ inline: [sample] });
  });
  afterAll(() => tk.close());

  it('run on the site of their input when the caller may see it, else answer 404 svc_unknown_site', async () => {
    const a = await tk.kernel.sites.add({ name: 'A', domain: 'a.example' });
    const b = await tk.kernel.sites.add({ name: 'B', domain: 'b.example' });
    const user = await tk.kernel.users.create({ login: 'viewer-a', role: 'editor', password: 'long enough password' });
    await tk.kernel.sites.roles.set(user.id, a.id, 'viewer');
    const { password } = await tk.kernel.appPasswords.create(user, 'mcp');
    const client = tk.client().withBasic('viewer-a', password);
    const run = `${tk.url}${tk.kernel.config.restPrefix}/wp-abilities/v1/abilities/sample/which-site/run`;
    expect((await client.post(run, { json: { input: { site: 'a.example' } } })).body).toEqual({ site: a.id });
    expect((await client.post(run, { json: { input: {} } })).body).toEqual({ site: a.id });
    const refused = await client.post(run, { json: { input: { site: b.id } } });
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([404, 'svc_unknown_site']);

    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const mcp = new Client({ name: 'test', version: '1.0.0' });
    const authorization = `Basic ${Buffer.from(`viewer-a:${password}`).toString('base64')}`;
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${tk.url}/svc/mcp`), { requestInit: { headers: { authorization } } }));
    try {
      expect((await mcp.callTool({ name: 'sample-which-site', arguments: { site: a.id } })).structuredContent).toEqual({ site: a.id });
      const other = await mcp.callTool({ name: 'sample-which-site', arguments: { site: b.id } });
      expect(other.isError).toBe(true);
      expect(JSON.parse((other.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ code: 'svc_unknown_site', status: 404 });
    } finally {
      await mcp.close();
    }
  });
});
