import type { ErrorRequestHandler } from 'express';
import { SvcError, isSvcError } from '../errors';
import type { SvcLogger } from '../logger';
import { errorBody } from './envelope';
import { logUrl } from './log-url';

interface HttpLikeError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Maps anything thrown to a coded error; unknown failures become an opaque 500. */
export function toSvcError(err: unknown): SvcError {
  if (isSvcError(err)) return err;
  const e = (err ?? {}) as HttpLikeError;
  switch (e.type) {
    case 'entity.parse.failed':
      return new SvcError('svc_invalid_json', 'The request body is not valid JSON.', 400);
    case 'entity.too.large':
      return new SvcError('svc_payload_too_large', 'The request body is too large.', 413);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new SvcError('svc_unsupported_encoding', 'The request body encoding is not supported.', 415);
    case 'request.aborted':
      return new SvcError('svc_request_aborted', 'The request was aborted.', 400);
  }
  const status = e.status ?? e.statusCode;
  if (status && status >= 400 && status < 500 && e.expose) {
    return new SvcError('svc_bad_request', e.message ?? 'Bad request.', status);
  }
  return new SvcError('svc_internal_error', 'Something went wrong on the server; it has been logged.', 500);
}

/** Headers an error answer carries besides its body: `Retry-After` when the error says when to come back. */
export function errorHeaders(err: SvcError): Record<string, string> {
  return err.data && typeof err.data.retry_after === 'number' ? { 'Retry-After': String(err.data.retry_after) } : {};
}

/** JSON errors in the shape of docs/errors.md, for the REST namespaces. */
export function jsonErrorHandler(logger: SvcLogger): ErrorRequestHandler {
  return (err, req, res, next) => {
    const svcErr = toSvcError(err);
    if (svcErr.status >= 500) logger.error({ err, url: logUrl(req.originalUrl) }, 'request failed');
    if (res.headersSent) return next(err);
    res.status(svcErr.status).set(errorHeaders(svcErr)).json(errorBody(svcErr));
  };
}
