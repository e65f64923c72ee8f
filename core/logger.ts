import pino, { type DestinationStream, type Logger } from 'pino';

export type SvcLogger = Logger;

export interface LoggerOptions {
  level?: string;
  /** Where JSON lines go; standard output by default. */
  destination?: DestinationStream;
}

/** Structured JSON logs, one line per event; plugins get a child bound to their name. */
export function createLogger(options: LoggerOptions = {}): SvcLogger {
  const level = options.level ?? process.env.SVC_LOG_LEVEL ?? 'info';
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['password', '*.password', 'req.headers.authorization', 'req.headers.cookie'], remove: true },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/** A logger that keeps entries in memory, for tests and for the CLI's quiet mode. */
export function createMemoryLogger(level = 'debug'): { logger: SvcLogger; entries: Array<Record<string, unknown>> } {
  const entries: Array<Record<string, unknown>> = [];
  const destination: DestinationStream = {
    write(line: string) {
      entries.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return { logger: createLogger({ level, destination }), entries };
}
