import { type Transaction, UniqueConstraintError } from 'sequelize';
import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { LOCK_ROWS } from '../db/sql';
import { badRequest, conflict, notFound } from '../errors';
import type { PluginHooks } from '../hooks/registry';
import { couldBeLogin, normaliseLogin } from './login-names';
import { hashPassword, verifyNobody, verifyPassword } from './passwords';
import { ASSIGNABLE_ROLES, isRole, roleHas } from './roles';
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
export const PASSWORD_MIN = 8;
/** Longer secrets add nothing and make every check slower. */
export const PASSWORD_MAX = 200;


/** Why `password` cannot be a person's password (`at least 8 characters`), or null when it can. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `at most ${PASSWORD_MAX} characters`;
  return null;
}

const weakPassword = (password: string) => {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(`password: ${problem}`, 'svc_weak_password', { field: 'password' });
};

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
    if (!input.system) weakPassword(input.password);
    const taken = await this.loginLike(input.login);
    if (taken) throw conflict(taken === input.login ? `user ${input.login} already exists` : `login ${input.login} is too close to the existing ${taken}`, 'svc_user_exists');
    const pass = input.system ? '!' : await hashPassword(input.password);
    const { id } = await this.db
      .insert(
        `INSERT INTO ${this.t} (user_login, user_email, user_pass, role, display_name, is_system, user_registered) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [input.login, input.email ?? '', pass, input.role, input.displayName ?? input.login, Boolean(input.system), this.clock.unix()],
      )
      .catch((err: unknown) => {
        // Another request or node created the same login since the look-up above.
        if (err instanceof UniqueConstraintError) throw conflict(`user ${input.login} already exists`, 'svc_user_exists');
        throw err;
      });
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

  /** The existing login that `login` only differs from in case (new logins are ASCII, so that is their normalised form), or null. */
  private async loginLike(login: string): Promise<string | null> {
    const [row] = await this.db.select<{ user_login: string }>(`SELECT user_login FROM ${this.t} WHERE LOWER(user_login) = ?`, [normaliseLogin(login)]);
    return row?.user_login ?? null;
  }

  /** The user whose login is exactly `login` (no case or accent folding on either dialect). */
  async findByLogin(login: string): Promise<SvcUser | null> {
    if (!couldBeLogin(login)) return null;
    const [row] = await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE user_login = ?`, [login]);
    return row ? toUser(row) : null;
  }

  async list(): Promise<SvcUser[]> {
    return (await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE is_system = ? ORDER BY ID`, [false])).map(toUser);
  }

  /** The user when `password` is right and the account may sign in with one; one hash either way, so the answer does not tell whether the login exists. */
  async authenticate(login: string, password: string): Promise<SvcUser | null> {
    const [row] = couldBeLogin(login) ? await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE user_login = ?`, [login]) : [];
    const user = row ? toUser(row) : null;
    if (!row || !user || user.system) return verifyNobody(password).then(() => null);
    return (await verifyPassword(password, row.user_pass)) ? user : null;
  }

  async setPassword(id: number, password: string): Promise<void> {
    weakPassword(password);
    const changed = await this.db.execute(`UPDATE ${this.t} SET user_pass = ? WHERE ID = ? AND is_system = ?`, [
      await hashPassword(password),
      id,
      false,
    ]);
    if (changed === 0) throw notFound('No such user.', 'svc_unknown_user');
  }

  /** Gives a person another role; the last administrator keeps hers. */
  async setRole(id: number, role: RoleName): Promise<SvcUser> {
    if (!(ASSIGNABLE_ROLES as readonly string[]).includes(role)) throw badRequest(`role: must be one of ${ASSIGNABLE_ROLES.join(', ')}`, 'svc_invalid_role', { field: 'role' });
    return this.db.transaction(async (t) => {
      const user = await this.person(id, t);
      if (user.role === role) return user;
      if (user.role === 'administrator') await this.keepOneAdministrator(id, t);
      await this.db.execute(`UPDATE ${this.t} SET role = ? WHERE ID = ?`, [role, id], t);
      return { ...user, role };
    }, { writes: true });
  }

  /** Deletes a person's account; the last administrator stays. Their sign-ins and application passwords are the caller's to end. */
  async remove(id: number): Promise<SvcUser> {
    return this.db.transaction(async (t) => {
      const user = await this.person(id, t);
      if (user.role === 'administrator') await this.keepOneAdministrator(id, t);
      await this.db.execute(`DELETE FROM ${this.t} WHERE ID = ?`, [id], t);
      await this.db.execute(`DELETE FROM ${this.db.quote(this.db.table('site_roles'))} WHERE user_id = ?`, [id], t);
      return user;
    }, { writes: true });
  }

  private async person(id: number, t: Transaction): Promise<SvcUser> {
    const [row] = await this.db.select<UserRow>(`SELECT * FROM ${this.t} WHERE ID = ? AND is_system = ?`, [id, false], t);
    if (!row) throw notFound('No such user.', 'svc_unknown_user');
    return toUser(row);
  }

  private async keepOneAdministrator(id: number, t: Transaction): Promise<void> {
    const admins = await this.db.select<{ ID: number }>(
      `SELECT ID FROM ${this.t} WHERE role = ? AND is_system = ?${LOCK_ROWS[this.db.dialect]}`,
      ['administrator', false],
      t,
    );
    if (admins.every((a) => Number(a.ID) === id)) {
      throw conflict('This is the last administrator: make another person an administrator first.', 'svc_last_administrator');
    }
  }

  /** Whether a person holds a capability: `granted` (their role's answer by default; a per-site role's on a site), then `svc_user_can`. */
  async can(user: SvcUser | null, capability: Capability, granted = user !== null && roleHas(user.role, capability)): Promise<boolean> {
    if (!user) return false;
    return this.hooks.applyFilters('svc_user_can', granted, user, capability);
  }
}
