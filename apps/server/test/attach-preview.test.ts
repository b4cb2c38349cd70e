import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, MailList, Settings, UploadResult } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

// Issue 14, scopes 5 and 6: a mail's video seeks (Range on the attachment routes), and
// the list and read page carry the sender's directory photo without a request per row.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s?.stop());

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
// Bytes with no signature a sniffer knows, 0..255 repeated, so every slice is checkable.
const BODY = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));

async function inboxOf(token: string): Promise<MailList> {
  return (await s.get<MailList>('/h5/mail/list', { mid: '0', page: 1, size: 50 }, token)).data;
}

async function receivedAttachment(): Promise<{ mail: Mail; id: string }> {
  await s.send({
    from: 'Carol <carol@outside.test>', to: 'bob@demo.test', subject: 'range please', text: 'see attached',
    attachments: [{ filename: 'clip.bin', content: BODY, contentType: 'application/octet-stream' }],
  });
  const row = (await inboxOf(bob)).list.find((r) => r.subject === 'range please')!;
  const mail = (await s.get<Mail>('/h5/read/index', { mid: row.id }, bob)).data;
  return { mail, id: mail.attachments[0]!.id };
}

describe('Range on attachment downloads (video seeking)', () => {
  it('answers bytes=a-b, bytes=a- and bytes=-n with 206 and exactly that slice, under the same sandbox', async () => {
    const { id } = await receivedAttachment();
    const url = `${s.base}/h5/attach/download?id=${encodeURIComponent(id)}&inline=1&t=${bob}`;
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(BODY)).toBe(true);

    for (const [header, start, end] of [['bytes=100-199', 100, 199], ['bytes=2990-', 2990, 2999], ['bytes=-10', 2990, 2999], ['bytes=2500-9999', 2500, 2999]] as const) {
      const res = await fetch(url, { headers: { range: header } });
      expect(res.status, header).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/3000`);
      expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // Not on the inline allowlist: a slice is still only a download.
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(Buffer.from(await res.arrayBuffer()).equals(BODY.subarray(start, end + 1)), header).toBe(true);
    }
  });

  it('refuses a range past the end with 416, and ignores a malformed or multi-range header', async () => {
    const { id } = await receivedAttachment();
    const url = `${s.base}/h5/attach/download?id=${encodeURIComponent(id)}&t=${bob}`;
    const past = await fetch(url, { headers: { range: 'bytes=5000-6000' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */3000');
    for (const header of ['bytes=0-1,5-6', 'items=0-1', 'bytes=abc']) {
      const res = await fetch(url, { headers: { range: header } });
      expect(res.status, header).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(3000);
    }
  });

  it('answers ranges on an upload being written too (a video previewed before sending)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(BODY)]), 'clip.bin');
    const up = (await (await fetch(`${s.base}/h5/write/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${alice}` } })).json()) as Envelope<UploadResult>;
    const res = await fetch(`${s.base}/h5/write/file?id=${up.data.id}&t=${alice}`, { headers: { range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(BODY.subarray(10, 20))).toBe(true);
    // Someone else's upload stays unknown, with or without a range.
    const foreign = await fetch(`${s.base}/h5/write/file?id=${up.data.id}&t=${bob}`, { headers: { range: 'bytes=10-19' } });
    // (The envelope carries the refusal: HTTP 200 with code 404, as every API answer.)
    expect(((await foreign.json()) as Envelope<unknown>).code).toBe(404);
  });
});

describe("the sender's directory photo in the list and on the read page", () => {
  it('is the avatar URL of a colleague with a photo, and null for an outsider or a colleague without one', async () => {
    // Alice (a member of bob's company) has a photo; carol is outside; bob mails himself without one.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
    const set = (await (await fetch(`${s.base}/h5/setting/avatar`, { method: 'POST', headers: { authorization: `Bearer ${alice}` }, body: form })).json()) as Envelope<Settings>;
    expect(set.data.avatar).toMatch(/^\/h5\/setting\/avatar-image\?email=alice%40demo\.test&v=/);

    const sent = await s.post('/h5/write/send', { to: 'bob@demo.test', subject: 'from a colleague', html: '<p>hi</p>', text: 'hi' }, alice);
    expect(sent.code).toBe(200);
    await s.post('/h5/write/send', { to: 'bob@demo.test', subject: 'from myself', html: '<p>hi</p>', text: 'hi' }, bob);
    await s.send({ from: 'Carol <carol@outside.test>', to: 'bob@demo.test', subject: 'from outside', text: 'hi' });

    const list = (await inboxOf(bob)).list;
    const bySubject = (subject: string) => list.find((r) => r.subject === subject)!;
    expect(bySubject('from a colleague').fromAvatar).toBe(set.data.avatar);
    expect(bySubject('from myself').fromAvatar).toBeNull();
    expect(bySubject('from outside').fromAvatar).toBeNull();
    // The web client asks for conversation rows (issue 14): they carry the photo too.
    const convs = (await s.get<{ list: { subject: string; fromAvatar: string | null }[] }>('/h5/mail/list', { mid: '0', page: 1, size: 50, view: 'conv' }, bob)).data.list;
    expect(convs.find((r) => r.subject === 'from a colleague')!.fromAvatar).toBe(set.data.avatar);
    expect(convs.find((r) => r.subject === 'from outside')!.fromAvatar).toBeNull();

    const read = (await s.get<Mail>('/h5/read/index', { mid: bySubject('from a colleague').id }, bob)).data;
    expect(read.fromAvatar).toBe(set.data.avatar);
    // The URL is the public avatar image: it loads without a token.
    const img = await fetch(`${s.base}${read.fromAvatar}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');

    // A disabled colleague's photo no longer shows.
    await s.rt.services.db.updateTable('users').set({ status: 'disabled' }).where('email', '=', 'alice@demo.test').execute();
    try {
      expect((await inboxOf(bob)).list.find((r) => r.subject === 'from a colleague')!.fromAvatar).toBeNull();
    } finally {
      await s.rt.services.db.updateTable('users').set({ status: 'active' }).where('email', '=', 'alice@demo.test').execute();
    }
  });
});
