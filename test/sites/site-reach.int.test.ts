import type { Site } from '../../core/sites/types';
import type { HttpClient } from '../helpers/http-client';
import { ALL_PLUGINS, type TestKernel, createTestKernel } from '../helpers/test-kernel';

/** Every REST route of every plugin, asked about another site by someone who may see only one. */
describe('a per-site viewer reaches nothing of another site', () => {
  let tk: TestKernel;
  let siteA: Site;
  let siteB: Site;
  let viewer: HttpClient;

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ALL_PLUGINS, env: { SVC_LICENSE: 'business' } });
    siteA = await tk.kernel.sites.add({ name: 'Site A', domain: 'a.example' });
    siteB = await tk.kernel.sites.add({ name: 'Site B', domain: 'b.example' });
    const user = await tk.kernel.users.create({ login: 'viewer-a', role: 'editor', password: 'long enough password' });
    await tk.kernel.sites.roles.set(user.id, siteA.id, 'viewer');
    viewer = tk.client().withBasic('viewer-a', (await tk.kernel.appPasswords.create(user, 'reach')).password);
  });
  afterAll(() => tk?.close());

  const call = (method: string, path: string, site: number | string) => {
    const url = `${tk.api}${path.replace(/:(\w+)/g, '1')}`;
    return method === 'GET' || method === 'DELETE'
      ? viewer.request(method, url, { query: { site } })
      : viewer.request(method, url, { json: { site } });
  };

  it('answers 404 svc_unknown_site on every route that needs a capability, by id and by domain', async () => {
    const routes = tk.kernel.rest.list().filter((r) => r.capability !== null);
    expect(routes.length).toBeGreaterThan(40);
    const reached: string[] = [];
    for (const route of routes) {
      for (const site of [siteB.id, 'b.example']) {
        const res = await call(route.method, route.path, site);
        if (res.status !== 404 || (res.body as { code?: string }).code !== 'svc_unknown_site') reached.push(`${route.id} (site ${site}): ${res.status}`);
      }
    }
    expect(reached).toEqual([]);
  });

  it('reads its own site on the same routes (never the unknown-site answer)', async () => {
    const reads = tk.kernel.rest.list().filter((r) => r.method === 'GET' && r.capability === 'view_svc_statistics' && !r.path.includes(':'));
    expect(reads.length).toBeGreaterThan(5);
    for (const route of reads) {
      const res = await call('GET', route.path, siteA.id);
      expect({ route: route.id, code: (res.body as { code?: string } | null)?.code }).not.toEqual({ route: route.id, code: 'svc_unknown_site' });
      expect(res.status).toBeLessThan(500);
    }
  });
});
