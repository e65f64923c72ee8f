import { parseArgs } from 'node:util';

/** Bad arguments: `svc` prints the message and the command's usage line, and exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  /** Values of the `--name value` options that were given. */
  values: Record<string, string | undefined>;
  positionals: string[];
}

/** Parses `--name value` options and `--flag` switches (given: `'true'`), and checks the number of positionals. */
export function parseCommandArgs(args: string[], options: readonly string[], positionals: { min: number; max: number }, flags: readonly string[] = []): ParsedArgs {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: {
        ...Object.fromEntries(options.map((name) => [name, { type: 'string' as const }])),
        ...Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const }])),
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length < positionals.min) throw new UsageError('missing arguments');
  if (parsed.positionals.length > positionals.max) throw new UsageError(`unexpected argument ${parsed.positionals[positionals.max]}`);
  const values = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, v === true ? 'true' : (v as string | undefined)]));
  return { values, positionals: parsed.positionals };
}

/** Parses one JSON argument; a bare word that is not JSON is refused rather than guessed. */
export function parseJsonArg(raw: string, what: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new UsageError(`${what} is not JSON: ${raw.slice(0, 80)} (quote strings, e.g. '"text"')`);
  }
}
