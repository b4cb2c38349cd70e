import { Code, type CodeValue, NotFoundReasons, type NotFoundSubject, type ReasonCode } from '@mailwing/shared';

/**
 * A failure the client should see: becomes the envelope { code, error, reason } (API.md).
 * `extra.reason` is the stable machine code the client translates. It is required (issue 15):
 * a refusal names what went wrong, so the client can say it, rather than falling back to its
 * envelope code's generic words. The few deliberately generic ones pass the generic code
 * explicitly, and test/reason-sites.test.ts keeps a commented list of them.
 */
export class AppError extends Error {
  constructor(
    readonly code: CodeValue,
    readonly detail: string | Record<string, string> | string[],
    readonly extra: Record<string, unknown> & { reason: ReasonCode; reasons?: Record<string, ReasonCode> },
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }

  get reason(): ReasonCode {
    return this.extra.reason;
  }
}

// The same answer for "missing" and "not yours", so ids cannot be probed (API.md).
export const notFound = (what: NotFoundSubject = 'Mail') => new AppError(Code.NotFound, `${what} not found`, { reason: NotFoundReasons[what] });
export const invalid = (field: string, message: string, reason: ReasonCode) =>
  new AppError(Code.Invalid, { [field]: message }, { reason, reasons: { [field]: reason } });
export const unauthorized = () => new AppError(Code.Unauthorized, 'You are currently logged out. Please log in again.', { reason: 'session.expired' });
/** A call that carries no token at all (spec §8 "not logged in"), as opposed to one whose session ended. */
export const notLoggedIn = () => new AppError(Code.Unauthorized, 'Not logged in', { reason: 'session.missing' });
export const forbidden = (message: string, reason: ReasonCode) => new AppError(Code.Forbidden, message, { reason });
