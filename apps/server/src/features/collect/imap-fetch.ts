import { rootCertificates } from 'node:tls';
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { classify, CollectError } from './collect-error.js';
import type { DialOptions, RemoteEndpoint } from './dial.js';
import { fingerprintOf } from './fingerprint.js';
import type { FolderSink, RunResult } from './sink.js';
import { StoreWindow } from './window.js';

// The IMAP fetch engine that collection (one INBOX, every few minutes) and migration
// (every folder of a mailbox, once and then as deltas) share: the login, the UID and
// fingerprint bookkeeping, and the store windows with group commit.

export interface ImapLogin { address: string; ep: RemoteEndpoint; user: string; pass: string; o: DialOptions & { maxMessageBytes: number } }

function client(l: ImapLogin): ImapFlow {
  const servername = /^[\d.:[\]]+$/.test(l.ep.host) ? undefined : l.ep.host;
  const opts: ImapFlowOptions & { doSTARTTLS: boolean } = {
    host: l.address, port: l.ep.port, secure: l.ep.tls === 'tls', doSTARTTLS: l.ep.tls === 'starttls', servername,
    auth: { user: l.user, pass: l.pass }, logger: false, disableAutoIdle: true, disableCompression: true,
    // Our extra CAs join Node's public ones rather than replace them.
    tls: { servername, ca: l.o.ca ? [...rootCertificates, l.o.ca] : undefined, rejectUnauthorized: true },
    connectionTimeout: l.o.timeoutMs, greetingTimeout: l.o.timeoutMs, socketTimeout: l.o.timeoutMs,
  };
  const c = new ImapFlow(opts);
  // Without a listener an 'error' event would end the process; the awaited call reports it.
  c.on('error', () => undefined);
  return c;
}

/** Logs in, runs `work`, logs out; any failure comes out classified (collect-error.ts). */
export async function withImap<T>(l: ImapLogin, work: (c: ImapFlow) => Promise<T>): Promise<T> {
  const c = client(l);
  try {
    await c.connect();
    const out = await work(c);
    await c.logout();
    return out;
  } catch (err) {
    throw classify(err);
  } finally {
    c.close();
  }
}

export interface CopyOptions {
  /** Collection may delete what it stored; migration never does. */
  leaveCopy: boolean;
  maxMessageBytes: number;
  /** Called once the new candidates are known, with their number and total size. */
  onPlan?: (messages: number, bytes: number) => Promise<void>;
  /** Called after each stored window with the totals so far (copied and looked at). */
  onProgress?: (done: RunResult & { processed: number; processedBytes: number }) => Promise<void>;
  /** Checked before each download: an aborted run stops there, as a kill would, and resumes later without duplicates. */
  signal?: AbortSignal;
}

/**
 * One run over one folder. Within one UIDVALIDITY only UIDs above the last stored one are
 * new. When UIDVALIDITY changed (RFC 9051 §2.3.1.1: the old UIDs mean nothing now),
 * every message is a candidate and the fingerprints keep known ones from coming in twice.
 */
export async function copyFolder(c: ImapFlow, folder: string, o: CopyOptions, sink: FolderSink): Promise<RunResult> {
  const box = await c.mailboxOpen(folder, { readOnly: o.leaveCopy });
  const uidvalidity = Number(box.uidValidity);
  const state = await sink.imapState(folder);
  const same = state?.uidvalidity === uidvalidity;
  const result: RunResult = { count: 0, bytes: 0 };
  let processed = 0;
  let processedBytes = 0;
  // Mail stored in an earlier run that died before it could remove it.
  if (!o.leaveCopy && same && state.last_uid > 0 && box.exists > 0) await c.messageDelete(`1:${state.last_uid}`, { uid: true });
  if (box.exists === 0) {
    await o.onPlan?.(0, 0);
    return result;
  }
  const from = same ? state.last_uid + 1 : 1;
  const candidates: { uid: number; size: number; hint: string | null; seen: boolean }[] = [];
  for await (const m of c.fetch(`${from}:*`, { uid: true, size: true, envelope: true, flags: true }, { uid: true })) {
    if (m.uid >= from) candidates.push({ uid: m.uid, size: m.size ?? 0, hint: fingerprintOf(m.envelope?.messageId, m.size ?? 0), seen: !!m.flags?.has('\\Seen') });
  }
  candidates.sort((a, b) => a.uid - b.uid);
  await o.onPlan?.(candidates.length, candidates.reduce((n, m) => n + m.size, 0));
  const seen = await sink.seen(candidates.flatMap((m) => (m.hint ? [m.hint] : [])));
  const window = new StoreWindow<{ uid: number; size: number }>();
  // The last UID moves only past a window stored in full: a crash mid-window leaves it
  // below every mail of the window, and the next run finds the stored ones by fingerprint.
  const settle = async () => {
    const done = await window.flush();
    for (const [m, stored] of done) {
      processed += 1;
      processedBytes += m.size;
      if (stored) {
        result.count += 1;
        result.bytes += m.size;
      }
    }
    if (done.length === 0) return;
    const uids = done.map(([m]) => m.uid);
    if (!o.leaveCopy) await c.messageDelete(uids.join(','), { uid: true });
    await sink.advance(folder, uidvalidity, Math.max(...uids));
    await o.onProgress?.({ ...result, processed, processedBytes });
  };
  try {
    for (const m of candidates) {
      o.signal?.throwIfAborted();
      if (m.hint && seen.has(m.hint)) window.add({ uid: m.uid, size: m.size }, 0, sink.skip(m.hint, {}).then(() => false));
      else {
        if (m.size > o.maxMessageBytes) throw new CollectError('protocol', `UID ${m.uid} is ${m.size} bytes, over the limit`);
        const msg = await c.fetchOne(String(m.uid), { source: true }, { uid: true });
        if (!msg || !msg.source) throw new CollectError('protocol', `UID ${m.uid} vanished while being fetched`);
        window.add({ uid: m.uid, size: msg.source.length }, msg.source.length, sink.store(msg.source, { seen: m.seen }));
      }
      if (window.full) await settle();
    }
  } catch (err) {
    // Stores already started finish (or fail) before the run reports: none is cut off mid-commit.
    await window.flush().catch(() => undefined);
    throw err;
  }
  await settle();
  return result;
}
