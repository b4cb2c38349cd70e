import { rootCertificates } from 'node:tls';
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { classify, CollectError } from './collect-error.js';
import type { DialOptions, RemoteEndpoint } from './dial.js';
import { fingerprintOf } from './fingerprint.js';
import type { RunResult, Sink } from './sink.js';
import { StoreWindow } from './window.js';

export interface ImapLogin { address: string; ep: RemoteEndpoint; user: string; pass: string; o: DialOptions & { maxMessageBytes: number } }

const FOLDER = 'INBOX';

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

async function connected<T>(l: ImapLogin, work: (c: ImapFlow) => Promise<T>): Promise<T> {
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

/** Logs in and opens INBOX read-only: the connection test. */
export function testImap(l: ImapLogin): Promise<number> {
  return connected(l, async (c) => (await c.mailboxOpen(FOLDER, { readOnly: true })).exists);
}

/**
 * One run over INBOX. Within one UIDVALIDITY only UIDs above the last stored one are
 * new. When UIDVALIDITY changed (RFC 9051 §2.3.1.1: the old UIDs mean nothing now),
 * every message is a candidate and the fingerprints keep known ones from coming in twice.
 */
export function runImap(l: ImapLogin, leaveCopy: boolean, sink: Sink): Promise<RunResult> {
  return connected(l, async (c) => {
    const box = await c.mailboxOpen(FOLDER, { readOnly: leaveCopy });
    const uidvalidity = Number(box.uidValidity);
    const state = await sink.imapState(FOLDER);
    const same = state?.uidvalidity === uidvalidity;
    const result: RunResult = { count: 0, bytes: 0 };
    // Mail stored in an earlier run that died before it could remove it.
    if (!leaveCopy && same && state.last_uid > 0 && box.exists > 0) await c.messageDelete(`1:${state.last_uid}`, { uid: true });
    if (box.exists === 0) return result;
    const from = same ? state.last_uid + 1 : 1;
    const candidates: { uid: number; size: number; hint: string | null }[] = [];
    for await (const m of c.fetch(`${from}:*`, { uid: true, size: true, envelope: true }, { uid: true })) {
      if (m.uid >= from) candidates.push({ uid: m.uid, size: m.size ?? 0, hint: fingerprintOf(m.envelope?.messageId, m.size ?? 0) });
    }
    candidates.sort((a, b) => a.uid - b.uid);
    const seen = await sink.seen(candidates.flatMap((m) => (m.hint ? [m.hint] : [])));
    const window = new StoreWindow<{ uid: number; size: number }>();
    // The last UID moves only past a window stored in full: a crash mid-window leaves it
    // below every mail of the window, and the next run finds the stored ones by fingerprint.
    const settle = async () => {
      const done = await window.flush();
      for (const [m, stored] of done) {
        if (stored) {
          result.count += 1;
          result.bytes += m.size;
        }
      }
      if (done.length === 0) return;
      const uids = done.map(([m]) => m.uid);
      if (!leaveCopy) await c.messageDelete(uids.join(','), { uid: true });
      await sink.advance(FOLDER, uidvalidity, Math.max(...uids));
    };
    for (const m of candidates) {
      if (m.hint && seen.has(m.hint)) window.add({ uid: m.uid, size: 0 }, 0, sink.skip(m.hint, {}).then(() => false));
      else {
        if (m.size > l.o.maxMessageBytes) throw new CollectError('protocol', `UID ${m.uid} is ${m.size} bytes, over the limit`);
        const msg = await c.fetchOne(String(m.uid), { source: true }, { uid: true });
        if (!msg || !msg.source) throw new CollectError('protocol', `UID ${m.uid} vanished while being fetched`);
        window.add({ uid: m.uid, size: msg.source.length }, msg.source.length, sink.store(msg.source, {}));
      }
      if (window.full) await settle();
    }
    await settle();
    return result;
  });
}
