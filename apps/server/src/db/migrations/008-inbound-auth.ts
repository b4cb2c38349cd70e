import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Inbound sender authentication (issue 12): what SPF, DKIM and DMARC said about a
// mail that came in through MX, kept with each mailbox's copy so the read page can
// warn about outside or forged senders. NULL means the mail never crossed MX
// (local delivery between our own users, bounces, system mail, or older mail).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
ALTER TABLE messages ADD COLUMN auth_results jsonb;
`);
}
