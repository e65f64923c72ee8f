import path from 'node:path';
import { loadConfig } from '../../core/config';

describe('loadConfig (the environment in the README)', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, '/srv/svc');
    expect(c).toMatchObject({
      port: 8080,
      host: null,
      baseUrl: 'http://localhost:8080',
      basePath: '',
      restPrefix: '/wp-json',
      apiBase: 'http://localhost:8080/wp-json/svc/v1',
      databaseUrl: `sqlite:${path.join('/srv/svc/data', 'svc.sqlite')}`,
      tablePrefix: '',
      dataDir: '/srv/svc/data',
      timezone: 'UTC',
      license: 'free',
      pro: false,
      plugins: null,
      pluginPaths: [],
      smtpUrl: null,
      mailFrom: 'svc@localhost',
      dnsServers: null,
      admin: { user: null, password: null, email: null },
      allowedOrigins: '*',
      debug: false,
      headlessDomain: null,
      trustProxy: false,
      statsCacheMb: 64,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        SVC_BASE_URL: 'https://stats.example.org/analytics/',
        SVC_REST_PREFIX: 'api/',
        SVC_DATABASE_URL: 'mysql://u:p@db:3306/svc',
        SVC_TABLE_PREFIX: 'wp_',
        SVC_DATA_DIR: 'var',
        SVC_TIMEZONE: 'Europe/Berlin',
        SVC_LICENSE: 'Business',
        SVC_PLUGINS: 'tracking, sources',
        SVC_PLUGIN_PATHS: './ext/a,/opt/b',
        SVC_SMTP_URL: 'smtp://mail:25',
        SVC_MAIL_FROM: 'Reports <r@example.org>',
        SVC_DNS_SERVERS: '127.0.0.1:5353, 9.9.9.9',
        SVC_ADMIN_USER: 'root',
        SVC_ADMIN_PASSWORD: 'pw',
        SVC_ADMIN_EMAIL: 'root@example.org',
        SVC_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
        SVC_DEBUG: 'true',
        SVC_HEADLESS_DOMAIN: 'shop.example',
        SVC_TRUST_PROXY: 'loopback, 10.0.0.0/8',
      },
      '/srv/svc',
    );
    expect(c).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      baseUrl: 'https://stats.example.org/analytics',
      basePath: '/analytics',
      restPrefix: '/api',
      apiPath: '/analytics/api/svc/v1',
      apiBase: 'https://stats.example.org/analytics/api/svc/v1',
      databaseUrl: 'mysql://u:p@db:3306/svc',
      tablePrefix: 'wp_',
      dataDir: '/srv/svc/var',
      timezone: 'Europe/Berlin',
      license: 'business',
      pro: true,
      plugins: ['tracking', 'sources'],
      pluginPaths: ['/srv/svc/ext/a', '/opt/b'],
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'Reports <r@example.org>',
      dnsServers: ['127.0.0.1:5353', '9.9.9.9'],
      admin: { user: 'root', password: 'pw', email: 'root@example.org' },
      allowedOrigins: ['https://a.example', 'https://b.example'],
      debug: true,
      headlessDomain: 'shop.example',
      trustProxy: 'loopback, 10.0.0.0/8',
    });
  });

  it('loads no plugin with SVC_PLUGINS=none and reads the trust-proxy forms', () => {
    expect(loadConfig({ SVC_PLUGINS: 'none' }).plugins).toEqual([]);
    expect(loadConfig({ SVC_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ SVC_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ SVC_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ SVC_LICENSE: 'creator' }).pro).toBe(true);
    expect(loadConfig({ SVC_DEBUG: '0' }).debug).toBe(false);
  });

  it('listens on every interface unless HOST names one', () => {
    expect(loadConfig({ HOST: '' }).host).toBeNull();
    expect(loadConfig({ HOST: ' ::1 ' }).host).toBe('::1');
    expect(loadConfig({ HOST: '[::1]' }).host).toBe('::1');
    expect(loadConfig({ HOST: 'stats.internal' }).host).toBe('stats.internal');
  });

  it('reads the memory for the statistics day blocks, 0 turning them off', () => {
    expect(loadConfig({ SVC_STATS_CACHE_MB: '128' }).statsCacheMb).toBe(128);
    expect(loadConfig({ SVC_STATS_CACHE_MB: '0' }).statsCacheMb).toBe(0);
  });

  it.each([
    [{ PORT: 'http' }, 'PORT: not a port number: http'],
    [{ PORT: '65536' }, 'PORT: not a port number: 65536'],
    [{ SVC_BASE_URL: 'not a url' }, 'SVC_BASE_URL: not a URL: not a url'],
    [{ SVC_BASE_URL: 'ftp://x' }, 'SVC_BASE_URL: must be http or https'],
    [{ SVC_DATABASE_URL: 'postgres://x' }, 'SVC_DATABASE_URL: must start with sqlite: or mysql:'],
    [{ SVC_DATABASE_URL: 'mysql://u@db1:3306,,db2/svc' }, 'SVC_DATABASE_URL: "" is not a host or host:port'],
    [{ SVC_DATABASE_URL: 'mysql://u@db1:3306,db2:99999/svc' }, 'SVC_DATABASE_URL: "db2:99999" has no valid port'],
    [{ SVC_TABLE_PREFIX: 'x; DROP' }, 'SVC_TABLE_PREFIX: letters, digits and _ only'],
    [{ SVC_TIMEZONE: 'Europe/Atlantis' }, 'SVC_TIMEZONE: unknown IANA time zone: Europe/Atlantis'],
    [{ SVC_LICENSE: 'gold' }, 'SVC_LICENSE: must be free, creator or business'],
    [{ HOST: 'http://0.0.0.0' }, 'HOST: not an address or host name: http://0.0.0.0'],
    [{ SVC_STATS_CACHE_MB: 'lots' }, 'SVC_STATS_CACHE_MB: not a whole number of megabytes: lots'],
    [{ SVC_STATS_CACHE_MB: '-1' }, 'SVC_STATS_CACHE_MB: not a whole number of megabytes: -1'],
    [{ SVC_STATS_CACHE_MB: '1.5' }, 'SVC_STATS_CACHE_MB: not a whole number of megabytes: 1.5'],
  ])('refuses %j with a coded one-line error', (env, message) => {
    expect(() => loadConfig(env)).toThrow(expect.objectContaining({ code: 'SVC_ERR_CONFIG', message }));
  });
});
