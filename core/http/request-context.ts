import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
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
 * Requests being served in a context. The context rides on Node's async hooks,
 * which tax every promise and callback of the process while the storage is
 * enabled, so it is disabled whenever no such request is under way: a busy
 * hit path pays for it only while an admin or REST request is being answered.
 */
let serving = 0;
const answered = () => {
  if (--serving === 0) storage.disable();
};

function serve<T>(served: Served, res: ServerResponse | undefined, fn: () => T): T {
  if (res) {
    serving++;
    res.once('close', answered);
  }
  return storage.run(served, fn);
}

/**
 * The request being served, on both stacks, for hook handlers whose documented
 * arguments do not carry it (`svc_verify_nonce`, `svc_share_link_permissions`,
 * `svc_menu`, location enrichment on `svc_before_track_hit`). Work a request
 * leaves running after its answer has no request.
 */
export const requestContext = {
  /** Runs `fn` for a request express serves. */
  run<T>(req: Request, fn: () => T): T {
    return serve({ headers: req.headers, express: req }, req.res, fn);
  },
  /** Runs `fn` for a request the hot path serves (no session, no express request). */
  runHot<T>(req: IncomingMessage, res: ServerResponse, fn: () => T): T {
    return serve({ headers: req.headers, express: undefined }, res, fn);
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
