import { copyFolder, withImap, type ImapLogin } from './imap-fetch.js';
import type { RunResult, Sink } from './sink.js';

export type { ImapLogin } from './imap-fetch.js';

// Collection over IMAP: the INBOX only, through the engine migration shares (imap-fetch.ts).

const FOLDER = 'INBOX';

/** Logs in and opens INBOX read-only: the connection test. */
export function testImap(l: ImapLogin): Promise<number> {
  return withImap(l, async (c) => (await c.mailboxOpen(FOLDER, { readOnly: true })).exists);
}

/** One collection run over INBOX. */
export function runImap(l: ImapLogin, leaveCopy: boolean, sink: Sink): Promise<RunResult> {
  return withImap(l, (c) => copyFolder(c, FOLDER, { leaveCopy, maxMessageBytes: l.o.maxMessageBytes }, sink));
}
