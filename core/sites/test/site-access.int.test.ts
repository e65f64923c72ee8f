import { definePlugin } from '../../plugins/manifest';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import type { HttpClient } from '../../../test/helpers/http-client';
import type { Site } from '../types';

const probe = definePlugin({
  name: 'site-probe',
  tier: 'free',
  register(ctx) {
    ctx.hooks.addFilter('svc_user_can', (allowed, user, capability) => (user.login === 'narrowed' && capability === 'manage_svc_statistics' ? false : allowed));
    ctx.rest.route({ method: 'GET', path: '/probe/read', capability: 'view_svc_statistics', handler: (request) => ({ site: request.site.id }) });
    ctx.rest.route({ method: 'POST', path: '/probe/goal', capability: 'manage_svc_statistics', handler: (request) => ({ site: request.site.id }) });
  },
});

describe('per-site access over REST', () => {
  let tk: TestKernel;
  let siteA: Site;
  let siteB: Site;
  const as = async (login: string, role: 'editor' | 'administrator') => {
    await tk.kernel.users.create({ login, role, password: 'long enough password' });
    const client = await tk.signedIn(login, 'long enough password');
    return { client, headers: { 'x-svc-nonce': await tk.nonce(client) } };
  };
  const get = (who: { client: HttpClient; headers: Record<string, string> }, query = '') => who.client.get(`${tk.api}/probe/read${query}`, { headers: who.headers });
  const post = (who: { client: HttpClient; headers: Record<string, string> }, body: unknown) => who.client.post(`${tk.api}/probe/goal`, { json: body, headers: who.headers });

  beforeAll(async () => {
    tk = await createTestKernel({ inline: [probe] });
    siteA = await tk.kernel.sites.add({ name: 'A', domain: 'a.example' });
    siteB = await tk.kernel.sites.add({ name: 'B', domain: 'b.example' });
  });
  afterAll(() => tk.close());

  it('lets a viewer of site A read A, and answers 404 for site B and for the default site', async () => {
    const viewer = await as('viewer-a', 'editor');
    const id = (await tk.kernel.users.findByLogin('viewer-a'))!.id;
    await tk.kernel.sites.roles.set(id, siteA.id, 'viewer');
    expect((await get(viewer)).body).toEqual({ site: siteA.id });
    expect((await get(viewer, `?site=a.example`)).body).toEqual({ site: siteA.id });
    for (const other of [`?site=${siteB.id}`, '?site=b.example', '?site=1']) {
      const res = await get(viewer, other);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'svc_unknown_site' });
    }
    expect((await post(viewer, { site: siteA.id })).status).toBe(403);
    expect((await viewer.client.get(`${tk.api}/sites`, { headers: viewer.headers })).body).toEqual([siteA]);
    expect((await post(viewer, { site: siteB.id })).status).toBe(404);
  });

  it('lets a manager of site B manage B only, even with the editor role', async () => {
    const manager = await as('manager-b', 'editor');
    const id = (await tk.kernel.users.findByLogin('manager-b'))!.id;
    await tk.kernel.sites.roles.set(id, siteB.id, 'manager');
    expect((await post(manager, { site: siteB.id })).body).toEqual({ site: siteB.id });
    expect((await post(manager, {})).body).toEqual({ site: siteB.id });
    expect((await post(manager, { site: siteA.id })).status).toBe(404);
  });

  it('asks svc_user_can after a per-site role decided', async () => {
    const narrowed = await as('narrowed', 'editor');
    await tk.kernel.sites.roles.set((await tk.kernel.users.findByLogin('narrowed'))!.id, siteB.id, 'manager');
    expect((await get(narrowed, `?site=${siteB.id}`)).status).toBe(200);
    expect((await post(narrowed, { site: siteB.id })).status).toBe(403);
  });

  it('keeps the account role on every site for a person without per-site roles, and every site for administrators', async () => {
    const editor = await as('editor-all', 'editor');
    expect((await get(editor, `?site=${siteB.id}`)).body).toEqual({ site: siteB.id });
    expect((await post(editor, { site: siteB.id })).status).toBe(403);
    const admin = await as('admin-2', 'administrator');
    const id = (await tk.kernel.users.findByLogin('admin-2'))!.id;
    await tk.kernel.sites.roles.set(id, siteA.id, 'viewer');
    expect((await post(admin, { site: siteB.id })).body).toEqual({ site: siteB.id });
  });

  it('forgets the site roles of a removed person', async () => {
    const id = (await tk.kernel.users.findByLogin('viewer-a'))!.id;
    await tk.kernel.users.remove(id);
    expect((await tk.kernel.sites.roles.all()).some((r) => r.userId === id)).toBe(false);
  });

  it('leaves a person whose only site was removed with no site, not with every site', async () => {
    const both = await as('both', 'editor');
    const bothId = (await tk.kernel.users.findByLogin('both'))!.id;
    await tk.kernel.sites.roles.set(bothId, siteA.id, 'viewer');
    await tk.kernel.sites.roles.set(bothId, siteB.id, 'viewer');
    const managerId = (await tk.kernel.users.findByLogin('manager-b'))!.id;
    const manager = await tk.signedIn('manager-b', 'long enough password');
    const headers = { 'x-svc-nonce': await tk.nonce(manager) };
    await tk.kernel.sites.remove(siteB.id);
    expect([...(await tk.kernel.sites.roles.of(bothId))]).toEqual([[siteA.id, 'viewer']]);
    expect((await get(both)).body).toEqual({ site: siteA.id });
    expect([...(await tk.kernel.sites.roles.of(managerId))]).toEqual([[siteB.id, 'manager']]);
    for (const path of ['/probe/read', '/probe/read?site=1', `/probe/read?site=${siteA.id}`, '/sites']) {
      const res = await manager.get(`${tk.api}${path}`, { headers });
      expect([res.status, (res.body as { code: string }).code]).toEqual([404, 'svc_unknown_site']);
    }
  });
});
