import { SvcError } from '../errors';

/** The success envelope of the data endpoints (reports §4, ecommerce §2). */
export function ok<T>(data: T): { data: T; request_success: true; success: true } {
  return { data, request_success: true, success: true };
}

/** The error shape of docs/errors.md. */
export function errorBody(err: SvcError): { success: false; code: string; message: string; data?: Record<string, unknown> } {
  return err.data ? { success: false, code: err.code, message: err.message, data: err.data } : { success: false, code: err.code, message: err.message };
}
