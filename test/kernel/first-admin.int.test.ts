import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

describe('app nodes starting together on an empty database', () => {
  let database: TestDatabase;
  const nodes: TestKernel[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const tk of nodes) await tk.close();
    await database?.drop();
  });

  it('make one first administrator between them, and both start', async () => {
    const started = await Promise.allSettled([createTestKernel({ database }), createTestKernel({ database })]);
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started']);
    expect((await nodes[0]!.kernel.users.list()).map((u) => u.login)).toEqual(['admin']);
    expect((await (await nodes[1]!.signedIn()).get('/svc-admin/account')).status).toBe(200);
  });

  it('refuse a second account with the same login as a conflict, also when both are created at once', async () => {
    const users = nodes[0]!.kernel.users;
    const both = await Promise.allSettled([0, 1].map(() => users.create({ login: 'twin', role: 'editor', password: 'twin password long' })));
    expect(both.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(both.find((s) => s.status === 'rejected')).toMatchObject({ reason: { code: 'svc_user_exists', status: 409 } });
  });
});
