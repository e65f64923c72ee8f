import path from 'node:path';
import { DateTime } from 'luxon';
import type { Accounts } from '../auth/accounts';
import type { ApplicationPasswords, NewAppPassword } from '../auth/app-passwords';
import { checkCurrentPassword } from '../auth/current-password';
import type { LoginLimiter } from '../auth/login-limiter';
import type { SvcUser } from '../auth/types';
import type { Users } from '../auth/users';
import { SvcError } from '../errors';
import { VIEWS_DIR } from '../paths';
import type { AdminRequest, AdminResult, AdminService } from './admin';
import { type FieldErrors, newPasswordErrors } from './password-fields';

const VIEW = path.join(VIEWS_DIR, 'account.ejs');

export interface AccountPageDeps {
  users: Users;
  accounts: Accounts;
  appPasswords: ApplicationPasswords;
  limiter: LoginLimiter;
  timezone: string;
}

interface PageState {
  created?: NewAppPassword;
  error?: { field: 'name' | 'list'; message: string };
  passwordErrors?: FieldErrors;
  notice?: string;
  name?: string;
  status?: number;
}

const NOTICES: Readonly<Record<string, string>> = {
  revoked: 'The application password was revoked.',
  password: 'Your password was changed. Your other sign-ins of this account were signed out.',
};

const field = (body: Readonly<Record<string, unknown>>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/**
 * `/svc-admin/account`: the signed-in person's password and application
 * passwords. A new secret is rendered once in the answer to the create form
 * (never stored in clear, never in a URL); revoking takes effect on every
 * node at once. Changing the password needs the current one; wrong guesses
 * count like failed sign-ins.
 */
export function registerAccountPage(admin: AdminService, deps: AccountPageDeps): void {
  const { appPasswords, timezone } = deps;
  const formatTime = (unix: number | null) =>
    unix === null ? 'never' : DateTime.fromSeconds(unix, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm');

  const render = async (req: AdminRequest, state: PageState): Promise<AdminResult> => {
    const user = req.principal.user as SvcUser;
    if (state.created) req.raw.res?.setHeader('Cache-Control', 'no-store');
    return {
      view: VIEW,
      title: 'Account',
      status: state.status ?? 200,
      data: {
        account: user,
        passwords: await appPasswords.list(user.id),
        formatTime,
        timezone,
        created: null,
        error: null,
        passwordErrors: {},
        notice: null,
        name: '',
        ...state,
      },
    };
  };

  const changePassword = async (req: AdminRequest): Promise<AdminResult> => {
    const user = req.principal.user as SvcUser;
    const current = field(req.body, 'current_password');
    const errors = newPasswordErrors(field(req.body, 'new_password'), field(req.body, 'new_password_again'));
    if (current === '') errors.current_password = 'Type your current password.';
    else if (Object.keys(errors).length === 0 && current === field(req.body, 'new_password')) errors.new_password = 'The new password is the one you have now.';
    if (Object.keys(errors).length > 0) return render(req, { passwordErrors: errors, status: 400 });
    const check = await checkCurrentPassword(deps.limiter, deps.users, user, current, req.raw.ip ?? '');
    if (!check.ok && check.retryAfter > 0) {
      req.raw.res?.setHeader('Retry-After', String(check.retryAfter));
      return render(req, { passwordErrors: { current_password: `Too many wrong passwords. Try again in ${Math.ceil(check.retryAfter / 60)} minutes.` }, status: 429 });
    }
    if (!check.ok) return render(req, { passwordErrors: { current_password: 'That is not your current password.' }, status: 400 });
    await deps.accounts.setPassword(user, field(req.body, 'new_password'), req.principal.sessionId ?? undefined);
    return { redirect: `${admin.url('/account')}?done=password` };
  };

  admin.page({
    path: '/account',
    capability: 'read',
    get: (req) => render(req, { notice: NOTICES[String(req.query.done ?? (req.query.revoked === '1' ? 'revoked' : ''))] }),
    post: async (req) => {
      const user = req.principal.user as SvcUser;
      if (req.body.action === 'password') return changePassword(req);
      if (req.body.action === 'create') {
        const name = typeof req.body.name === 'string' ? req.body.name : '';
        try {
          return await render(req, { created: await appPasswords.create(user, name) });
        } catch (err) {
          if (!(err instanceof SvcError) || err.status >= 500) throw err;
          return render(req, { error: { field: 'name', message: 'Give the password a name of 1 to 191 characters.' }, name, status: err.status });
        }
      }
      if (req.body.action === 'revoke') {
        const uuid = typeof req.body.uuid === 'string' ? req.body.uuid : '';
        if (await appPasswords.revoke(user.id, uuid)) return { redirect: `${admin.url('/account')}?revoked=1` };
        return render(req, { error: { field: 'list', message: 'That application password does not exist (any more).' }, status: 404 });
      }
      throw new SvcError('svc_invalid_param', 'Unknown form action.', 400);
    },
  });
}
