import type { HttpClient } from '../../../test/helpers/http-client';
import { type TestKernel, type TestKernelOptions, createTestKernel } from '../../../test/helpers/test-kernel';

export const BUSINESS = { SVC_LICENSE: 'business' };

/** A business-licensed kernel with `plugins` loaded (sales first). */
export function salesKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  return createTestKernel({ ...options, plugins: options.plugins ?? ['sales'], env: { ...BUSINESS, ...options.env } });
}

/** An HTTP Basic client of the administrator, through a fresh application password. */
export async function adminClient(tk: TestKernel): Promise<HttpClient> {
  const admin = (await tk.kernel.users.findByLogin(tk.admin.login))!;
  const { password } = await tk.kernel.appPasswords.create(admin, `test-${Math.random().toString(36).slice(2)}`);
  return tk.client().withBasic(tk.admin.login, password);
}

/** A client for a new user of `role`, over HTTP Basic. */
export async function userClient(tk: TestKernel, login: string, role: 'editor' | 'administrator'): Promise<HttpClient> {
  const user = await tk.kernel.users.create({ login, role, password: `${login}-password-long` });
  const { password } = await tk.kernel.appPasswords.create(user, 'test');
  return tk.client().withBasic(login, password);
}

export { at } from '../../../test/helpers/time';
export { visit } from '../../../test/helpers/shop';

const t = (tk: TestKernel, name: string) => tk.kernel.db.quote(tk.kernel.db.table(name));

/** Rows of one of the plugin's tables, for assertions on what was (not) written. */
export async function rows(tk: TestKernel, name: string, order = 'ID'): Promise<Array<Record<string, unknown>>> {
  return tk.kernel.db.select(`SELECT * FROM ${t(tk, name)} ORDER BY ${order}`);
}

export async function count(tk: TestKernel, name: string): Promise<number> {
  const [row] = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t(tk, name)}`);
  return Number(row!.n);
}
