import { loadConfig } from '../config';
import { applyEnvFiles } from '../env-file';
import { SvcError, describeError } from '../errors';
import { UsageError } from './args';
import type { CliIO } from './command';
import { actionCommand } from './commands/action';
import { appPasswordCommand } from './commands/app-password';
import { cronCommand } from './commands/cron';
import { migrateCommand } from './commands/migrate';
import { optionCommand } from './commands/option';
import { siteCommand } from './commands/site';
import { userCommand } from './commands/user';
import { type OutputStreams, createIO } from './io';
import { type CliRuntime, type CoreCommand, cliLogger, withKernel } from './runtime';

export { UsageError } from './args';

const CORE_COMMANDS: readonly CoreCommand[] = [migrateCommand, userCommand, appPasswordCommand, cronCommand, optionCommand, actionCommand, siteCommand];

export interface MainOptions extends Partial<OutputStreams> {
  /** Typed secrets; `process.stdin` by default. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The server's environment; by default `process.env`, filled from the `.env` files as the server does. */
  env?: NodeJS.ProcessEnv;
}

const synopsis = (c: { name: string; usage: string }) => `svc ${c.name} ${c.usage}`.trimEnd();

/**
 * Maps a failure to an exit code: bad arguments print the message and the
 * usage line and give 2; operator errors (configuration, database) print one
 * line and give 1. Stack traces appear only with SVC_DEBUG.
 */
function fail(err: unknown, io: CliIO, usage: string, debug: boolean): number {
  if (err instanceof UsageError || (err instanceof SvcError && err.status === 400)) {
    io.err(`svc: ${err.message}`);
    io.err(`usage: ${usage}`);
    return 2;
  }
  io.err(`svc: ${err instanceof SvcError ? err.message : describeError(err)}`);
  if (debug && err instanceof Error && !(err instanceof SvcError) && err.stack) io.err(err.stack);
  return 1;
}

async function help(env: NodeJS.ProcessEnv, io: CliIO): Promise<number> {
  const rows: Array<[string, string]> = [['svc help', 'this list'], ...CORE_COMMANDS.map((c): [string, string] => [synopsis(c), c.summary])];
  try {
    const config = loadConfig(env);
    await withKernel({ env, config, io, logger: cliLogger(env), stdin: process.stdin, prompts: process.stderr }, async (kernel) => {
      for (const c of kernel.commands.values()) rows.push([synopsis(c), c.summary]);
    });
  } catch (err) {
    io.err(`(plugin commands are not listed: ${err instanceof SvcError ? err.message : describeError(err)})`);
  }
  const width = Math.min(40, Math.max(...rows.map(([s]) => s.length)));
  io.out('usage: svc <command> [arguments]   (same environment as the server, see README)');
  io.out('');
  for (const [s, summary] of rows) io.out(s.length > width ? `  ${s}\n  ${' '.repeat(width)}  ${summary}` : `  ${s.padEnd(width)}  ${summary}`);
  return 0;
}

/** Runs a command plugins added through `ctx.cli.command`, on a booted kernel. */
function runPluginCommand(name: string, args: string[], rt: CliRuntime): Promise<number> {
  return withKernel(rt, async (kernel) => {
    const command = kernel.commands.get(name);
    if (!command) throw new UsageError(`unknown command ${name}`);
    try {
      return await command.run(args, rt.io);
    } catch (err) {
      return fail(err, rt.io, synopsis(command), rt.config.debug);
    }
  });
}

/** `svc <command> [arguments]` (bin/svc.js); resolves to the exit code and never rejects. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const io = createIO({ stdout: options.stdout ?? process.stdout, stderr: options.stderr ?? process.stderr });
  const [name, ...args] = argv;
  if (!options.env) {
    try {
      applyEnvFiles(env);
    } catch (err) {
      return fail(err, io, 'svc help', false);
    }
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return help(env, io);
  const core = CORE_COMMANDS.find((c) => c.name === name);
  const usage = core ? synopsis(core) : 'svc help';
  try {
    const config = loadConfig(env);
    const rt: CliRuntime = { env, config, io, logger: cliLogger(env), stdin: options.stdin ?? process.stdin, prompts: options.stderr ?? process.stderr };
    return await (core ? core.run(args, rt) : runPluginCommand(name, args, rt));
  } catch (err) {
    return fail(err, io, usage, /^(1|true|yes|on)$/i.test(env.SVC_DEBUG ?? ''));
  }
}
