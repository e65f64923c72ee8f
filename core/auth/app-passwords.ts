import { createHash, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { badRequest, forbidden, tooManyRequests } from '../errors';
import type { LoginLimiter } from './login-limiter';
import { generateSecret, hashPassword, verifyNobody, verifyPassword } from './passwords';
import type { SvcUser } from './types';
import type { Users } from './users';

/** Application passwords one person may hold (README, "Limits"). */
export const MAX_APP_PASSWORDS = 20;
/** How long a verified application password is taken on trust, re-checking only that its record still exists. */
const VERIFIED_FOR_MS = 5 * 60_000;
/** A password is its public id (stored in clear) followed by the secret. */
const ID_LENGTH = 8;
const SECRET_LENGTH = 24;

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
 * Application passwords for HTTP Basic on the REST API. A password begins
 * with the public id of its record, so checking one costs one scrypt however
 * many the user holds; passwords made before public ids (24 characters) are
 * checked against each such record. Checks go through the sign-in budget
 * (core/auth/login-limiter.ts), a login nobody has still costs one scrypt,
 * and the same credential arriving several times at once is checked once.
 * A verified credential is remembered for five minutes by its SHA-256, and
 * each later request only confirms that its record still exists, which keeps
 * revocation immediate on every node.
 */
export class ApplicationPasswords {
  private readonly verified = new LRUCache<string, string>({ max: 1000, ttl: VERIFIED_FOR_MS });
  private readonly checking = new Map<string, Promise<Row | null>>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly users: Users,
    private readonly limiter: LoginLimiter,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('application_passwords'));
  }

  async create(user: SvcUser, name: string): Promise<NewAppPassword> {
    if (user.system) throw forbidden('System accounts cannot have application passwords.', 'svc_app_passwords_disabled');
    const clean = name.trim();
    if (clean === '' || clean.length > 191) throw badRequest('name: 1-191 characters', 'svc_invalid_app_password_name');
    const publicId = generateSecret(ID_LENGTH);
    const secret = publicId + generateSecret(SECRET_LENGTH);
    const info: AppPasswordInfo = { uuid: randomUUID(), name: clean, created: this.clock.unix(), last_used: null, last_ip: null };
    // Counting and inserting in one statement: concurrent requests cannot pass the cap together.
    const { affected } = await this.db.insert(
      `INSERT INTO ${this.t} (uuid, public_id, user_id, name, password, created)
       SELECT ?, ?, ?, ?, ?, ? FROM (SELECT COUNT(*) AS n FROM ${this.t} WHERE user_id = ?) held WHERE held.n < ?`,
      [info.uuid, publicId, user.id, info.name, await hashPassword(secret), info.created, user.id, MAX_APP_PASSWORDS],
    );
    if (affected === 0) {
      throw badRequest(`You already have ${MAX_APP_PASSWORDS} application passwords, the most one person may hold; revoke one first.`, 'svc_too_many_app_passwords');
    }
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

  /**
   * The user when `password` is one of their application passwords; system
   * users never pass. Throws 429 `svc_too_many_attempts` when the sign-in
   * budget of the login or address is spent.
   */
  async authenticate(login: string, password: string, ip: string): Promise<SvcUser | null> {
    const secret = password.replace(/\s+/g, '');
    const key = createHash('sha256').update(`${login}\0${secret}`).digest('hex');
    const remembered = this.verified.get(key);
    let match = remembered ? await this.stillThere(remembered) : null;
    if (!match) {
      this.verified.delete(key);
      let check = this.checking.get(key);
      if (!check) {
        check = this.check(login, secret, ip).finally(() => this.checking.delete(key));
        this.checking.set(key, check);
      }
      match = await check;
      if (!match) return null;
      this.verified.set(key, match.uuid);
    }
    const user = await this.users.findById(Number(match.user_id));
    if (!user || user.system || user.login !== login) return null;
    await this.touch(match, ip);
    return user;
  }

  /** One counted check of a credential: at most one scrypt for a password with a public id. */
  private async check(login: string, secret: string, ip: string): Promise<Row | null> {
    const wait = await this.limiter.attempt(login, ip);
    if (wait > 0) throw tooManyRequests(`Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`, 'svc_too_many_attempts', wait);
    const user = await this.users.findByLogin(login);
    const rows = user && !user.system ? await this.candidates(user.id, secret) : [];
    if (rows.length === 0) return verifyNobody(secret).then(() => null);
    for (const row of rows) {
      if (await verifyPassword(secret, row.password)) {
        await this.limiter.succeeded(login, ip);
        return row;
      }
    }
    return null;
  }

  /** The records a secret could belong to: the one of its public id, or the user's records from before public ids. */
  private candidates(userId: number, secret: string): Promise<Row[]> {
    if (secret.length === ID_LENGTH + SECRET_LENGTH) {
      const publicId = secret.slice(0, ID_LENGTH);
      if (!/^[A-Za-z0-9]+$/.test(publicId)) return Promise.resolve([]);
      return this.db.select<Row>(`SELECT * FROM ${this.t} WHERE user_id = ? AND public_id = ?`, [userId, publicId]);
    }
    if (secret.length === SECRET_LENGTH) return this.db.select<Row>(`SELECT * FROM ${this.t} WHERE user_id = ? AND public_id IS NULL`, [userId]);
    return Promise.resolve([]);
  }

  private async stillThere(uuid: string): Promise<Row | null> {
    const [row] = await this.db.select<Row>(`SELECT * FROM ${this.t} WHERE uuid = ?`, [uuid]);
    return row ?? null;
  }

  private async touch(row: Row, ip: string): Promise<void> {
    const now = this.clock.unix();
    if (row.last_used === null || now - Number(row.last_used) >= 60 || row.last_ip !== ip) {
      await this.db.execute(`UPDATE ${this.t} SET last_used = ?, last_ip = ? WHERE ID = ?`, [now, ip.slice(0, 45), row.ID]);
    }
  }
}
