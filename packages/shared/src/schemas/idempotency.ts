import { z } from 'zod';

// Idempotency keys (issue 15, scope 3). Any signed-in POST may carry the header below; the
// offline client's outbox (write/send) and action queue (mailop/read, star, move, delete) always
// do. The same key with the same body from the same user returns the first answer, with the
// response header `Idempotent-Replayed: true`, and runs nothing again. Refusals:
//   idempotency.bad_key      (422) the key is not 1–200 printable ASCII characters
//   idempotency.key_reused   (422) the key was used for a different request (another body or path)
//   idempotency.in_progress  (429, Retry-After) the first request with this key is still running

/** The request header's name, as the IETF draft names it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,200}$/).describe(
  'Makes this POST safe to retry: the same key and body from the same user within 24 hours returns the first answer '
  + '(response header Idempotent-Replayed: true) and does nothing again. Another body with the same key is refused with idempotency.key_reused.',
);
