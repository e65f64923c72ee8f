import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request } from 'express';
import { ANONYMOUS, type Principal } from '../auth/types';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Who is calling, resolved once per request by the kernel. */
      principal?: Principal;
    }
  }
}

const storage = new AsyncLocalStorage<Request>();

/**
 * The request being served, for hook handlers whose documented arguments do not
 * carry it (`svc_verify_nonce`, `svc_share_link_permissions`, `svc_menu`).
 */
export const requestContext = {
  run<T>(req: Request, fn: () => T): T {
    return storage.run(req, fn);
  },
  current(): Request | undefined {
    return storage.getStore();
  },
  principal(): Principal {
    return storage.getStore()?.principal ?? ANONYMOUS;
  },
};
