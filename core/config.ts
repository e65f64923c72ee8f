import path from 'node:path';
import { splitDatabaseHosts } from './db/hosts';
import { SvcError } from './errors';

export type License = 'free' | 'creator' | 'business';
export const LICENSES: readonly License[] = ['free', 'creator', 'business'];

/** The environment of the README's "Configuration", read once from the environment. */
export interface SvcConfig {
  port: number;
  /** `HOST`: the address to listen on; null listens on every interface. */
  host: string | null;
  /** `{base_url}` without a trailing slash. */
  baseUrl: string;
  /** Path part of the base URL ('' at the root); every route is mounted below it. */
  basePath: string;
  restPrefix: string;
  /** `{api_base}`: base URL + REST prefix + `/svc/v1`. */
  apiBase: string;
  /** Path of `{api_base}` below the host, used to mount the REST router. */
  apiPath: string;
  databaseUrl: string;
  tablePrefix: string;
  dataDir: string;
  timezone: string;
  license: License;
  /** The spec's `SVC_PRO` constant: defined for the creator and business licenses. */
  pro: boolean;
  /** Plugins to load; null means every plugin the license allows (`SVC_PLUGINS=none` loads none). */
  plugins: string[] | null;
  pluginPaths: string[];
  smtpUrl: string | null;
  mailFrom: string;
  dnsServers: string[] | null;
  admin: { user: string | null; password: string | null; email: string | null };
  /** '*' or an explicit list of origins allowed to call the tracking endpoints. */
  allowedOrigins: '*' | string[];
  debug: boolean;
  headlessDomain: string | null;
  /** express `trust proxy`: false, true, a hop count, or addresses/subnets/names (`loopback`) of trusted proxies. */
  trustProxy: boolean | number | string;
  /** `SVC_STATS_CACHE_MB`: memory for the statistics day blocks (0 turns them off). */
  statsCacheMb: number;
}

const truthy = (v: string | undefined): boolean =>
  v !== undefined && v !== '' && !['0', 'false', 'no', 'off'].includes(v.toLowerCase());

/** `SVC_TRUST_PROXY`: unset/false, true, a number of hops, or a comma list for express. */
function trustProxy(v: string | undefined): boolean | number | string {
  const value = (v ?? '').trim();
  if (value === '' || /^(false|no|off)$/i.test(value)) return false;
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** The items of a comma-separated setting, trimmed, empty ones left out. */
export const commaList = (v: string | undefined): string[] =>
  (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function fail(name: string, message: string): never {
  throw new SvcError('SVC_ERR_CONFIG', `${name}: ${message}`, 500);
}

/** Whether `Intl` knows the IANA time zone. */
export function isTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SvcConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail('PORT', `not a port number: ${env.PORT}`);

  const statsCacheMb = env.SVC_STATS_CACHE_MB === undefined || env.SVC_STATS_CACHE_MB === '' ? 64 : Number(env.SVC_STATS_CACHE_MB);
  if (!Number.isInteger(statsCacheMb) || statsCacheMb < 0) fail('SVC_STATS_CACHE_MB', `not a whole number of megabytes: ${env.SVC_STATS_CACHE_MB}`);

  const host = (env.HOST ?? '').trim() || null;
  if (host !== null && !/^[A-Za-z0-9.:%_-]+$/.test(host.replace(/^\[(.*)\]$/, '$1'))) fail('HOST', `not an address or host name: ${host}`);

  const rawBase = env.SVC_BASE_URL || `http://localhost:${port}`;
  let base: URL;
  try {
    base = new URL(rawBase);
  } catch {
    fail('SVC_BASE_URL', `not a URL: ${rawBase}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') fail('SVC_BASE_URL', 'must be http or https');
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseUrl = `${base.origin}${basePath}`;

  const restPrefixRaw = env.SVC_REST_PREFIX ?? '/wp-json';
  const restPrefix = `/${restPrefixRaw.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
  const apiPath = `${basePath}${restPrefix}/svc/v1`;

  const dataDir = path.resolve(cwd, env.SVC_DATA_DIR || './data');
  const databaseUrl = env.SVC_DATABASE_URL || `sqlite:${path.join(dataDir, 'svc.sqlite')}`;
  if (!/^(sqlite|mysql|mariadb):/.test(databaseUrl)) {
    fail('SVC_DATABASE_URL', 'must start with sqlite: or mysql:');
  }
  if (!databaseUrl.startsWith('sqlite:')) {
    try {
      splitDatabaseHosts(databaseUrl);
    } catch (err) {
      fail('SVC_DATABASE_URL', (err as Error).message);
    }
  }

  const tablePrefix = env.SVC_TABLE_PREFIX ?? '';
  if (!/^[A-Za-z0-9_]*$/.test(tablePrefix)) fail('SVC_TABLE_PREFIX', 'letters, digits and _ only');

  const timezone = env.SVC_TIMEZONE || 'UTC';
  if (!isTimezone(timezone)) fail('SVC_TIMEZONE', `unknown IANA time zone: ${timezone}`);

  const license = (env.SVC_LICENSE || 'free').toLowerCase() as License;
  if (!LICENSES.includes(license)) fail('SVC_LICENSE', 'must be free, creator or business');

  const origins = commaList(env.SVC_ALLOWED_ORIGINS);
  const allowedOrigins = origins.length === 0 || origins.includes('*') ? '*' : origins;

  return {
    port,
    host: host?.replace(/^\[(.*)\]$/, '$1') ?? null,
    baseUrl,
    basePath,
    restPrefix,
    apiBase: `${base.origin}${apiPath}`,
    apiPath,
    databaseUrl,
    tablePrefix,
    dataDir,
    timezone,
    license,
    pro: license !== 'free',
    plugins:
      env.SVC_PLUGINS === undefined || env.SVC_PLUGINS.trim() === ''
        ? null
        : env.SVC_PLUGINS.trim() === 'none'
          ? []
          : commaList(env.SVC_PLUGINS),
    pluginPaths: commaList(env.SVC_PLUGIN_PATHS).map((p) => path.resolve(cwd, p)),
    smtpUrl: env.SVC_SMTP_URL || null,
    mailFrom: env.SVC_MAIL_FROM || `svc@${base.hostname}`,
    dnsServers: env.SVC_DNS_SERVERS ? commaList(env.SVC_DNS_SERVERS) : null,
    admin: {
      user: env.SVC_ADMIN_USER || null,
      password: env.SVC_ADMIN_PASSWORD || null,
      email: env.SVC_ADMIN_EMAIL || null,
    },
    allowedOrigins,
    debug: truthy(env.SVC_DEBUG),
    headlessDomain: env.SVC_HEADLESS_DOMAIN || null,
    trustProxy: trustProxy(env.SVC_TRUST_PROXY),
    statsCacheMb,
  };
}

/** True when `license` includes `tier` (free < creator < business). */
export function licenseAllows(license: License, tier: License): boolean {
  return LICENSES.indexOf(license) >= LICENSES.indexOf(tier);
}
