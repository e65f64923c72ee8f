import session from 'express-session';
import SequelizeStoreInit from 'connect-session-sequelize';
import { DataTypes } from 'sequelize';
import { columnTypes } from '../db/column-types';
import type { RequestHandler } from 'express';
import type { SvcConfig } from '../config';
import type { Database } from '../db/database';

export const SESSION_COOKIE = 'svc_session';
const SESSION_DAYS = 14;

export interface SessionStore {
  middleware: RequestHandler;
  /** Signs a user out everywhere (every app node shares the table), except in the session `keep` when given. */
  destroyForUser(userId: number, keep?: string): Promise<number>;
  close(): void;
}

/** Sessions in `{prefix}svc_sessions`, so any app node can serve any signed-in browser. */
export function createSessionStore(db: Database, config: SvcConfig, secret: string): SessionStore {
  const modelName = 'SvcSession';
  if (!db.sequelize.isDefined(modelName)) {
    db.sequelize.define(
      modelName,
      {
        sid: { type: DataTypes.STRING(64), primaryKey: true },
        expires: DataTypes.DATE,
        data: DataTypes.TEXT('long'),
        user_id: { type: columnTypes(db.dialect).ref, allowNull: true },
      },
      { tableName: db.table('auth_sessions'), timestamps: true },
    );
  }
  const SequelizeStore = SequelizeStoreInit(session.Store);
  const store = new SequelizeStore({
    db: db.sequelize,
    table: modelName,
    checkExpirationInterval: 15 * 60 * 1000,
    expiration: SESSION_DAYS * 24 * 60 * 60 * 1000,
    extendDefaultFields: (defaults: object, data: { passport?: { user?: number } }) => ({
      ...defaults,
      user_id: data.passport?.user ?? null,
    }),
  });
  const secure = config.baseUrl.startsWith('https:');
  const middleware = session({
    name: SESSION_COOKIE,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    proxy: secure,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: config.basePath || '/',
      maxAge: SESSION_DAYS * 24 * 60 * 60 * 1000,
    },
  });
  return {
    middleware,
    destroyForUser: (userId, keep) =>
      db.execute(`DELETE FROM ${db.quote(db.table('auth_sessions'))} WHERE user_id = ? AND sid <> ?`, [userId, keep ?? '']),
    close: () => (store as unknown as { stopExpiringSessions(): void }).stopExpiringSessions(),
  };
}
