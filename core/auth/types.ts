/** The capabilities roles grant (core/auth/roles.ts), plus `read`: any signed-in account of a person (not the share viewer). */
export const CAPABILITIES = [
  'read',
  'view_svc_statistics',
  'view_sales_svc_statistics',
  'manage_svc_statistics',
  'manage_options',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

export type RoleName = 'administrator' | 'editor' | 'svc_viewer';

export interface SvcUser {
  id: number;
  login: string;
  email: string;
  role: RoleName;
  displayName: string;
  /** System accounts (the share-link viewer) have no password and no application passwords. */
  system: boolean;
}

/** How the current request was authenticated. */
export type AuthMethod = 'session' | 'app_password' | 'anonymous';

export interface Principal {
  user: SvcUser | null;
  method: AuthMethod;
  /** Session id for session principals; binds nonces to the sign-in. */
  sessionId: string | null;
}

export const ANONYMOUS: Principal = Object.freeze({ user: null, method: 'anonymous', sessionId: null }) as Principal;
