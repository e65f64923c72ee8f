import { SvcError, describeError } from './errors';
import { Kernel } from './kernel';

/** One line for an operator: coded errors say what to fix; a busy port names the PORT variable. */
function operatorMessage(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const port = (err as { port?: unknown }).port;
    return `cannot listen on port ${String(port)} (${code === 'EADDRINUSE' ? 'already in use' : 'permission denied'}); set PORT to another port`;
  }
  return err instanceof SvcError ? err.message : describeError(err);
}

/** `npm start`: boot, serve, and stop cleanly on SIGINT/SIGTERM. Operator errors are one line and exit 1. */
export async function serve(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let kernel: Kernel;
  let url: string;
  try {
    kernel = await Kernel.boot({ env });
  } catch (err) {
    process.stderr.write(`svc: ${operatorMessage(err)}\n`);
    process.exit(1);
  }
  try {
    url = await kernel.listen();
  } catch (err) {
    process.stderr.write(`svc: ${operatorMessage(err)}\n`);
    await kernel.stop().catch(() => undefined);
    process.exit(1);
  }
  kernel.logger.info({ url: kernel.config.baseUrl, bound: url }, `svc listening on ${kernel.config.baseUrl}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    kernel.logger.info({ signal }, 'stopping');
    kernel.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`svc: ${describeError(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) void serve();
