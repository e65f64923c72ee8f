import type { HttpClient, HttpResponse } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';

const nonceOf = (html: string) => /name="_svc_nonce" value="([a-f0-9]+)"/.exec(html)![1]!;
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)![1]!;

async function submit(client: HttpClient, page: string, form: Record<string, string>): Promise<HttpResponse<string>> {
  const nonce = nonceOf((await client.get<string>(page)).body);
  return client.post(page, { form: { _svc_nonce: nonce, ...form } });
}

describe('the Sites page, the site switcher and per-site roles on the Users page', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  beforeAll(async () => {
    tk = await createTestKernel();
    admin = await tk.signedIn();
  });
  afterAll(() => tk.close());

  it('adds a site, refusing bad fields by name without writing anything', async () => {
    const refused = await submit(admin, '/svc-admin/sites', { action: 'add', name: '', domain: 'bad host', aliases: '', timezone: 'Mars/Olympus' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('No site was added');
    expect(refused.body).toMatch(/id="new-site-name-error">Must be 1 to 190 characters/);
    expect(refused.body).toMatch(/id="new-site-domain-error">Not a domain name \(bad host\)/);
    expect(refused.body).toMatch(/id="new-site-timezone-error">Unknown IANA time zone: Mars\/Olympus/);
    expect(await tk.kernel.sites.list()).toHaveLength(1);
    const added = await submit(admin, '/svc-admin/sites', { action: 'add', name: 'Shop', domain: 'shop.example', aliases: 'shop.example.org, store.example', timezone: 'Europe/Paris' });
    expect(added.status).toBe(302);
    expect(added.headers.get('location')).toBe('/svc-admin/sites?done=added');
    expect((await tk.kernel.sites.list())[1]).toMatchObject({ name: 'Shop', domain: 'shop.example', aliases: ['shop.example.org', 'store.example'], timezone: 'Europe/Paris' });
    const twice = await submit(admin, '/svc-admin/sites', { action: 'add', name: 'Again', domain: 'store.example', aliases: '', timezone: 'UTC' });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatch(/id="new-site-domain-error">Already used by the site Shop \(store.example\)/);
  });

  it('edits a site and removes it only with the box ticked', async () => {
    const shop = (await tk.kernel.sites.list())[1]!;
    expect((await submit(admin, '/svc-admin/sites', { action: 'edit', id: String(shop.id), name: 'The shop', domain: 'shop.example', aliases: '', timezone: 'UTC' })).status).toBe(302);
    expect(await tk.kernel.sites.get(shop.id)).toMatchObject({ name: 'The shop', aliases: [], timezone: 'UTC' });
    const unticked = await submit(admin, '/svc-admin/sites', { action: 'remove', id: String(shop.id) });
    expect(unticked.status).toBe(400);
    expect(unticked.body).toContain('Tick the box');
    expect(await tk.kernel.sites.get(shop.id)).not.toBeNull();
    const first = await submit(admin, '/svc-admin/sites', { action: 'remove', id: '1', delete_data: 'yes' });
    expect(first.status).toBe(400);
    expect((await submit(admin, '/svc-admin/sites', { action: 'remove', id: String(shop.id), delete_data: 'yes' })).status).toBe(302);
    expect(await tk.kernel.sites.get(shop.id)).toBeNull();
  });

  it('shows the switcher and the site name in titles once there are two sites, and remembers the choice', async () => {
    expect(titleOf((await admin.get<string>('/svc-admin/account')).body)).toBe('Account · svc');
    expect((await admin.get<string>('/svc-admin/account')).body).not.toContain('data-site-switch');
    const blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example' });
    const chosen = await admin.get<string>(`/svc-admin/account?site=${blog.id}`);
    expect(titleOf(chosen.body)).toBe('Account · Blog · svc');
    expect(chosen.body).toContain('data-site-switch');
    expect(chosen.body).toContain(`data-site="${blog.id}"`);
    expect(titleOf((await admin.get<string>('/svc-admin/account')).body)).toBe('Account · Blog · svc');
    expect((await admin.get<string>('/svc-admin/account?site=nowhere.example')).status).toBe(404);
  });

  it('limits a person to the sites given on the Users page', async () => {
    await tk.kernel.users.create({ login: 'limited', role: 'editor', password: 'long enough password' });
    const person = (await tk.kernel.users.findByLogin('limited'))!;
    const blog = (await tk.kernel.sites.list()).find((s) => s.name === 'Blog')!;
    const saved = await submit(admin, '/svc-admin/users', { action: 'sites', id: String(person.id), site_1: '', [`site_${blog.id}`]: 'viewer' });
    expect(saved.status).toBe(302);
    expect([...(await tk.kernel.sites.roles.of(person.id))]).toEqual([[blog.id, 'viewer']]);
    expect((await admin.get<string>('/svc-admin/users')).body).toContain('Blog (viewer)');
    const limited = await tk.signedIn('limited', 'long enough password');
    const account = await limited.get<string>('/svc-admin/account');
    expect(titleOf(account.body)).toBe('Account · Blog · svc');
    expect((await limited.get<string>('/svc-admin/account?site=1')).status).toBe(404);
    expect((await submit(admin, '/svc-admin/users', { action: 'sites', id: String(person.id), site_1: 'owner' })).status).toBe(400);
    // Their only site removed, they see none; the Users page says so and gives them roles again.
    await tk.kernel.sites.remove(blog.id);
    expect((await admin.get<string>('/svc-admin/users')).body).toContain('a removed site (viewer)');
    expect((await limited.get<string>('/svc-admin/account')).status).toBe(404);
    expect((await submit(admin, '/svc-admin/users', { action: 'sites', id: String(person.id), site_1: '' })).status).toBe(302);
    expect((await tk.kernel.sites.roles.of(person.id)).size).toBe(0);
    expect((await limited.get<string>('/svc-admin/account')).status).toBe(200);
  });
});
