import { createHash, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { badRequest, forbidden } from '../errors';
import { generateSecret, hashPassword, verifyPassword } from './passwords';
import type { SvcUser } from './types';
import type { Users } from './users';

export interface AppPasswordInfo {
  uuid: string;
  name: string;
  created: number;
  last_used: number | null;
  last_ip: string | null;
}

export interface NewAppPassword extends AppPasswordInfo {
  /** Shown once; only its hash is stored. */
  password: string;
}

interface Row extends AppPasswordInfo {
  ID: number;
  user_id: number;
  password: string;
}

/** Groups of four, the way the secret is shown to people. */
export const formatAppPassword = (secret: string) => secret.match(/.{1,4}/g)!.join(' ');

/**
 * Application passwords for HTTP Basic on the REST API. Each check of a new
 * secret costs one scrypt per stored password of the user; a verified secret
 * is remembered (by its SHA-256) so later requests only confirm that the
 * password still exists, which keeps revocation immediate on every node.
 */
export class ApplicationPasswords {
  private readonly verified = new LRUCache<string, string>({ max: 1000, ttl: 10 * 60_000 });

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly users: Users,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('application_passwords'));
  }

  async create(user: SvcUser, name: string): Promise<NewAppPassword> {
    if (user.system) throw forbidden('System accounts cannot have application passwords.', 'svc_app_passwords_disabled');
    const clean = name.trim();
    if (clean === '' || clean.length > 191) throw badRequest('name: 1-191 characters', 'svc_invalid_app_password_name');
    const secret = generateSecret(24);
    const info: AppPasswordInfo = { uuid: randomUUID(), name: clean, created: this.clock.unix(), last_used: null, last_ip: null };
    await this.db.insert(`INSERT INTO ${this.t} (uuid, user_id, name, password, created) VALUES (?, ?, ?, ?, ?)`, [
      info.uuid,
      user.id,
      info.name,
      await hashPassword(secret),
      info.created,
    ]);
    return { ...info, password: formatAppPassword(secret) };
  }

  async list(userId: number): Promise<AppPasswordInfo[]> {
    const rows = await this.db.select<Row>(`SELECT * FROM ${this.t} WHERE user_id = ? ORDER BY ID`, [userId]);
    return rows.map(({ uuid, name, created, last_used, last_ip }) => ({
      uuid,
      name,
      created: Number(created),
      last_used: last_used === null ? null : Number(last_used),
      last_ip,
    }));
  }

  async revoke(userId: number, uuid: string): Promise<boolean> {
    return (await this.db.execute(`DELETE FROM ${this.t} WHERE user_id = ? AND uuid = ?`, [userId, uuid])) > 0;
  }

  async revokeAll(userId: number): Promise<number> {
    return this.db.execute(`DELETE FROM ${this.t} WHERE user_id = ?`, [userId]);
  }

  /** The user when `password` is one of their application passwords; system users never pass. */
  async authenticate(login: string, password: string, ip: string): Promise<SvcUser | null> {
    const user = await this.users.findByLogin(login);
    if (!user || user.system) return null;
    const secret = password.replace(/\s+/g, '');
    const cacheKey = createHash('sha256').update(`${user.id}\0${secret}`).digest('hex');
    const rows = await this.db.select<Row>(`SELECT * FROM ${this.t} WHERE user_id = ?`, [user.id]);
    const remembered = this.verified.get(cacheKey);
    let match = remembered ? rows.find((r) => r.uuid === remembered) : undefined;
    if (!match) {
      for (const row of rows) {
        if (await verifyPassword(secret, row.password)) {
          match = row;
          break;
        }
      }
    }
    if (!match) {
      this.verified.delete(cacheKey);
      return null;
    }
    this.verified.set(cacheKey, match.uuid);
    const now = this.clock.unix();
    if (match.last_used === null || now - Number(match.last_used) >= 60 || match.last_ip !== ip) {
      await this.db.execute(`UPDATE ${this.t} SET last_used = ?, last_ip = ? WHERE ID = ?`, [now, ip.slice(0, 45), match.ID]);
    }
    return user;
  }
}
