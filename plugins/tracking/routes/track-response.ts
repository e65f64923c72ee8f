import { describeError, isSvcError, type SvcLogger, unavailable } from '../../../core';
import type { TrackResult } from '../collect/tracker';

/** A recorded or dropped hit answers 200; the drop reason shows in debug mode only. */
export function trackResponse(result: TrackResult, debug: boolean): Record<string, unknown> {
  if (result.recorded || !debug) return { success: true };
  return { success: true, outcome: result.outcome };
}

/** The pipeline's coded errors pass through; anything else (the database is down) is a 503, logged once. */
export function asTrackingError(err: unknown, logger: SvcLogger): unknown {
  // The pipeline's own refusals pass through; a kernel fault (SVC_ERR_*, e.g. a COMMIT whose answer was lost) is the database's.
  if (isSvcError(err) && !err.code.startsWith('SVC_ERR_')) return err;
  logger.error({ err }, `hit not recorded: ${describeError(err)}`);
  return unavailable('The hit could not be recorded right now; try again later.', 'svc_tracking_unavailable');
}
