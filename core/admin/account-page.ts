import path from 'node:path';
import { DateTime } from 'luxon';
import type { ApplicationPasswords, NewAppPassword } from '../auth/app-passwords';
import type { SvcUser } from '../auth/types';
import { SvcError } from '../errors';
import { VIEWS_DIR } from '../paths';
import type { AdminRequest, AdminResult, AdminService } from './admin';

const VIEW = path.join(VIEWS_DIR, 'account.ejs');

interface PageState {
  created?: NewAppPassword;
  error?: { field: 'name' | 'list'; message: string };
  notice?: string;
  name?: string;
  status?: number;
}

/**
 * `/svc-admin/account`: the signed-in user's application passwords. A new
 * secret is rendered once in the answer to the create form (never stored in
 * clear, never in a URL); revoking takes effect on every node at once.
 */
export function registerAccountPage(admin: AdminService, appPasswords: ApplicationPasswords, timezone: string): void {
  const formatTime = (unix: number | null) =>
    unix === null ? 'never' : DateTime.fromSeconds(unix, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm');

  const render = async (req: AdminRequest, state: PageState): Promise<AdminResult> => {
    const user = req.principal.user as SvcUser;
    if (state.created) req.raw.res?.setHeader('Cache-Control', 'no-store');
    return {
      view: VIEW,
      title: 'Account',
      status: state.status ?? 200,
      data: { account: user, passwords: await appPasswords.list(user.id), formatTime, timezone, created: null, error: null, notice: null, name: '', ...state },
    };
  };

  admin.page({
    path: '/account',
    capability: 'read',
    get: (req) => render(req, { notice: req.query.revoked === '1' ? 'The application password was revoked.' : undefined }),
    post: async (req) => {
      const user = req.principal.user as SvcUser;
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
