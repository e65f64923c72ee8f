import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { Database } from '../../core/db/database';

const NODE_SCRIPT = path.join(__dirname, '..', 'kernel', 'fixtures', 'cron-node.js');

interface NodeMessage {
  type: 'ready' | 'done';
  ran?: number;
}

export interface CronNode {
  child: ChildProcess;
  /** Tells the node to run the due single events. */
  go(): void;
  /** Resolves with how many events it ran, once it has exited. */
  done: Promise<number>;
}

/**
 * Forks one app node (test/kernel/fixtures/cron-node.js: the compiled kernel
 * with a plugin recording each `svc_send_email_batch` run as an option) and
 * resolves once it has booted.
 */
export function startCronNode(env: NodeJS.ProcessEnv): Promise<CronNode> {
  return new Promise((resolve, reject) => {
    const child = fork(NODE_SCRIPT, [], { env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    const done = new Promise<number>((res, rej) => {
      child.on('message', (m: NodeMessage) => m.type === 'done' && res(m.ran ?? 0));
      child.on('exit', (code) => code !== 0 && rej(new Error(`node exited with ${code}: ${stderr}`)));
    });
    child.on('message', (m: NodeMessage) => m.type === 'ready' && resolve({ child, go: () => child.send('go'), done }));
    child.on('exit', (code) => code !== 0 && reject(new Error(`node exited with ${code} before it was ready: ${stderr}`)));
  });
}

/** How many times each event ran, by report id, from the recorder's options (`ran_<report>_<pid>`), and the pids that ran them. */
export async function recordedRuns(db: Database): Promise<{ perEvent: Map<string, number>; pids: Set<string> }> {
  const rows = await db.select<{ option_name: string }>(`SELECT option_name FROM ${db.quote(db.table('options'))} WHERE option_name LIKE ?`, ['ran_%']);
  const perEvent = new Map<string, number>();
  for (const { option_name } of rows) {
    const report = option_name.split('_')[1]!;
    perEvent.set(report, (perEvent.get(report) ?? 0) + 1);
  }
  return { perEvent, pids: new Set(rows.map((r) => r.option_name.split('_')[2]!)) };
}
