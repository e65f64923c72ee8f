import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { SvcError } from './errors';

/**
 * Fills `env` from the optional `.env` files the server and `svc` read at
 * start: `<working directory>/.env`, then `<SVC_DATA_DIR>/.env`. A variable
 * already in the environment wins over both files, the first file over the
 * second. Answers the files that were read.
 */
export function applyEnvFiles(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  const read: string[] = [];
  const apply = (file: string) => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw new SvcError('SVC_ERR_CONFIG', `${file}: cannot be read (${code ?? String(err)})`, 500);
    }
    for (const [name, value] of Object.entries(dotenv.parse(text))) if (env[name] === undefined) env[name] = value;
    read.push(file);
  };
  const projectFile = path.resolve(cwd, '.env');
  apply(projectFile);
  const dataFile = path.join(path.resolve(cwd, env.SVC_DATA_DIR || './data'), '.env');
  if (dataFile !== projectFile) apply(dataFile);
  return read;
}
