import { SvcError, describeError } from './errors';
import { Kernel } from './kernel';

/** `npm start`: boot, serve, and stop cleanly on SIGINT/SIGTERM. Operator errors are one line and exit 1. */
export async function serve(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let kernel: Kernel;
  try {
    kernel = await Kernel.boot({ env });
  } catch (err) {
    process.stderr.write(`svc: ${err instanceof SvcError ? err.message : describeError(err)}\n`);
    process.exit(1);
  }
  const url = await kernel.listen();
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
