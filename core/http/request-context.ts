import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { ANONYMOUS, type Principal } from '../auth/types';
import type { Site } from '../sites/types';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Who is calling, resolved once per request by the kernel. */
      principal?: Principal;
      /** The site a REST route serves (its `site` argument), set by the kernel before the handler. */
      site?: Site;
    }
  }
}

/** The request being served: by express, or by the hot path of a hot route (then anonymous). */
interface Served {
  headers: IncomingHttpHeaders;
  express: Request | undefined;
}

const storage = new AsyncLocalStorage<Served>();

/**
 * The request being served, on both stacks, for hook handlers whose documented
 * arguments do not carry it (`svc_verify_nonce`, `svc_share_link_permissions`,
 * `svc_menu`, location enrichment on `svc_before_track_hit`).
 */
export const requestContext = {
  /** Runs `fn` for a request express serves. */
  run<T>(req: Request, fn: () => T): T {
    return storage.run({ headers: req.headers, express: req }, fn);
  },
  /** Runs `fn` for a request the hot path serves (no session, no express request). */
  runHot<T>(req: IncomingMessage, fn: () => T): T {
    return storage.run({ headers: req.headers, express: undefined }, fn);
  },
  /** The express request, when express serves the current one. */
  current(): Request | undefined {
    return storage.getStore()?.express;
  },
  /** The headers of the request being served, whichever stack serves it. */
  headers(): IncomingHttpHeaders | undefined {
    return storage.getStore()?.headers;
  },
  principal(): Principal {
    return storage.getStore()?.express?.principal ?? ANONYMOUS;
  },
};
