import { Code, type CodeValue } from './codes.js';
import type { ReasonCode } from './reason-codes.js';

// Reason codes (API.md): every refusal carries one, dotted and lowercase. These are
// the generic ones, sent when a refusal has nothing more specific; a feature's own
// codes (`login.bad_credentials`, `upload.type_blocked`, …) keep their meaning once published.
export const GenericReason = {
  [Code.Unauthorized]: 'session.expired',
  [Code.Forbidden]: 'access.forbidden',
  [Code.NotFound]: 'object.not_found',
  [Code.Invalid]: 'input.invalid',
  [Code.TooMany]: 'rate.limited',
  [Code.AutoLoginRefused]: 'login.auto_refused',
  [Code.Internal]: 'server.internal',
} as const satisfies Partial<Record<CodeValue, string>>;

export function defaultReason(code: number): ReasonCode {
  return (GenericReason as Record<number, ReasonCode>)[code] ?? 'server.internal';
}

/** Field-level reasons for schema refusals, from the zod issue kind. */
export function fieldReason(kind: string | undefined): ReasonCode {
  switch (kind) {
    case 'too_big': return 'input.too_long';
    case 'too_small': return 'input.too_short';
    case 'invalid_type': return 'input.missing';
    case 'invalid_format': return 'input.format';
    case 'custom': return 'input.invalid';
    default: return 'input.invalid';
  }
}
