import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'dist');
export const SVC_BIN = path.join(ROOT, 'bin', 'svc.js');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isBuildStale } = require('../../scripts/build-state') as { isBuildStale(root: string): boolean };

const LOCK = path.join(os.tmpdir(), `svc-build-${Buffer.from(ROOT).toString('hex').slice(-32)}.lock`);
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Makes sure dist/ matches the sources, for tests that run compiled code in
 * child processes (bin/svc.js, forked app nodes). Test workers take turns
 * through a lock directory; CI builds first, so this is a no-op there.
 */
export function ensureBuilt(): void {
  if (!isBuildStale(ROOT)) return;
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() > until) throw new Error(`another build holds ${LOCK}; remove it if no build runs`);
      sleep(200);
    }
  }
  try {
    if (isBuildStale(ROOT)) execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    fs.rmdirSync(LOCK);
  }
}

/** The test process's environment without any setting of svc (SVC_*, PORT, HOST), so that only what a test passes counts; `extra` on top. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const own = (name: string) => name.startsWith('SVC_') || name === 'PORT' || name === 'HOST';
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !own(name))), ...extra };
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ScriptProcess {
  child: ChildProcess;
  /** Resolves when the process has exited and its output is closed. */
  done: Promise<ScriptRun>;
}

/** Starts a Node script in its own process with a clean environment plus `env`, `input` on its stdin; killed after `timeout` ms. */
export function startScript(
  script: string,
  args: string[],
  { cwd = ROOT, env = {}, input = '', timeout = 60_000 }: { cwd?: string; env?: Record<string, string>; input?: string; timeout?: number } = {},
): ScriptProcess {
  const child = spawn(process.execPath, [script, ...args], { cwd, env: cleanEnv(env), timeout });
  child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += String(c)));
  child.stderr!.on('data', (c) => (stderr += String(c)));
  const done = new Promise<ScriptRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

/** Runs a Node script in its own process with a clean environment plus `env`, `input` on its stdin; resolves when it exits. */
export function runScript(script: string, args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<ScriptRun> {
  return startScript(script, args, options).done;
}
