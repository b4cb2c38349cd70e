import { Code, type CodeValue } from '@mailwing/shared';

/** A failure the client should see: becomes the envelope { code, error } (API.md). */
export class AppError extends Error {
  constructor(
    readonly code: CodeValue,
    readonly detail: string | Record<string, string> | string[],
    readonly extra?: Record<string, unknown>,
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }
}

// The same answer for "missing" and "not yours", so ids cannot be probed (API.md).
export const notFound = (what = 'Mail') => new AppError(Code.NotFound, `${what} not found`);
export const invalid = (field: string, message: string) => new AppError(Code.Invalid, { [field]: message });
export const unauthorized = () => new AppError(Code.Unauthorized, 'You are currently logged out. Please log in again.');
export const forbidden = (message = 'You are not allowed to do this') => new AppError(Code.Forbidden, message);
