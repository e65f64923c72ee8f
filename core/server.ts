import { applyEnvFiles } from './env-file';
import { SvcError, describeError } from './errors';
import { Kernel } from './kernel';

/** One line for an operator: coded errors say what to fix; a busy port names the PORT variable, a foreign address HOST. */
function operatorMessage(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const port = (err as { port?: unknown }).port;
    return `cannot listen on port ${String(port)} (${code === 'EADDRINUSE' ? 'already in use' : 'permission denied'}); set PORT to another port`;
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    const { address, hostname } = err as { address?: string; hostname?: string };
    return `cannot listen on HOST ${address ?? hostname}: not an address of this machine`;
  }
  return err instanceof SvcError ? err.message : describeError(err);
}

/** The start-up line: where the server really answers, and the public address links use when it differs. */
function listeningLine(kernel: Kernel): string {
  const where = kernel.listening()!;
  const admin = where.urls.map((u) => `${u}/svc-admin/`).join(', ');
  const base = kernel.config.baseUrl;
  const links = where.urls.includes(base) ? '' : `; links in mails and snippets use SVC_BASE_URL ${base}`;
  return `svc listening on ${where.scope}, port ${where.port}: ${admin}${links}`;
}

/**
 * `npm start`: read the `.env` files, boot, serve, and stop cleanly on
 * SIGINT/SIGTERM. Operator errors are one line and exit 1.
 */
export async function serve(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let kernel: Kernel;
  let envFiles: string[];
  try {
    envFiles = applyEnvFiles(env);
    kernel = await Kernel.boot({ env });
  } catch (err) {
    process.stderr.write(`svc: ${operatorMessage(err)}\n`);
    process.exit(1);
  }
  try {
    await kernel.listen();
  } catch (err) {
    process.stderr.write(`svc: ${operatorMessage(err)}\n`);
    await kernel.stop().catch(() => undefined);
    process.exit(1);
  }
  const where = kernel.listening()!;
  kernel.logger.info({ url: kernel.config.baseUrl, listen: where.urls, host: kernel.config.host, port: where.port, envFiles }, listeningLine(kernel));
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
