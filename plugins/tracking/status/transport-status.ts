import type { Clock, Options, SvcConfig, SvcLogger } from '../../../core';

/** tracking.md §2.7. */
export interface TransportStatus {
  status: 'rest' | 'beacon' | 'error';
  /** Unix time of the last successful test hit, 0 if none. */
  last_test: number;
}

export const STATUS_OPTION = 'svc_tracking_status';
const TIMEOUT_MS = 5_000;

/**
 * The active transport, from a self-test: a test hit to the REST endpoint,
 * else to the beacon endpoint, over HTTP at `SVC_BASE_URL` (neither records
 * anything). Stored in `svc_tracking_status`; tested daily and on demand.
 */
export class TransportStatusService {
  constructor(private readonly deps: { options: Options; clock: Clock; config: SvcConfig; logger: SvcLogger }) {}

  async get(): Promise<TransportStatus> {
    const stored = await this.deps.options.get<TransportStatus>(STATUS_OPTION);
    return stored ?? this.test();
  }

  async test(): Promise<TransportStatus> {
    const { config, options, clock, logger } = this.deps;
    const previous = await options.get<TransportStatus>(STATUS_OPTION);
    let status: TransportStatus = { status: 'error', last_test: previous?.last_test ?? 0 };
    if (await this.probe(`${config.apiBase}/track`, JSON.stringify({ request: 'test' }), 'application/json', (body) => body.includes('"success":"test"'))) {
      status = { status: 'rest', last_test: clock.unix() };
    } else if (await this.probe(`${config.baseUrl}/svc/endpoint`, 'request=test', 'text/plain', () => true)) {
      status = { status: 'beacon', last_test: clock.unix() };
    } else {
      logger.warn({ apiBase: config.apiBase }, 'tracking self-test failed on both transports');
    }
    await options.set(STATUS_OPTION, status, { autoload: false });
    return status;
  }

  private async probe(url: string, body: string, type: string, accept: (body: string) => boolean): Promise<boolean> {
    try {
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': type }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      return res.status === 200 && accept(await res.text());
    } catch (err) {
      this.deps.logger.debug({ err, url }, 'tracking self-test request failed');
      return false;
    }
  }
}
