import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, ROOT, SVC_BIN, type ScriptRun, cleanEnv, ensureBuilt, runScript } from '../helpers/dist';
import { type TestDatabase, createTestDatabase } from '../helpers/test-db';
import { type TestKernel, createTestKernel } from '../helpers/test-kernel';

const NOTES_PLUGIN = path.join(__dirname, 'fixtures', 'notes-plugin.js');
/** util-linux `script`, which gives a command a terminal. */
const SCRIPT = '/usr/bin/script';

const run = (script: string, args: string[], env: Record<string, string>, input = ''): Promise<ScriptRun> => runScript(script, args, { env, input });

const lines = (text: string) => text.split('\n').filter(Boolean);

// Each case starts several svc processes; on a loaded machine one process start takes seconds.
jest.setTimeout(120_000);

describe('svc CLI (bin/svc.js)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let tk: TestKernel;
  let adminPassword: string;
  const svc = (...args: string[]) => run(SVC_BIN, args, env);

  beforeAll(async () => {
    ensureBuilt();
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
    env = {
      SVC_DATABASE_URL: database.url,
      SVC_DATA_DIR: dataDir,
      SVC_PLUGIN_PATHS: `${path.join(DIST, 'examples', 'hello-plugin')},${NOTES_PLUGIN}`,
      SVC_PLUGINS: 'hello,notes',
      SVC_TIMEZONE: 'Europe/Berlin',
    };
  }, 120_000);
  afterAll(async () => {
    await tk?.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrate applies core and plugin migrations once', async () => {
    const first = await svc('migrate');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const applied = lines(first.stdout);
    expect(applied).toContain('applied core/0001-core-tables');
    expect(applied).toContain('applied core/0002-scheduler');
    expect(applied).toContain('applied notes/0001-notes');
    expect(applied.at(-1)).toMatch(/^\d+ migration\(s\) applied$/);
    const again = await svc('migrate');
    expect(again).toEqual({ code: 0, stdout: 'the database is up to date\n', stderr: '' });
  });

  it('prints the generated password of the first administrator once', async () => {
    const first = await svc('option', 'get', 'privacy_level');
    expect(first.code).toBe(0);
    const [announce, value] = lines(first.stdout);
    const match = /^svc: created administrator "admin" with password (\S+) \(shown once; change it after signing in\)$/.exec(announce!);
    expect(match).not.toBeNull();
    adminPassword = match![1]!;
    expect(value).toBe('"cookie"');
    expect(await svc('option', 'get', 'privacy_level')).toEqual({ code: 0, stdout: '"cookie"\n', stderr: '' });
    tk = await createTestKernel({ database, env: { SVC_PLUGINS: 'none' } });
    await expect(tk.signedIn('admin', adminPassword)).resolves.toBeDefined();
  });

  it('lists core and plugin commands in help', async () => {
    const help = await svc('help');
    expect(help.code).toBe(0);
    for (const synopsis of ['svc migrate', 'svc user add <login>', 'svc app-password add <login> [name]', 'svc cron run [--now ISO-8601]', 'svc option get <key> | set <key> <json>', 'svc action <hook> [json-arg ...]', 'svc hello [name]', 'svc notes']) {
      expect(help.stdout).toContain(synopsis);
    }
    expect((await svc('--help')).stdout).toBe(help.stdout);
  });

  it('adds users, refusing bad arguments with a usage line and exit code 2', async () => {
    const ok = await svc('user', 'add', 'bob', '--email', 'bob@example.org', '--role', 'editor', '--password', 'bob-password');
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toMatch(/^created editor bob \(id \d+\)\n$/);
    expect(await tk.kernel.users.authenticate('bob', 'bob-password')).toMatchObject({ login: 'bob', role: 'editor', email: 'bob@example.org' });

    const usage = 'usage: svc user add <login> --email E --role administrator|editor --password P | list | password <login> | role <login> administrator|editor | remove <login> [--yes]';
    const bad: Array<[string[], string]> = [
      [['user', 'add', 'carl', '--role', 'emperor', '--password', 'carl-password'], 'svc: --role must be one of administrator, editor'],
      [['user', 'add', 'carl', '--role', 'editor'], 'svc: --password is required'],
      [['user', 'add', 'carl', '--role', 'editor', '--password', 'short'], 'svc: password: at least 8 characters'],
      [['user', 'add', 'carl', '--role', 'editor', '--password', 'carl-password', '--email', 'nope'], 'svc: email: not an e-mail address'],
      [['user', 'add', 'c a r l', '--role', 'editor', '--password', 'carl-password'], 'svc: login: 1-60 letters, digits, _ . @ or -'],
      [['user', 'add', '--role', 'editor', '--password', 'carl-password'], 'svc: missing arguments'],
      [['user', 'rename', 'bob'], 'svc: unknown subcommand rename'],
      [['user', 'role', 'bob', 'emperor'], 'svc: the role must be one of administrator, editor'],
      [['user', 'list', 'extra'], 'svc: unexpected argument extra'],
    ];
    const results = await Promise.all(bad.map(([args]) => svc(...args)));
    expect(results).toEqual(bad.map(([, message]) => ({ code: 2, stdout: '', stderr: `${message}\n${usage}\n` })));
    const unknownOption = await svc('user', 'add', 'carl', '--role', 'editor', '--password', 'carl-password', '--admin');
    expect(unknownOption.code).toBe(2);
    expect(lines(unknownOption.stderr)[0]).toMatch(/^svc: Unknown option '--admin'/);
    expect(await tk.kernel.users.findByLogin('carl')).toBeNull();

    const duplicate = await svc('user', 'add', 'bob', '--role', 'editor', '--password', 'bob-password');
    expect(duplicate).toEqual({ code: 1, stdout: '', stderr: 'svc: user bob already exists\n' });
  });

  it('lists users, sets a password from stdin, changes a role and removes an account only when confirmed', async () => {
    const list = await svc('user', 'list');
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(lines(list.stdout)).toEqual(['LOGIN  ROLE           E-MAIL', 'admin  administrator  -', 'bob    editor         bob@example.org']);

    const bob = await tk.signedIn('bob', 'bob-password');
    const changed = await run(SVC_BIN, ['user', 'password', 'bob'], env, 'bob-new-password\n');
    expect(changed).toEqual({ code: 0, stdout: 'changed the password of bob; their sign-ins were ended\n', stderr: '' });
    expect(await tk.kernel.users.authenticate('bob', 'bob-new-password')).not.toBeNull();
    expect((await bob.get('/svc-admin/account')).status).toBe(302);
    expect(await run(SVC_BIN, ['user', 'password', 'bob'], env, '')).toMatchObject({ code: 2, stderr: expect.stringContaining('svc: no password on stdin') });
    expect(await run(SVC_BIN, ['user', 'password', 'bob'], env, 'short\n')).toMatchObject({ code: 2, stderr: expect.stringContaining('svc: password: at least 8 characters') });
    expect(await run(SVC_BIN, ['user', 'password', 'nobody'], env, 'whatever-long\n')).toEqual({ code: 1, stdout: '', stderr: 'svc: no user named nobody\n' });

    expect(await svc('user', 'role', 'bob', 'administrator')).toEqual({ code: 0, stdout: 'bob is now administrator\n', stderr: '' });
    expect(await svc('user', 'role', 'bob', 'editor')).toEqual({ code: 0, stdout: 'bob is now editor\n', stderr: '' });
    expect(await svc('user', 'role', 'admin', 'editor')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'svc: This is the last administrator: make another person an administrator first.\n',
    });

    await tk.kernel.users.create({ login: 'dora', role: 'editor', password: 'dora-password' });
    expect(await svc('user', 'remove', 'dora')).toEqual({ code: 1, stdout: '', stderr: 'svc: dora was not removed (confirm at the prompt, or add --yes)\n' });
    expect(await tk.kernel.users.findByLogin('dora')).not.toBeNull();
    expect(await svc('user', 'remove', 'dora', '--yes')).toEqual({ code: 0, stdout: 'removed dora\n', stderr: '' });
    expect(await tk.kernel.users.findByLogin('dora')).toBeNull();
    expect(await svc('user', 'remove', 'admin', '--yes')).toMatchObject({ code: 1, stderr: expect.stringContaining('last administrator') });
  });

  (fs.existsSync(SCRIPT) ? it : it.skip)('asks for a new password twice at a terminal, without echoing it', async () => {
    const child = spawn(SCRIPT, ['-qec', `"${process.execPath}" "${SVC_BIN}" user password bob`, '/dev/null'], { cwd: ROOT, env: { ...cleanEnv(), ...env } });
    let out = '';
    const answers = ['typed-at-terminal\r', 'typed-at-terminal\r'];
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      const asked = (out.match(/New password( again)?: /g) ?? []).length;
      if (asked > 2 - answers.length) child.stdin.write(answers.shift()!);
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(out).toContain('New password again: ');
    expect(out).not.toContain('typed-at-terminal');
    expect(out).toContain('changed the password of bob');
    expect(await tk.kernel.users.authenticate('bob', 'typed-at-terminal')).not.toBeNull();
  });

  it('creates an application password and prints only the secret on stdout', async () => {
    const res = await svc('app-password', 'add', 'bob', 'ci runner');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^([A-Za-z0-9]{4} ){7}[A-Za-z0-9]{4}\n$/);
    expect(res.stderr).toMatch(/^application password "ci runner" for bob \(uuid [0-9a-f-]{36}\); it is shown once:\n$/);
    const basic = tk.client().withBasic('bob', res.stdout.trim());
    const list = await basic.get(`${tk.api}/users/me/application-passwords`);
    expect(list.status).toBe(200);
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['ci runner']);
    expect(await svc('app-password', 'add', 'nobody')).toEqual({ code: 1, stdout: '', stderr: 'svc: no user named nobody\n' });
    expect((await svc('app-password', 'add')).code).toBe(2);
  });

  it('reads and writes options, validating the settings of the settings page', async () => {
    expect(await svc('option', 'set', 'my_plugin_state', '{"a":[1,2],"b":"é"}')).toMatchObject({ code: 0 });
    expect((await svc('option', 'get', 'my_plugin_state')).stdout).toBe('{"a":[1,2],"b":"é"}\n');
    const refused = await svc('option', 'set', 'privacy_level', '"everything"');
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: 'svc: privacy_level: Must be one of: cookie, private_mode, fingerprint.\nusage: svc option get <key> | set <key> <json>\n',
    });
    expect((await svc('option', 'set', 'privacy_level', '"fingerprint"')).code).toBe(0);
    tk.kernel.options.invalidate();
    expect(await tk.kernel.settings.get('privacy_level')).toBe('fingerprint');
    expect((await svc('option', 'set', 'x', 'not json')).stderr).toMatch(/^svc: the value is not JSON: not json/);
    expect((await svc('option', 'set', 'x')).code).toBe(2);
    expect((await svc('option', 'delete', 'x')).code).toBe(2);
    expect(await svc('option', 'get', 'never_set')).toEqual({ code: 1, stdout: '', stderr: 'option never_set is not set\n' });
  });

  it('reads and writes another site\'s value of a per-site setting under its derived name, validated', async () => {
    const blog = await tk.kernel.sites.add({ name: 'Blog', domain: 'blog.example', timezone: 'UTC' });
    const name = `ip_blocklist:site:${blog.id}`;
    expect(await svc('option', 'set', name, '"192.0.2.0/24"')).toMatchObject({ code: 0 });
    expect((await svc('option', 'get', name)).stdout).toBe('"192.0.2.0/24"\n');
    expect((await svc('option', 'set', name, '"not an address"')).stderr).toMatch(/^svc: ip_blocklist:site:\d+: Line 1 \(not an address\): not an IP address or CIDR range\n/);
    expect((await svc('option', 'set', 'ip_blocklist:site:999', '""')).stderr).toMatch(/^svc: ip_blocklist:site:999: there is no site 999\n/);
    // A site that saved nothing reads the default, not the default site's value.
    expect((await svc('option', 'get', `custom_block_rules:site:${blog.id}`)).stdout).toBe('""\n');
    tk.kernel.options.invalidate();
    expect(await tk.kernel.settings.get('ip_blocklist', blog.id)).toBe('192.0.2.0/24');
    expect(await tk.kernel.options.get('ip_blocklist')).not.toBe('192.0.2.0/24');
    await tk.kernel.sites.remove(blog.id);
  });

  it('fires documented and plugin-declared actions with JSON arguments', async () => {
    expect(await svc('action', 'notes_add', '"first note"')).toEqual({ code: 0, stdout: 'notes_add done\n', stderr: '' });
    expect((await svc('notes')).stdout).toBe('1 note(s)\n');
    expect(await svc('action', 'svc_daily')).toMatchObject({ code: 0, stdout: 'svc_daily done\n' });
    const usage = 'usage: svc action <hook> [json-arg ...]\n';
    expect(await svc('action', 'notes_add')).toEqual({ code: 2, stdout: '', stderr: `svc: notes_add takes 1 argument(s) (body), got 0\n${usage}` });
    expect(await svc('action', 'svc_no_such_hook')).toEqual({ code: 2, stdout: '', stderr: `svc: unknown action svc_no_such_hook\n${usage}` });
    expect((await svc('action', 'notes_add', '{oops')).code).toBe(2);
    expect((await svc('notes')).stdout).toBe('1 note(s)\n');
  });

  it('runs due single events at --now, and fires a recurring hook as if at --now', async () => {
    const due = Date.parse('2030-01-01T10:00:00Z') / 1000;
    await tk.kernel.scheduler.scheduleSingle(due, 'svc_send_email_batch', [5, 'queue-5', 1]);
    expect((await svc('cron', 'run', '--now', '2030-01-01T09:59:59Z')).stdout).toBe('0 due event(s) ran at 2030-01-01T09:59:59.000Z\n');
    // Without an offset, --now is read in the site timezone (Europe/Berlin, UTC+1 in January).
    expect((await svc('cron', 'run', '--now', '2030-01-01T11:00:00')).stdout).toBe('1 due event(s) ran at 2030-01-01T10:00:00.000Z\n');
    tk.kernel.options.invalidate();
    expect(await tk.kernel.options.get('notes_batch_5')).toEqual({ queueId: 'queue-5', at: due });
    expect(await tk.kernel.scheduler.pending()).toEqual([]);

    const hook = await svc('cron', 'run', '--hook', 'svc_daily', '--now', '2031-02-03T04:05:06Z');
    expect(hook).toEqual({ code: 0, stdout: 'svc_daily ran at 2031-02-03T04:05:06.000Z\n', stderr: '' });
    tk.kernel.options.invalidate();
    expect(await tk.kernel.options.get('notes_daily_at')).toBe(Date.parse('2031-02-03T04:05:06Z') / 1000);

    expect((await svc('cron', 'run', '--hook', 'svc_send_email_batch')).stderr).toMatch(/^svc: --hook must be one of svc_every_hour, svc_daily, svc_weekly\n/);
    expect((await svc('cron', 'run', '--now', 'tomorrow')).stderr).toMatch(/^svc: --now is not an ISO-8601 time: tomorrow\n/);
    expect((await svc('cron', 'run', '--now')).code).toBe(2);
    expect((await svc('cron', 'walk')).code).toBe(2);
  });

  it('runs plugin commands with their own usage, and reports their failures in one line', async () => {
    expect(await svc('hello', 'Ana')).toEqual({ code: 0, stdout: 'Hello, Ana!\n', stderr: '' });
    expect(await svc('hello', 'a', 'b')).toEqual({ code: 2, stdout: '', stderr: 'svc: give at most one name\nusage: svc hello [name]\n' });
    expect(await svc('notes', 'extra')).toEqual({ code: 1, stdout: '', stderr: 'svc: notes takes no arguments\n' });
    expect(await svc('frobnicate')).toEqual({ code: 2, stdout: '', stderr: 'svc: unknown command frobnicate\nusage: svc help\n' });
  });

  describe('operator errors: one line, exit code 1, no stack trace', () => {
    const unreachable = 'mysql://svc:s3cret@127.0.0.1:1/svc';
    const expectOneLine = (res: ScriptRun, pattern: RegExp) => {
      expect(res.code).toBe(1);
      expect(lines(res.stderr)).toHaveLength(1);
      expect(res.stderr.trimEnd()).toMatch(pattern);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      expect(res.stderr).not.toContain('s3cret');
    };

    it('from svc when the database is unreachable or the configuration is bad', async () => {
      const dbLine = /^svc: cannot connect to the database mysql:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc: .*ECONNREFUSED/;
      expectOneLine(await run(SVC_BIN, ['migrate'], { ...env, SVC_DATABASE_URL: unreachable }), dbLine);
      expectOneLine(await run(SVC_BIN, ['user', 'add', 'x', '--role', 'editor', '--password', 'unused-password'], { ...env, SVC_DATABASE_URL: unreachable }), dbLine);
      expectOneLine(await run(SVC_BIN, ['migrate'], { ...env, SVC_LICENSE: 'gold' }), /^svc: SVC_LICENSE: must be free, creator or business$/);
      expectOneLine(await run(SVC_BIN, ['migrate'], { ...env, SVC_DATABASE_URL: 'postgres://x' }), /^svc: SVC_DATABASE_URL: must start with sqlite: or mysql:$/);
    });

    it('from npm start (scripts/start.js) likewise', async () => {
      const start = path.join(ROOT, 'scripts', 'start.js');
      expectOneLine(await run(start, [], { ...env, PORT: '0', SVC_DATABASE_URL: unreachable }), /^svc: cannot connect to the database/);
      expectOneLine(await run(start, [], { ...env, PORT: '0', SVC_TIMEZONE: 'Mars/Olympus_Mons' }), /^svc: SVC_TIMEZONE: unknown IANA time zone: Mars\/Olympus_Mons$/);
      expectOneLine(await run(start, [], { ...env, PORT: '70000' }), /^svc: PORT: not a port number: 70000$/);
    });
  });
});
