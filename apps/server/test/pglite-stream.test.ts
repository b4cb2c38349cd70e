import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { PGliteStream } from '../src/db/pglite-stream.js';

// The embedded database's socket (db/pglite-stream.ts): bytes reach PGlite only where a server
// would answer (Sync, Query, Flush, Terminate, the startup packet), however they were cut into
// writes. Issue 13: a corked pipeline's messages are gathered and joined once instead of being
// re-copied as each arrived. These write the wire protocol to a real PGlite in different cuts and
// compare what comes back, and what PGlite was handed, with the same bytes written whole.

let lite: PGlite;
// Every hand-over to the backend, in bytes, as PGliteStream made it.
const handed: number[] = [];

beforeAll(async () => {
  lite = new PGlite();
  await lite.waitReady;
  const raw = lite.execProtocolRaw.bind(lite);
  lite.execProtocolRaw = (bytes, opts) => {
    handed.push(bytes.length);
    return raw(bytes, opts);
  };
}, 60_000);
afterAll(async () => {
  await lite.close();
});

const startup = serialize.startup({ user: 'postgres', database: 'postgres' });
// A pipeline like a delivery batch's: one big parameter, then Describe, Execute and Sync. Unnamed:
// PGlite has one session, which every stream here shares.
const big = 'x'.repeat(70_000) + 'é';
const pipeline = () => Buffer.concat([
  serialize.parse({ name: '', text: 'SELECT length($1::text) AS n, $2::int + 1 AS m', types: [] }),
  serialize.bind({ statement: '', values: [big, '41'] }),
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
]);
const query = serialize.query('SELECT 7 AS seven');

/**
 * A new connection (its startup packet answered first, as pg waits for that answer before it
 * sends anything else: PGlite takes a startup packet only on its own), then `parts` written one
 * write each; resolves with what came back after the startup once `replies` ReadyForQuery have.
 */
async function exchange(parts: Buffer[], replies: number, viaCork = false): Promise<Buffer> {
  const stream = new PGliteStream(lite);
  const got: Buffer[] = [];
  stream.on('data', (b: Buffer) => got.push(b));
  const ready = () => messages(Buffer.concat(got)).filter((m) => m.type === 'Z').length;
  const until = async (n: number) => {
    for (let i = 0; i < 500 && ready() < n; i++) await new Promise((r) => setTimeout(r, 10));
  };
  stream.write(startup);
  await until(1);
  got.length = 0;
  handed.length = 0;
  if (viaCork) stream.cork();
  for (const p of parts) stream.write(p);
  if (viaCork) stream.uncork();
  await until(replies);
  stream.end();
  return Buffer.concat(got);
}

/** The reply's messages by type byte, with their bodies; ParameterStatus and BackendKeyData (which vary with the session's history) left out. */
function messages(b: Buffer): { type: string; body: string }[] {
  const out: { type: string; body: string }[] = [];
  for (let at = 0; at + 5 <= b.length;) {
    const len = b.readInt32BE(at + 1);
    const type = String.fromCharCode(b[at]!);
    if (type !== 'K' && type !== 'S') out.push({ type, body: b.subarray(at + 5, at + 1 + len).toString('latin1') });
    at += 1 + len;
  }
  return out;
}

/** `bytes` cut at `cuts` (offsets, ascending). */
const cut = (bytes: Buffer, cuts: number[]) => [0, ...cuts].map((c, i) => bytes.subarray(c, cuts[i] ?? bytes.length));

describe('PGliteStream', () => {
  const whole = Buffer.concat([query, pipeline(), query]);
  const ends = [query.length, query.length + pipeline().length, whole.length];
  let expected: { type: string; body: string }[];

  it('written whole: one hand-over, the query answered and the pipeline run', async () => {
    expected = messages(await exchange([whole], 3));
    expect(handed).toEqual([whole.length]);
    const rows = expected.filter((m) => m.type === 'D').map((m) => m.body);
    expect(rows).toHaveLength(3);
    // length(big) counts characters; $2 + 1.
    expect(rows[1]).toContain(String(big.length));
    expect(rows[1]).toContain('42');
    expect(expected.filter((m) => m.type === 'E')).toEqual([]);
  });

  it('cut anywhere, even inside a message header, it answers the same and hands over only where a reply is due', async () => {
    // Inside the query's type byte + length, inside the Parse's header, inside the big Bind, inside Sync, just after it.
    const cuts = [3, query.length + 1, query.length + 40, query.length + 30_000, ends[1]! - 2, ends[1]! + 1];
    for (const viaCork of [false, true]) {
      expect(messages(await exchange(cut(whole, cuts), 3, viaCork))).toEqual(expected);
      // Each hand-over ends where a reply is due; none splits a message.
      const at = handed.reduce<number[]>((acc, n) => [...acc, (acc.at(-1) ?? 0) + n], []);
      expect(at.every((x) => ends.includes(x))).toBe(true);
      expect(at.at(-1)).toBe(whole.length);
    }
  });

  it('one byte per write: the same answers, handed over message by message', async () => {
    const bytes = Buffer.concat([query, query]);
    const two = messages(await exchange([bytes], 2));
    expect(messages(await exchange(cut(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)), 2))).toEqual(two);
    expect(handed).toEqual([query.length, query.length]);
  });

  it('a pipeline without its Sync waits for it', async () => {
    const p = pipeline();
    const stream = new PGliteStream(lite);
    const got: Buffer[] = [];
    stream.on('data', (b: Buffer) => got.push(b));
    await new Promise<void>((r) => stream.write(startup, () => r()));
    handed.length = 0;
    await new Promise<void>((r) => stream.write(p.subarray(0, p.length - 5), () => r()));
    expect(handed).toEqual([]);
    await new Promise<void>((r) => stream.write(p.subarray(p.length - 5), () => r()));
    expect(handed).toEqual([p.length]);
    expect(messages(Buffer.concat(got)).filter((m) => m.type === 'D')).toHaveLength(1);
    stream.end();
  });
});
