import type { HttpClient } from './http-client';
import type { TestKernel } from './test-kernel';

/** A shop for the sales tests: tracked visits, then the events its store sends. */
export interface Shop {
  visits: ReadonlyArray<Parameters<typeof visit>[1]>;
  events: ReadonlyArray<Record<string, unknown>>;
}

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

/** Writes the shop's visits, then sends its events through `POST {api_base}/ecommerce/events`; every one must be accepted. */
export async function buildShop(tk: TestKernel, admin: HttpClient, shop: Shop): Promise<void> {
  for (const v of shop.visits) await visit(tk, v);
  const res = await admin.post(`${tk.api}/ecommerce/events`, { json: { events: shop.events } });
  if (res.status !== 200 || res.body.accepted !== shop.events.length) throw new Error(`shop ingestion answered ${res.status} ${JSON.stringify(res.body)}`);
}
