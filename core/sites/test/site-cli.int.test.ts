import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../cli/main';
import { type TestDatabase, createTestDatabase } from '../../../test/helpers/test-db';

describe('svc site', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const svc = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const out = new PassThrough().on('data', (c: Buffer) => void (stdout += c.toString()));
    const err = new PassThrough().on('data', (c: Buffer) => void (stderr += c.toString()));
    const code = await main(argv, { env, stdout: out, stderr: err, stdin: new PassThrough() });
    return { code, stdout, stderr };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-site-cli-'));
    env = {
      SVC_DATABASE_URL: database.url,
      SVC_DATA_DIR: dataDir,
      SVC_PLUGINS: 'none',
      SVC_TIMEZONE: 'Europe/Berlin',
      SVC_BASE_URL: 'http://stats.example:8080',
      SVC_ADMIN_USER: 'admin',
      SVC_ADMIN_PASSWORD: 'correct horse battery',
    };
  });
  afterAll(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the default site, adds sites and refuses bad input naming the field', async () => {
    const added = await svc('site', 'add', 'Shop.Example', '--name', 'The shop', '--timezone', 'America/New_York');
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toBe('added the site The shop (id 2, shop.example), time zone America/New_York\n');
    expect((await svc('site', 'add', 'blog.example')).stdout).toBe('added the site blog.example (id 3, blog.example), time zone Europe/Berlin\n');
    const list = await svc('site', 'list');
    expect(list.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s{2,}/))).toEqual([
      ['ID', 'NAME', 'DOMAIN', 'ALIASES', 'TIME ZONE'],
      ['1', 'stats.example:8080', '-', '-', 'Europe/Berlin'],
      ['2', 'The shop', 'shop.example', '-', 'America/New_York'],
      ['3', 'blog.example', 'blog.example', '-', 'Europe/Berlin'],
    ]);
    const taken = await svc('site', 'add', 'www.shop.example');
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/^svc: domain: already used by the site The shop \(shop.example\)\n/);
    expect((await svc('site', 'add', 'bad_host!', '--timezone', 'Nowhere/Else')).stderr).toMatch(/^svc: domain: .*; timezone: unknown IANA time zone/);
  });

  it('removes a site only when confirmed, never the default site', async () => {
    const unconfirmed = await svc('site', 'remove', '3');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toBe('svc: the site blog.example was not removed (confirm both prompts, or add --yes)\n');
    expect(await svc('site', 'remove', '3', '--yes')).toEqual({ code: 0, stdout: 'removed the site blog.example (id 3, blog.example) and its data\n', stderr: '' });
    expect((await svc('site', 'remove', '3', '--yes')).stderr).toBe('svc: no site with id 3\n');
    const first = await svc('site', 'remove', '1', '--yes');
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/^svc: id: the default site cannot be removed/);
  });
});
