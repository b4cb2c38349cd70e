import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactList, SavedDraft, Tag } from '@mailwing/shared';
import { testConfig } from '../src/config.js';
import { redactUrl } from '../src/http/redact-url.js';
import { startRuntime } from '../src/runtime.js';
import { startDemo, type Envelope, type TestServer } from './harness.js';

// Issue 12, findings 8–10: bad input gets a 422 with a reason, never a 500; ids that
// are someone else's are unknown ids; secrets stay out of logs; slow clients end.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s?.stop());

type Refusal = Envelope<unknown> & { reason?: string; reasons?: Record<string, string> };

describe('bad input is a 422 with a reason (finding 9)', () => {
  it('NUL bytes in names, notes and queries', async () => {
    const folder = await s.post('/h5/mboxop/create-folder', { name: 'a\u0000b' }, alice) as Refusal;
    expect(folder).toMatchObject({ code: 422, reason: 'input.invalid', reasons: { name: 'input.nul_byte' } });
    const note = await s.post('/h5/mailop/note', { mid: '1', note: 'x\u0000' }, alice) as Refusal;
    expect(note).toMatchObject({ code: 422, reasons: { note: 'input.nul_byte' } });
    const search = await s.get('/h5/search/mail', { q: 'report\u0000' }, alice) as Refusal;
    expect(search).toMatchObject({ code: 422, reasons: { q: 'input.nul_byte' } });
    const contact = await s.post('/h5/contact/save', { name: 'n\u0000', email: 'x@example.com' }, alice) as Refusal;
    expect(contact.code).toBe(422);
  });

  it('an 18-digit folder id and a far-future sendAt', async () => {
    const list = await s.get('/h5/mail/list', { mid: '999999999999999999' }, alice) as Refusal;
    expect(list).toMatchObject({ code: 422, reasons: { mid: expect.stringMatching(/^input\./) } });
    // Just past the 32-bit column: refused by the schema, not overflowed in the database.
    expect((await s.get('/h5/mail/list', { mid: '2147483648' }, alice)).code).toBe(422);
    expect((await s.get('/h5/mail/list', { mid: '2147483647' }, alice)).code).toBe(404);
    const send = await s.post('/h5/write/send', { to: 'bob@demo.test', subject: 'x', text: 'x', sendAt: '9e15' }, alice) as Refusal;
    expect(send).toMatchObject({ code: 422, reasons: { sendAt: expect.stringMatching(/^input\./) } });
  });

  it('a cut-off multipart body', async () => {
    const boundary = '----mw-cut';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhalf of a fi`;
    const res = await fetch(`${s.base}/h5/write/upload`, {
      method: 'POST', body, headers: { authorization: `Bearer ${alice}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const r = await res.json() as Refusal;
    expect(r).toMatchObject({ code: 422, reason: 'upload.malformed' });
    expect(await s.rt.services.db.selectFrom('uploads').select('id').where('name', '=', 'a.txt').execute()).toEqual([]);
  });
});

describe('blocked file types cannot hide behind trailing characters (finding 8)', () => {
  it.each(['evil.exe.', 'evil.exe ', 'evil.exe. ', 'evil.exe\u200b', 'evil.bat..'])('%j is refused', async (name) => {
    const form = new FormData();
    form.append('file', new Blob(['MZ']), name);
    const res = await fetch(`${s.base}/h5/write/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${alice}` } });
    expect(await res.json()).toMatchObject({ code: 422, reason: 'upload.type_blocked' });
  });
});

describe('ids that are someone else\'s are unknown ids (finding 10)', () => {
  it('a foreign draftId is refused, not turned into a new draft', async () => {
    const bobs = await s.post<SavedDraft>('/h5/write/draft', { to: 'alice@demo.test', subject: 'bob draft', html: '<p>b</p>' }, bob);
    expect(bobs.code).toBe(200);
    const before = await s.rt.services.db.selectFrom('messages').select('id').execute();
    const r = await s.post('/h5/write/draft', { to: 'carol@example.com', subject: 'hijack', html: '<p>x</p>', draftId: bobs.data.id }, alice) as Refusal;
    expect(r).toMatchObject({ code: 404, reason: 'draft.not_found' });
    expect((await s.rt.services.db.selectFrom('messages').select('id').execute()).length).toBe(before.length);
  });

  it('a foreign tag or contact group filter is a 404, not an empty list', async () => {
    const tag = await s.post<Tag>('/h5/tag/create', { name: `bobs-${Date.now()}`, color: '#2086EE' }, bob);
    expect(tag.code).toBe(200);
    expect(await s.get('/h5/mail/list', { mid: '0', tag: tag.data.id }, alice)).toMatchObject({ code: 404, reason: 'tag.not_found' });
    expect((await s.get('/h5/mail/list', { mid: '0', tag: tag.data.id }, bob)).code).toBe(200);

    const group = await s.post<{ id: string }>('/h5/contact/group-save', { name: `bobs-${Date.now()}` }, bob);
    expect(group.code).toBe(200);
    expect(await s.get('/h5/contact/list', { group: group.data.id }, alice)).toMatchObject({ code: 404, reason: 'group.not_found' });
    expect((await s.get<ContactList>('/h5/contact/list', { group: group.data.id }, bob)).code).toBe(200);
  });
});

describe('responses and logs (finding 10)', () => {
  it('API answers with personal data are never cached', async () => {
    for (const route of ['/h5/mbox/index', '/h5/mail/list?mid=0', '/h5/login/check']) {
      const res = await fetch(`${s.base}${route}`, { headers: { authorization: `Bearer ${alice}` } });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('redacts the token however its name is spelled', () => {
    expect(redactUrl('/h5/mbox/index?%74=SECRET1&x=1')).toBe('/h5/mbox/index?%74=[redacted]&x=1');
    expect(redactUrl('/h5/mbox/index?T=SECRET2')).toBe('/h5/mbox/index?T=[redacted]');
    expect(redactUrl('/h5/x?%54%6fken=S3&t%00=S4&+t=S5')).not.toMatch(/S3|S5/);
    expect(redactUrl('/h5/x?a=1&ltoken=S6&code=S7')).toBe('/h5/x?a=1&ltoken=[redacted]&code=[redacted]');
  });

  it('a running server writes no token to its log, in any spelling the query parser accepts', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, cb) { lines.push(chunk.toString()); cb(); } });
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-log-'));
    // Request lines are written at debug level (one per request).
    const rt = await startRuntime(testConfig({ dataDir, logLevel: 'debug' }), { seed: true, logStream: sink });
    try {
      const base = `http://127.0.0.1:${rt.httpPort}`;
      const login = await (await fetch(`${base}/h5/login/h5`, { method: 'POST', body: new URLSearchParams({ email: 'alice@demo.test', password: 'demo1234' }) })).json() as Envelope<{ token: string }>;
      const token = login.data.token;
      for (const q of [`%74=${token}`, `t=${token}`, `%54=${token}`, `token=${token}`]) {
        const r = await (await fetch(`${base}/h5/mbox/index?${q}`)).json() as Envelope<unknown>;
        expect(r.code).not.toBe(500);
      }
      const requests = lines.filter((l) => l.includes('"msg":"request"') && l.includes('/h5/mbox/index'));
      expect(requests).toHaveLength(4);
      expect(lines.join('')).not.toContain(token);
      expect(lines.join('')).not.toContain('demo1234');
    } finally {
      await rt.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a client that trickles its headers is cut off (slowloris)', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-slow-'));
    const rt = await startRuntime(testConfig({ dataDir, http: { headersTimeoutMs: 400, requestTimeoutMs: 800, checkIntervalMs: 100 } }), { seed: false });
    try {
      const socket = net.connect(rt.httpPort, '127.0.0.1');
      const started = Date.now();
      let answer = '';
      socket.on('data', (d) => { answer += d.toString(); });
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write('GET /h5/uniapp/version HTTP/1.1\r\nHost: x\r\n');
      // One header byte every 100 ms: each write resets an idle timer, never the headers deadline.
      const drip = setInterval(() => socket.writable && socket.write('X'), 100);
      const bounded = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5_000));
      const outcome = await Promise.race([closed.then(() => 'closed' as const), bounded]);
      clearInterval(drip);
      socket.destroy();
      expect(outcome).toBe('closed');
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await rt.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
