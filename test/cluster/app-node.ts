import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, cleanEnv } from '../helpers/dist';
import { freePort } from '../helpers/test-kernel';
import { within } from '../helpers/wait';

/** An app node: the compiled server (`dist/core/server.js`) in its own OS process. */
export interface AppNode {
  url: string;
  child: ChildProcess;
  /** Its JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  /** Stops it with SIGTERM (or `signal`) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts an app node with `env` on a free port and its own data folder; resolves once it listens. */
export async function startAppNode(env: Record<string, string>): Promise<AppNode> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-node-'));
  const child = spawn(process.execPath, [path.join(DIST, 'core', 'server.js')], {
    env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1', SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_DATA_DIR: dataDir, SVC_LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const entries: Array<Record<string, unknown>> = [];
  let partial = '';
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += String(c)));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      const lines = (partial + String(chunk)).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        entries.push(entry);
        if (String(entry.msg).startsWith('svc listening')) resolve();
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`app node exited (${code ?? signal}) before it listened: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await within(listening, 60_000, 'an app node to listen');
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    logs: () => entries,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await within(exited, 30_000, 'an app node to exit').catch(() => {
        child.kill('SIGKILL');
        return exited;
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts app nodes side by side; when one fails to start, the others are stopped and the failure thrown. */
export async function startAppNodes(...envs: Array<Record<string, string>>): Promise<AppNode[]> {
  const started = await Promise.allSettled(envs.map(startAppNode));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (!failed) return nodes;
  await Promise.all(nodes.map((n) => n.stop()));
  throw failed.reason;
}
