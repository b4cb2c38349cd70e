import { parentPort, workerData } from 'node:worker_threads';
import type { DNSResolver } from 'mailauth';
import type { BlobLocator } from '../../blob/blob-store.js';
import { openLocated } from '../../blob/blob-locator.js';
import { authResolver } from '../../smtp/auth-dns.js';
import { senderCheck, type AuthPeer } from '../../smtp/sender-auth.js';
import { contentTokens, type TokenSource } from '../search/content-tokens.js';
import type { WorkerDns } from './parse-pool.js';
import { parseMail } from './mail-parse.js';

// Runs mailparser and the sanitiser off the main thread (see parse-pool.ts). A big
// message comes as a locator and is read here, so its bytes never cross the main thread.
// The search indexer's tokenising runs here too, for the same reason, and so does sender
// authentication of a message held in memory (ParsePool.parseAndCheck).
type Task = { id: number; raw?: Uint8Array; loc?: BlobLocator; size: number; from: string; auth?: AuthPeer } | { id: number; tokens: TokenSource[] };

// The pool gives DNS settings only when it asks these workers to check senders.
const dns = (workerData as { dns?: WorkerDns } | null)?.dns;
const resolver: DNSResolver | undefined = dns && authResolver(dns.servers, dns.timeoutMs);
const checkSender = resolver && senderCheck(resolver);

parentPort?.on('message', (msg: Task) => {
  if ('tokens' in msg) {
    try {
      parentPort?.postMessage({ id: msg.id, tokens: msg.tokens.map((s) => contentTokens(s).join('\n')) });
    } catch (err) {
      parentPort?.postMessage({ id: msg.id, error: errorText(err) });
    }
    return;
  }
  const raw = msg.raw ? Buffer.from(msg.raw.buffer, msg.raw.byteOffset, msg.raw.byteLength) : null;
  const check = raw && msg.auth ? authenticate(raw, msg.auth) : null;
  parseMail(raw ?? openLocated(msg.loc!), msg.from, msg.size).then(
    (content) => {
      // Usually the sender's DNS answers are cached and its check is done by now: one message carries both.
      if (!check || check.answer) return parentPort?.postMessage({ id: msg.id, content, ...check?.answer });
      parentPort?.postMessage({ id: msg.id, content, authPending: true });
      void check.done.then((answer) => parentPort?.postMessage({ id: msg.id, ...answer }));
    },
    (err: unknown) => parentPort?.postMessage({ id: msg.id, error: errorText(err) }),
  );
});

type AuthAnswer = { auth: unknown } | { authError: string };

/** `answer` is set once the check is done. */
function authenticate(raw: Buffer, peer: AuthPeer): { answer?: AuthAnswer; done: Promise<AuthAnswer> } {
  const run = checkSender ? checkSender(raw, peer) : Promise.reject(new Error('no DNS settings for sender authentication'));
  const done = run.then((auth): AuthAnswer => ({ auth }), (err: unknown): AuthAnswer => ({ authError: errorText(err) }));
  const check: { answer?: AuthAnswer; done: Promise<AuthAnswer> } = { done };
  void done.then((answer) => { check.answer = answer; });
  return check;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
