import path from 'node:path';
import type { Accounts } from '../auth/accounts';
import { generateSecret } from '../auth/passwords';
import { ASSIGNABLE_ROLES, isRole } from '../auth/roles';
import type { RoleName, SvcUser } from '../auth/types';
import type { Users } from '../auth/users';
import { SvcError, isSvcError } from '../errors';
import { VIEWS_DIR } from '../paths';
import type { Sites } from '../sites/sites';
import { SITE_ROLES, type SiteRole } from '../sites/types';
import type { AdminRequest, AdminResult, AdminService } from './admin';
import { type FieldErrors, newPasswordErrors } from './password-fields';

const VIEW = path.join(VIEWS_DIR, 'users.ejs');

export interface UsersPageDeps {
  users: Users;
  accounts: Accounts;
  sites: Sites;
}

interface NewUserValues {
  login: string;
  email: string;
  role: string;
}

interface PageState {
  values?: NewUserValues;
  /** Problems of the add form, by field. */
  errors?: FieldErrors;
  /** A problem with one listed person's row. */
  rowError?: { id: number; message: string };
  /** A password chosen by svc, shown once. */
  generated?: { login: string; password: string };
  notice?: string;
  status?: number;
}

const NOTICES: Readonly<Record<string, string>> = {
  added: 'The user was added.',
  role: 'The role was changed.',
  password: 'The password was set; every sign-in of that person was ended.',
  removed: 'The user was removed, with their sign-ins and application passwords.',
  sites: 'The roles per site were changed.',
};

const SITE_ROLE_LABELS: Readonly<Record<SiteRole, string>> = {
  manager: 'Manager (statistics, goals, reports, share links)',
  viewer: 'Viewer (statistics)',
};

const ROLE_LABELS: Readonly<Record<string, string>> = {
  administrator: 'Administrator (everything)',
  editor: 'Editor (sees the statistics)',
};

const text = (body: Readonly<Record<string, unknown>>, name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
const secret = (body: Readonly<Record<string, unknown>>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** The words a site owner reads for a refusal of the users service, by form field. */
function addFormErrors(err: SvcError): FieldErrors {
  switch (err.code) {
    case 'svc_invalid_login':
      return { login: 'Use 1 to 60 letters, digits, or the characters _ . @ -' };
    case 'svc_user_exists':
      return { login: 'Someone already has this user name.' };
    case 'svc_invalid_email':
      return { email: 'This is not an e-mail address.' };
    case 'svc_invalid_role':
      return { role: 'Choose a role.' };
    case 'svc_weak_password':
      return { password: `Use ${err.message.replace(/^password: /, '')}.` };
    default:
      return { login: err.message };
  }
}

/**
 * `/svc-admin/users` (administrators): everyone who can sign in, adding a
 * person, changing a role, setting a new password (svc makes one when the
 * field is left empty, shown once) and removing an account. The last
 * administrator can be neither demoted nor removed; nobody changes their own
 * role or removes themselves here. A person who is not an administrator may be
 * limited to some sites with a role on each (manager or viewer).
 */
export function registerUsersPage(admin: AdminService, deps: UsersPageDeps): void {
  const { users, accounts, sites } = deps;

  const render = async (req: AdminRequest, state: PageState): Promise<AdminResult> => {
    if (state.generated) req.raw.res?.setHeader('Cache-Control', 'no-store');
    return {
      view: VIEW,
      title: 'Users',
      status: state.status ?? 200,
      data: {
        people: await users.list(),
        sites: await sites.list(),
        siteRoles: await sites.roles.all(),
        siteRoleChoices: SITE_ROLES.map((r) => ({ value: r, label: SITE_ROLE_LABELS[r] })),
        me: req.principal.user,
        roles: ASSIGNABLE_ROLES,
        roleLabels: ROLE_LABELS,
        values: { login: '', email: '', role: 'editor' },
        errors: {},
        rowError: null,
        generated: null,
        notice: '',
        ...state,
      },
    };
  };

  /** The listed person a row form is about; refusals show on that row. */
  const target = async (req: AdminRequest): Promise<SvcUser> => {
    const id = Number(req.body.id);
    const user = Number.isSafeInteger(id) ? await users.findById(id) : null;
    if (!user || user.system) throw new SvcError('svc_unknown_user', 'That person has no account (any more).', 404);
    return user;
  };

  const add = async (req: AdminRequest): Promise<AdminResult> => {
    const values = { login: text(req.body, 'login'), email: text(req.body, 'email'), role: text(req.body, 'role') };
    const typed = secret(req.body, 'password');
    const errors: FieldErrors = typed === '' ? {} : newPasswordErrors(typed, secret(req.body, 'password_again'), 'password');
    if (values.login === '') errors.login = 'Give the person a user name.';
    if (!isRole(values.role) || !(ASSIGNABLE_ROLES as readonly string[]).includes(values.role)) errors.role = 'Choose a role.';
    if (Object.keys(errors).length > 0) return render(req, { values, errors, status: 400 });
    const password = typed || generateSecret(16);
    try {
      await users.create({ login: values.login, email: values.email, role: values.role as RoleName, password });
    } catch (err) {
      if (!isSvcError(err) || err.status >= 500) throw err;
      return render(req, { values, errors: addFormErrors(err), status: err.status });
    }
    if (typed) return { redirect: `${admin.url('/users')}?done=added` };
    return render(req, { notice: NOTICES.added, generated: { login: values.login, password } });
  };

  const onRow = async (req: AdminRequest, work: (user: SvcUser, me: SvcUser) => Promise<AdminResult>): Promise<AdminResult> => {
    let user: SvcUser | null = null;
    try {
      user = await target(req);
      return await work(user, req.principal.user as SvcUser);
    } catch (err) {
      if (!isSvcError(err) || err.status >= 500) throw err;
      const message = err.code === 'svc_weak_password' ? `The new password needs ${err.message.replace(/^password: /, '')}.` : err.message;
      return render(req, { rowError: { id: user?.id ?? 0, message }, status: err.status });
    }
  };

  admin.page({
    path: '/users',
    capability: 'manage_options',
    get: (req) => render(req, { notice: NOTICES[String(req.query.done)] ?? '' }),
    post: async (req) => {
      switch (req.body.action) {
        case 'add':
          return add(req);
        case 'role':
          return onRow(req, async (user, me) => {
            if (user.id === me.id) throw new SvcError('svc_own_role', 'You cannot change your own role; ask another administrator.', 409);
            await users.setRole(user.id, text(req.body, 'role') as RoleName);
            return { redirect: `${admin.url('/users')}?done=role` };
          });
        case 'password':
          return onRow(req, async (user) => {
            const typed = secret(req.body, 'password');
            const password = typed || generateSecret(16);
            await accounts.setPassword(user, password, user.id === req.principal.user?.id ? (req.principal.sessionId ?? undefined) : undefined);
            if (typed) return { redirect: `${admin.url('/users')}?done=password` };
            return render(req, { notice: NOTICES.password, generated: { login: user.login, password } });
          });
        case 'sites':
          return onRow(req, async (user) => {
            const all = await sites.list();
            const chosen = new Map(all.map((site) => [site.id, text(req.body, `site_${site.id}`)]));
            for (const [siteId, role] of chosen) {
              if (role !== '' && !(SITE_ROLES as readonly string[]).includes(role)) throw new SvcError('svc_invalid_param', `site_${siteId}: choose a role`, 400);
            }
            for (const [siteId, role] of chosen) await sites.roles.set(user.id, siteId, role === '' ? null : (role as SiteRole));
            // The role kept on a removed site (their last one) goes once the form says what they have.
            for (const siteId of (await sites.roles.of(user.id)).keys()) if (!chosen.has(siteId)) await sites.roles.set(user.id, siteId, null);
            return { redirect: `${admin.url('/users')}?done=sites` };
          });
        case 'remove':
          return onRow(req, async (user, me) => {
            if (user.id === me.id) throw new SvcError('svc_own_account', 'You cannot remove your own account while signed in with it; ask another administrator.', 409);
            await accounts.remove(user.id);
            return { redirect: `${admin.url('/users')}?done=removed` };
          });
        default:
          throw new SvcError('svc_invalid_param', 'Unknown form action.', 400);
      }
    },
  });
}
