import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { badRequest, conflict, notFound } from '../errors';
import type { PluginHooks } from '../hooks/registry';
import { hashPassword, verifyPassword } from './passwords';
import { isRole, roleHas } from './roles';
import type { Capability, RoleName, SvcUser } from './types';

interface UserRow {
  ID: number;
  user_login: string;
  user_email: string;
  user_pass: string;
  role: string;
  display_name: string;
  is_system: number | boolean;
}

export interface NewUser {
  login: string;
  email?: string;
  role: RoleName;
  password: string;
  displayName?: string;
  /** System users (the share-link viewer) cannot sign in with a password. */
  system?: boolean;
}

const LOGIN_RE = /^[A-Za-z0-9_.@-]{1,60}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function toUser(row: UserRow): SvcUser {
  return {
    id: Number(row.ID),
    login: row.user_login,
    email: row.user_email,
    role: row.role as RoleName,
    displayName: row.display_name || row.user_login,
    system: row.is_system === true || Number(row.is_system) === 1,
  };
}

/** Accounts, roles and capability checks. */
export class Users {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly hooks: Pick<PluginHooks, 'applyFilters'>,
  ) {}

  private get t(): string {
    return this.db.quote(this.db.table('users'));
  }

  async create(input: NewUser): Promise<SvcUser> {
    if (!LOGIN_RE.test(input.login)) throw badRequest('login: 1-60 letters, digits, _ . @ or -', 'svc_invalid_login');
    if (input.email && !EMAIL_RE.test(input.email)) throw badRequest('email: not an e-mail address', 'svc_invalid_email');
    if (!isRole(input.role)) throw badRequest(`role: unknown role ${String(input.role)}`, 'svc_invalid_role');
    if (!input.system && input.password.length < 8) throw badRequest('password: at least 8 characters', 'svc_weak_password');
    if (await this.findByLogin(input.login)) throw conflict(`user ${input.login} already exists`, 'svc_user_exists');
    const pass = input.system ? '!' : await hashPassword(input.password);
    const { id } = await this.db.insert(
      `INSERT INTO ${this.t} (user_login, user_email, user_pass, role, display_name, is_system, user_registered) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [input.login, input.email ?? '', pass, input.role, input.displayName ?? input.login, Boolean(input.system), this.clock.unix()],
    );
    return {
      id,
      login: input.login,
      email: input.email ?? '',
      role: input.role,
      displayName: input.displayName ?? input.login,
      system: Boolean(input.system),
    };
  }

  async count(): Promise<number> {
    const [row] = await this.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.t} WHERE is_system = ?`, [false]);
    return Number(row?.n ?? 0);
  }

  async findById(id: number): Promise<SvcUser | null> {
    const [row] = await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE ID = ?`, [id]);
    return row ? toUser(row) : null;
  }

  async findByLogin(login: string): Promise<SvcUser | null> {
    const [row] = await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE user_login = ?`, [login]);
    return row ? toUser(row) : null;
  }

  async list(): Promise<SvcUser[]> {
    return (await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE is_system = ? ORDER BY ID`, [false])).map(toUser);
  }

  /** The user when `password` is right and the account may sign in with one. */
  async authenticate(login: string, password: string): Promise<SvcUser | null> {
    const [row] = await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE user_login = ?`, [login]);
    if (!row) return null;
    const user = toUser(row);
    return !user.system && (await verifyPassword(password, row.user_pass)) ? user : null;
  }

  async setPassword(id: number, password: string): Promise<void> {
    if (password.length < 8) throw badRequest('password: at least 8 characters', 'svc_weak_password');
    const changed = await this.db.execute(`UPDATE ${this.t} SET user_pass = ? WHERE ID = ? AND is_system = ?`, [
      await hashPassword(password),
      id,
      false,
    ]);
    if (changed === 0) throw notFound('No such user.', 'svc_unknown_user');
  }

  async can(user: SvcUser | null, capability: Capability): Promise<boolean> {
    if (!user) return false;
    return this.hooks.applyFilters('svc_user_can', roleHas(user.role, capability), user, capability);
  }
}
