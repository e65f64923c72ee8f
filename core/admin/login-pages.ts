import path from 'node:path';
import type { Authenticator } from '../auth/passport';
import type { LoginLimiter } from '../auth/login-limiter';
import type { SvcUser } from '../auth/types';
import { VIEWS_DIR } from '../paths';
import type { AdminRequest, AdminResult, AdminService } from './admin';

const LOGIN_VIEW = path.join(VIEWS_DIR, 'login.ejs');

/** Only same-site admin paths are followed after sign-in. */
function safeRedirect(admin: AdminService, target: unknown): string {
  const fallback = admin.url('/');
  if (typeof target !== 'string' || !target.startsWith(admin.url('/')) || target.startsWith('//')) return fallback;
  return target;
}

function authenticate(passport: Authenticator, req: AdminRequest): Promise<SvcUser | false> {
  return new Promise((resolve, reject) => {
    passport.authenticate('local', { session: false }, (err: unknown, user: SvcUser | false) =>
      err ? reject(err) : resolve(user),
    )(req.raw, req.raw.res!, reject);
  });
}

function signIn(req: AdminRequest, user: SvcUser): Promise<void> {
  return new Promise((resolve, reject) => req.raw.login(user, (err) => (err ? reject(err) : resolve())));
}

function signOut(req: AdminRequest): Promise<void> {
  return new Promise((resolve, reject) =>
    req.raw.logout((err) => (err ? reject(err) : req.raw.session.destroy((e) => (e ? reject(e) : resolve())))),
  );
}

/** The login form, its post (each attempt counted per login and address before the password is checked) and logout. */
export function registerLoginPages(admin: AdminService, passport: Authenticator, limiter: LoginLimiter): void {
  const form = (req: AdminRequest, error: string | null, status = 200): AdminResult => ({
    view: LOGIN_VIEW,
    title: 'Sign in',
    status,
    data: { error, login: typeof req.body.log === 'string' ? req.body.log : '', redirectTo: safeRedirect(admin, req.query.redirect_to ?? req.body.redirect_to) },
  });

  admin.page({
    path: '/login',
    capability: null,
    get: (req) => (req.principal.user ? { redirect: safeRedirect(admin, req.query.redirect_to) } : form(req, null)),
    post: async (req) => {
      const login = typeof req.body.log === 'string' ? req.body.log.trim() : '';
      const ip = req.raw.ip ?? '';
      if (login === '' || typeof req.body.pwd !== 'string' || req.body.pwd === '') {
        return form(req, 'Enter your user name and password.', 400);
      }
      const wait = await limiter.attempt(login, ip);
      if (wait > 0) {
        req.raw.res?.setHeader('Retry-After', String(wait));
        return form(req, `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`, 429);
      }
      const user = await authenticate(passport, req);
      if (!user) return form(req, 'The user name or password is not right.', 401);
      await limiter.succeeded(login, ip);
      await signIn(req, user);
      return { redirect: safeRedirect(admin, req.body.redirect_to) };
    },
  });

  admin.page({
    path: '/logout',
    capability: null,
    post: async (req) => {
      if (req.principal.user) await signOut(req);
      return { redirect: admin.url('/login') };
    },
  });
}
