/**
 * Coded errors. Domain code throws them; the HTTP layer maps them once to
 * `{ success: false, code, message }` with `status` (docs/errors.md).
 */
export class SvcError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SvcError';
  }
}

export const badRequest = (message: string, code = 'svc_invalid_param', data?: Record<string, unknown>) =>
  new SvcError(code, message, 400, data);

export const unauthorized = (message = 'You are not signed in.', code = 'svc_not_logged_in') =>
  new SvcError(code, message, 401);

export const forbidden = (message = 'Sorry, you are not allowed to do that.', code = 'svc_forbidden') =>
  new SvcError(code, message, 403);

export const notFound = (message = 'No route was found matching the URL and request method.', code = 'svc_no_route') =>
  new SvcError(code, message, 404);

export const conflict = (message: string, code = 'svc_conflict') => new SvcError(code, message, 409);

export const tooManyRequests = (message: string, code = 'svc_rate_limited', retryAfter?: number) =>
  new SvcError(code, message, 429, retryAfter === undefined ? undefined : { retry_after: retryAfter });

export const unavailable = (message: string, code = 'svc_unavailable') => new SvcError(code, message, 503);

export function isSvcError(err: unknown): err is SvcError {
  return err instanceof SvcError;
}

/** A short, single-line description of any thrown value, for logs and operator messages. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { original?: unknown; parent?: unknown }).original ?? (err as { parent?: unknown }).parent;
    const base = err.message || err.name;
    return cause instanceof Error && cause.message && !base.includes(cause.message) ? `${base}: ${cause.message}` : base;
  }
  return String(err);
}
