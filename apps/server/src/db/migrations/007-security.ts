import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Second verification (issue 7): the last accepted authenticator step, so a code
// seen once (over a shoulder, in a proxy log) cannot be replayed within its
// ±1-step window (RFC 6238 §5.2).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE users ADD COLUMN totp_last_step bigint;
`);
}
