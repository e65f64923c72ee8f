import pino from 'pino';
import type { Clock } from '../clock';
import type { SvcConfig } from '../config';
import { Kernel } from '../kernel';
import { type SvcLogger, createLogger } from '../logger';
import type { CliIO } from './command';

/** What every command runs with: the server's environment, its configuration and the output channels. */
export interface CliRuntime {
  env: NodeJS.ProcessEnv;
  config: SvcConfig;
  io: CliIO;
  logger: SvcLogger;
  /** Where commands read typed secrets from (a terminal prompts, a pipe is read). */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where prompts go. */
  prompts: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Logs go to stderr, warnings and worse unless `SVC_LOG_LEVEL` says otherwise, so stdout carries only results. */
export function cliLogger(env: NodeJS.ProcessEnv): SvcLogger {
  return createLogger({ level: env.SVC_LOG_LEVEL || 'warn', destination: pino.destination({ dest: 2, sync: true }) });
}

/** Boots the kernel without listening, runs `work`, and stops the kernel whatever happens. */
export async function withKernel<T>(rt: CliRuntime, work: (kernel: Kernel) => Promise<T>, options: { clock?: Clock } = {}): Promise<T> {
  const kernel = await Kernel.boot({ config: rt.config, env: rt.env, logger: rt.logger, clock: options.clock, announce: rt.io.out });
  try {
    return await work(kernel);
  } finally {
    await kernel.stop();
  }
}

/** A built-in `svc` command. */
export interface CoreCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], rt: CliRuntime): Promise<number>;
}
