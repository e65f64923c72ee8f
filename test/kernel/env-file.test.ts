import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyEnvFiles } from '../../core/env-file';

describe('the .env files (README "Configuration")', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-env-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads nothing when there is no file', () => {
    const env: NodeJS.ProcessEnv = { PORT: '1' };
    expect(applyEnvFiles(env, dir)).toEqual([]);
    expect(env).toEqual({ PORT: '1' });
  });

  it('fills what the environment leaves unset: environment, then ./.env, then <SVC_DATA_DIR>/.env', () => {
    fs.writeFileSync(path.join(dir, '.env'), '# project\nSVC_LICENSE=business\nSVC_DATA_DIR=state\nPORT=9000\nSVC_MAIL_FROM="Reports <r@example.org>"\n');
    fs.mkdirSync(path.join(dir, 'state'));
    fs.writeFileSync(path.join(dir, 'state', '.env'), 'SVC_LICENSE=free\nSVC_TIMEZONE=Europe/Berlin\nexport SVC_SMTP_URL=smtp://mail:25\n');
    const env: NodeJS.ProcessEnv = { PORT: '8114', SVC_DEBUG: '' };
    expect(applyEnvFiles(env, dir)).toEqual([path.join(dir, '.env'), path.join(dir, 'state', '.env')]);
    expect(env).toEqual({
      PORT: '8114',
      SVC_DEBUG: '',
      SVC_LICENSE: 'business',
      SVC_DATA_DIR: 'state',
      SVC_MAIL_FROM: 'Reports <r@example.org>',
      SVC_TIMEZONE: 'Europe/Berlin',
      SVC_SMTP_URL: 'smtp://mail:25',
    });
  });

  it('reads <SVC_DATA_DIR>/.env when the environment names the folder', () => {
    const data = path.join(dir, 'elsewhere');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, '.env'), 'SVC_LICENSE=creator\n');
    const env: NodeJS.ProcessEnv = { SVC_DATA_DIR: data };
    applyEnvFiles(env, dir);
    expect(env.SVC_LICENSE).toBe('creator');
  });

  it('refuses a file it cannot read with a coded one-line error', () => {
    fs.mkdirSync(path.join(dir, '.env'));
    expect(() => applyEnvFiles({}, dir)).toThrow(expect.objectContaining({ code: 'SVC_ERR_CONFIG', message: `${path.join(dir, '.env')}: cannot be read (EISDIR)` }));
  });
});
