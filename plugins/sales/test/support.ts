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

/** Unix seconds of an ISO date-time (UTC unless it names a zone). */
export const at = (iso: string): number => Math.floor(Date.parse(/Z|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`) / 1000);

const t = (tk: TestKernel, name: string) => tk.kernel.db.quote(tk.kernel.db.table(name));

/**
 * Writes a tracked visit straight into the kernel's statistics tables (the
 * tracking plugin's job): a session with its location, device and referrer,
 * and its pageviews (the first carries `parameters`).
 */
export async function visit(
  tk: TestKernel,
  v: { uid: string; time: number; country?: string; device?: string; parameters?: string; pages?: string[]; referrer?: string },
): Promise<number> {
  const db = tk.kernel.db;
  let cityCode = 0;
  if (v.country) {
    cityCode = -(v.country.charCodeAt(0) * 100 + v.country.charCodeAt(1));
    const verb = db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    await db.execute(`${verb} INTO ${t(tk, 'locations')} (city_code, country_code) VALUES (?, ?)`, [cityCode, v.country]);
  }
  let deviceId = 0;
  if (v.device) {
    const verb = db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    await db.execute(`${verb} INTO ${t(tk, 'devices')} (name) VALUES (?)`, [v.device]);
    const [row] = await db.select<{ ID: number }>(`SELECT ID FROM ${t(tk, 'devices')} WHERE name = ?`, [v.device]);
    deviceId = Number(row!.ID);
  }
  const { id: sessionId } = await db.insert(
    `INSERT INTO ${t(tk, 'sessions')} (uid, time, last_time, city_code, device_id, referrer, host) VALUES (?, ?, ?, ?, ?, ?, 'shop.example')`,
    [v.uid, v.time, v.time + 300, cityCode, deviceId, v.referrer ?? ''],
  );
  const pages = v.pages ?? ['/'];
  for (const [i, page] of pages.entries()) {
    await db.insert(
      `INSERT INTO ${t(tk, 'statistics')} (page_url, parameters, time, uid, session_id) VALUES (?, ?, ?, ?, ?)`,
      [page, i === 0 ? (v.parameters ?? '') : '', v.time + i * 10, v.uid, sessionId],
    );
  }
  return sessionId;
}

/** Rows of one of the plugin's tables, for assertions on what was (not) written. */
export async function rows(tk: TestKernel, name: string, order = 'ID'): Promise<Array<Record<string, unknown>>> {
  return tk.kernel.db.select(`SELECT * FROM ${t(tk, name)} ORDER BY ${order}`);
}

export async function count(tk: TestKernel, name: string): Promise<number> {
  const [row] = await tk.kernel.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t(tk, name)}`);
  return Number(row!.n);
}
