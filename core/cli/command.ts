/** Output channels of a CLI command. */
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  /** A progress line for long work (overwritten in place on a terminal). */
  progress(done: number, total: number, label?: string): void;
}

/** A `svc <name>` command; plugins add theirs through `ctx.cli.command`. */
export interface CliCommand {
  name: string;
  /** One line for `svc help`. */
  summary: string;
  /** Argument synopsis, e.g. `[--days N] [--visitors N]`. */
  usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[], io: CliIO): Promise<number>;
}
