import type { Pop3Options } from './pop3-client.js';
import { Pop3Client } from './pop3-client.js';
import type { RemoteEndpoint } from './dial.js';
import type { RunResult, Sink } from './sink.js';
import { StoreWindow } from './window.js';

export interface Pop3Login { address: string; ep: RemoteEndpoint; user: string; pass: string; o: Pop3Options }

/** Logs in and asks STAT: the connection test. Returns how many messages wait there. */
export async function testPop3(l: Pop3Login): Promise<number> {
  const client = await Pop3Client.open(l.address, l.ep, l.user, l.pass, l.o);
  try {
    const { count } = await client.stat();
    await client.quit();
    return count;
  } finally {
    client.close();
  }
}

/**
 * One collection run. A message is DELEted only after its rows are committed; DELE
 * takes effect at QUIT (RFC 1939 §6). A run that dies before QUIT leaves the mail on
 * the server, and the next run finds its UIDL recorded and deletes it without storing it twice.
 */
export async function runPop3(l: Pop3Login, leaveCopy: boolean, sink: Sink): Promise<RunResult> {
  const client = await Pop3Client.open(l.address, l.ep, l.user, l.pass, l.o);
  const result: RunResult = { count: 0, bytes: 0 };
  try {
    const ids = await client.uidl();
    const known = await sink.knownUidls();
    const window = new StoreWindow<{ n: number; size: number }>();
    const settle = async () => {
      for (const [m, stored] of await window.flush()) {
        if (stored) {
          result.count += 1;
          result.bytes += m.size;
        }
        if (!leaveCopy) await client.dele(m.n);
      }
    };
    for (const [n, uidl] of ids) {
      if (known.has(uidl)) {
        if (!leaveCopy) await client.dele(n);
        continue;
      }
      const raw = await client.retr(n);
      window.add({ n, size: raw.length }, raw.length, sink.store(raw, { uidl }));
      if (window.full) await settle();
    }
    await settle();
    await client.quit();
    await sink.forgetUidls(new Set(ids.values()));
    return result;
  } finally {
    client.close();
  }
}
