import { ManualClock, type Site } from '../../../core';
import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { at } from '../../../test/helpers/time';
import { abilitiesBase, budgetFilters, eventually, listed, setAbilitiesOption, userWithPassword } from './support';

const MARCH = { date_start: at('2025-03-01T00:00:00'), date_end: at('2025-03-31T00:00:00') };

describe('abilities on two sites', () => {
  let tk: TestKernel;
  let admin: HttpClient;
  let shop: Site;
  const run = (client: HttpClient, input: Record<string, unknown>) => client.post(`${abilitiesBase(tk)}/abilities/svc/sales-data/run`, { json: { input: { ...MARCH, ...input } } });
  const products = async (client: HttpClient, input: Record<string, unknown>) => {
    const res = await run(client, input);
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return (res.body.rows as Array<{ product: string }>).map((r) => r.product);
  };

  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['sales', 'abilities'], inline: [budgetFilters], env: { SVC_LICENSE: 'business' }, clock: new ManualClock('2025-04-01T12:00:00Z') });
    ({ client: admin } = await userWithPassword(tk, tk.admin.login, 'administrator'));
    shop = await tk.kernel.sites.add({ name: 'Second Shop', domain: 'shop.example', timezone: 'UTC' });
    const order = (product_name: string, product_id: number) => ({
      type: 'order',
      order_id: 'A-1',
      currency: 'EUR',
      total: 10,
      items: [{ product_id, product_name, quantity: 1, price: 10 }],
      time: at('2025-03-05T10:00:00'),
    });
    await admin.post(`${tk.api}/ecommerce/events`, { json: { events: [order('Mug', 1)] } });
    await admin.post(`${tk.api}/ecommerce/events`, { json: { site: shop.id, events: [order('Hat', 2)] } });
    await setAbilitiesOption(tk, true);
    await eventually(async () => (await listed(tk, admin)).includes('svc/sales-data'));
  });
  afterAll(() => tk?.close());

  it('read the site the input names, by id or primary domain, and the default site without one', async () => {
    expect(await products(admin, {})).toEqual(['Mug']);
    expect(await products(admin, { site: shop.id })).toEqual(['Hat']);
    expect(await products(admin, { site: 'shop.example' })).toEqual(['Hat']);
    const unknown = await run(admin, { site: 999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('svc_unknown_site');
  });

  it('let a manager of one site read that site only, and not a viewer', async () => {
    const { client: manager } = await userWithPassword(tk, 'shop-manager', 'editor');
    await tk.kernel.sites.roles.set((await tk.kernel.users.findByLogin('shop-manager'))!.id, shop.id, 'manager');
    expect(await products(manager, {})).toEqual(['Hat']);
    expect(await products(manager, { site: shop.id })).toEqual(['Hat']);
    const other = await run(manager, { site: 1 });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('svc_unknown_site');

    const { client: viewer } = await userWithPassword(tk, 'shop-viewer', 'editor');
    await tk.kernel.sites.roles.set((await tk.kernel.users.findByLogin('shop-viewer'))!.id, shop.id, 'viewer');
    const refused = await run(viewer, { site: shop.id });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('svc_abilities_forbidden');
  });
});
