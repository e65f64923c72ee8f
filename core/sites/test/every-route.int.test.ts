import { ALL_PLUGINS, type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

describe('a viewer of one site and every REST route of another', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ALL_PLUGINS, env: { SVC_LICENSE: 'business' } });
  });
  afterAll(() => tk.close());

  it('answers 404 svc_unknown_site on every route with a capability, whatever the route', async () => {
    const a = await tk.kernel.sites.add({ name: 'A', domain: 'a.example' });
    const b = await tk.kernel.sites.add({ name: 'B', domain: 'b.example' });
    await tk.kernel.users.create({ login: 'viewer-of-a', role: 'editor', password: 'long enough password' });
    await tk.kernel.sites.roles.set((await tk.kernel.users.findByLogin('viewer-of-a'))!.id, a.id, 'viewer');
    const client = await tk.signedIn('viewer-of-a', 'long enough password');
    const headers = { 'x-svc-nonce': await tk.nonce(client) };
    const routes = tk.kernel.rest.list().filter((r) => r.capability !== null);
    expect(routes.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '1');
      const res =
        route.method === 'GET'
          ? await client.get(`${tk.api}${path}?site=${b.id}`, { headers })
          : await client.request(route.method, `${tk.api}${path}`, { headers, json: { site: b.domain } });
      const code = (res.body as { code?: string } | null)?.code;
      if (res.status !== 404 || code !== 'svc_unknown_site') answers.push(`${route.id}: ${res.status} ${code}`);
    }
    expect(answers).toEqual([]);
  }, 120_000);
});
