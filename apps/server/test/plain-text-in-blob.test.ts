import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { utf8WithLf } from '../src/features/message/mail-parse.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 13, migration 043: a received plain-text mail's body is kept once, in its blob row, and
// every reader gets its text through mw_content_text. These deliver over SMTP and read through
// the API, search and the rule engine's query, and hold the database's decoding to the parse's.
let s: TestServer;
let alice: string;

beforeAll(async () => {
  ({ s, alice } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const sendRaw = (raw: Buffer) => s.send({ raw }, { from: 'carol@partner.example', to: ['alice@demo.test'] });
const plain = (subject: string, body: Buffer | string, headers = '') => Buffer.concat([
  Buffer.from(`From: carol@partner.example\r\nTo: alice@demo.test\r\nSubject: ${subject}\r\n${headers}\r\n`), Buffer.from(body),
]);
const stored = async (subject: string) => (await sql<{ id: number; text_body: string; text_tail: number | null; text: string; in_row: boolean }>`
  SELECT m.id, c.text_body, c.text_tail, mw_content_text(c.text_body, c.blob_hash, c.text_tail) AS text, b.data IS NOT NULL AS in_row
  FROM messages m JOIN mail_contents c ON c.id = m.content_id JOIN blobs b ON b.hash = c.blob_hash
  WHERE c.subject = ${subject}`.execute(s.rt.services.db)).rows;
const readText = async (id: number) => {
  const r = await s.get<{ text: string }>('/h5/read/index', { mid: id }, alice);
  expect(r.code).toBe(200);
  return r.data.text;
};

it('keeps a plain-text letter\'s body once, in its blob row, and reads it back as the parse gave it', async () => {
  // More than ASCII, over CRLF lines (the client sends any other line end as CRLF; the third test covers them).
  const body = '季度报告 ready\r\nline two\r\n\r\nzebrafinchword 😀\r\n';
  await sendRaw(plain('Kept once', body, 'Content-Type: text/plain; charset=utf-8\r\n'));
  const [row] = await stored('Kept once');
  expect(row).toMatchObject({ text_body: '', in_row: true });
  expect(row!.text_tail).toBeGreaterThan(0);
  // smtplib and nodemailer end the data with CRLF, which mailparser keeps as LF, as the shortcut does.
  const expected = body.replace(/\r\n/g, '\n');
  expect(row!.text).toBe(expected);
  expect(await readText(row!.id)).toBe(expected);

  // Search reads the text through the same function: the word in the body finds the mail.
  const found = await s.get<{ list: { subject: string }[] }>('/h5/search/mail', { q: 'zebrafinchword', size: 50 }, alice);
  expect(found.data.list.map((m) => m.subject)).toEqual(['Kept once']);

  // A rule tried on stored mail reads it through the same function too.
  const dry = await s.postJson<{ matched: number }>('/h5/rule/dry-run',
    { name: 'body', conditions: [{ field: 'body', op: 'contains', value: 'zebrafinchword' }], actions: [{ type: 'read' }] }, alice);
  expect(dry).toMatchObject({ code: 200, data: { matched: 1 } });
});

it('stores the text itself when the body is not UTF-8 as it stands, is not plain, or is kept in a file', async () => {
  // Broken UTF-8: the parse's text has U+FFFD where the database's decoding would refuse the bytes.
  await sendRaw(plain('Broken bytes', Buffer.from([0x68, 0x69, 0x20, 0xff, 0xfe, 0x20, 0x6f, 0x6b, 0x0d, 0x0a])));
  // Multipart: its text is a decoded part, not the blob's tail.
  await s.send({ from: 'carol@partner.example', to: 'alice@demo.test', subject: 'Two parts', text: 'the text part', html: '<p>the html part</p>' });
  // Over 64 KiB the blob is a file, not a row.
  const big = `${'a long line of plain words '.repeat(3000)}\r\n`;
  await sendRaw(plain('Big plain', big));
  for (const [subject, text] of [['Broken bytes', 'hi \ufffd\ufffd ok\n'], ['Two parts', 'the text part'], ['Big plain', big.replace(/\r\n/g, '\n')]] as const) {
    const [row] = await stored(subject);
    expect(row, subject).toMatchObject({ text_tail: null, text_body: text, text });
    expect(await readText(row!.id), subject).toBe(text);
  }
  expect((await stored('Big plain'))[0]!.in_row).toBe(false);
});

it('the database decodes a blob\'s tail exactly as the parse decodes a plain body, for any mix of line ends', async () => {
  const db = s.rt.services.db;
  const pieces = ['a', 'é', '季', '😀', ' ', '\r', '\n', '\r\n', '\r\r\n', '\n\r'];
  const bodies = Array.from({ length: 300 }, (_, i) => {
    const bytes = randomBytes(40 + (i % 60));
    return Buffer.from(Array.from(bytes, (b) => pieces[b % pieces.length]).join(''));
  });
  const heads = bodies.map((_, i) => Buffer.from(`Subject: tail ${i}\r\n\r\n`));
  const hashes = bodies.map((_, i) => `tail-test-${i}`);
  await sql`INSERT INTO blobs (hash, size, refcount, data)
    SELECT h, octet_length(d), 0, d FROM unnest(${hashes}::text[], ${bodies.map((b, i) => Buffer.concat([heads[i]!, b]))}::bytea[]) AS t(h, d)`.execute(db);
  const got = (await sql<{ h: string; text: string }>`
    SELECT h, mw_content_text('', h, n) AS text FROM unnest(${hashes}::text[], ${bodies.map((b) => b.length)}::int[]) AS t(h, n)`.execute(db)).rows;
  expect(got.map((r) => r.text)).toEqual(bodies.map((b) => utf8WithLf(b)));
  // Without a tail the column is the text.
  expect((await sql<{ t: string }>`SELECT mw_content_text('as stored', 'tail-test-0', NULL) AS t`.execute(db)).rows[0]!.t).toBe('as stored');
  await sql`DELETE FROM blobs WHERE hash LIKE 'tail-test-%'`.execute(db);
});
