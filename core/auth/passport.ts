import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import { Strategy as LocalStrategy } from 'passport-local';
import type { ApplicationPasswords } from './app-passwords';
import type { SvcUser } from './types';
import type { Users } from './users';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends SvcUser {}
  }
}

export type Authenticator = InstanceType<typeof Passport>;

/**
 * One passport instance per kernel: `local` for the login form (sessions),
 * `basic` for application passwords on the REST API (no session).
 */
export function createPassport(users: Users, appPasswords: ApplicationPasswords): Authenticator {
  const passport = new Passport();
  passport.use(
    new LocalStrategy({ usernameField: 'log', passwordField: 'pwd' }, (login, password, done) => {
      users.authenticate(login, password).then((user) => done(null, user ?? false), done);
    }),
  );
  passport.use(
    new BasicStrategy({ passReqToCallback: true }, (req, login, password, done) => {
      appPasswords.authenticate(login, password, req.ip ?? '').then((user) => done(null, user ?? false), done);
    }),
  );
  passport.serializeUser((user, done) => done(null, user.id));
  passport.deserializeUser((id: number, done) => {
    users.findById(Number(id)).then((user) => done(null, user ?? false), done);
  });
  return passport;
}
