import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, MailList, UploadResult } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

// Issue 12, finding 1: bytes from an uploader or a mail sender must never be served
// from our origin as something a browser runs. Every file response is checked for the
// type it is served as, the disposition, and the sandbox policy.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => s?.stop());

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwAEAQH/0eNDmQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const XSL = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script src="/h5/write/file?id=1"></script></html>';
const JS = 'document.title = "PWNED " + localStorage.length;';

async function upload(token: string, name: string, body: Buffer | string, type: string): Promise<Envelope<UploadResult>> {
  const form = new FormData();
  form.append('file', new Blob([body], { type }), name);
  const res = await fetch(`${s.base}/h5/write/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as Envelope<UploadResult>;
}

function expectSandboxed(res: Response): void {
  expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

function expectDownloadOnly(res: Response): void {
  expectSandboxed(res);
  expect(res.headers.get('content-type')).toBe('application/octet-stream');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
}

describe('uploads (/h5/write/file)', () => {
  const active: [string, string, string][] = [
    ['page.xsl', 'text/xsl', XSL],
    ['payload.dat', 'application/x-javascript', JS],
    ['payload.es', 'text/ecmascript', JS],
    ['payload.mjs', 'text/javascript', JS],
    ['page.html', 'text/html', '<script>alert(1)</script>'],
    ['pic.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['page.xhtml', 'application/xhtml+xml', XSL],
    ['data.xml', 'text/xml', XSL],
    ['hidden.png', 'image/png', '<html><script>alert(1)</script></html>'],
  ];

  it.each(active)('%s declared as %s is only ever a download', async (name, type, body) => {
    const up = await upload(bob, name, body, type);
    expect(up.code).toBe(200);
    // The stored type comes from the bytes and the name, never from the declared type.
    if (name === 'hidden.png') expect(up.data.contentType).not.toBe('image/png');
    const res = await fetch(`${s.base}/h5/write/file?id=${up.data.id}&t=${bob}`);
    expectDownloadOnly(res);
    expect(await res.text()).toBe(body);
  });

  it('a real PNG declared as HTML is stored and shown as a PNG', async () => {
    const up = await upload(bob, 'photo.html', PNG, 'text/html');
    expect(up.data.contentType).toBe('image/png');
    const res = await fetch(`${s.base}/h5/write/file?id=${up.data.id}&t=${bob}`);
    expectSandboxed(res);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('PDF and plain text are shown inline, under the sandbox', async () => {
    const pdf = await upload(bob, 'report.pdf', PDF, 'application/octet-stream');
    expect(pdf.data.contentType).toBe('application/pdf');
    const pdfRes = await fetch(`${s.base}/h5/write/file?id=${pdf.data.id}&t=${bob}`);
    expectSandboxed(pdfRes);
    expect(pdfRes.headers.get('content-type')).toBe('application/pdf');

    const txt = await upload(bob, 'notes.txt', '季度 <script>x</script>', 'text/plain');
    const txtRes = await fetch(`${s.base}/h5/write/file?id=${txt.data.id}&t=${bob}`);
    expectSandboxed(txtRes);
    expect(txtRes.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await txtRes.text()).toBe('季度 <script>x</script>');
  });

  it('another user cannot read an upload by its id', async () => {
    const up = await upload(bob, 'mine.txt', 'private', 'text/plain');
    const res = await fetch(`${s.base}/h5/write/file?id=${up.data.id}&t=${alice}`);
    expect(((await res.json()) as Envelope<unknown>).code).toBe(404);
  });
});

describe('parts of received mail (/h5/attach/download, /h5/read/inline)', () => {
  it('script-bearing parts are downloads even when asked inline; media is inline under the sandbox', async () => {
    const subject = `active parts ${Date.now()}`;
    await s.send({
      from: 'mallory@evil.example', to: 'alice@demo.test', subject, html: '<p>see <img src="cid:x@evil"></p>',
      attachments: [
        { filename: 'page.xsl', content: XSL, contentType: 'text/xsl' },
        { filename: 'p.js', content: JS, contentType: 'application/x-javascript' },
        { filename: 'p2.js', content: JS, contentType: 'text/ecmascript' },
        { filename: 'fake.png', content: JS, contentType: 'image/png' },
        { filename: 'real.bin', content: PNG, contentType: 'application/x-javascript' },
        { filename: 'inline.xsl', content: XSL, contentType: 'text/xsl', cid: 'x@evil' },
      ],
    });
    const row = (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 50 }, alice)).data.list.find((m) => m.subject === subject)!;
    const mail = (await s.get<Mail>('/h5/read/index', { mid: row.id }, alice)).data;
    const byName = new Map(mail.attachments.map((a) => [a.name, a]));
    for (const name of ['page.xsl', 'p.js', 'p2.js', 'fake.png']) {
      const res = await fetch(`${s.base}/h5/attach/download?id=${byName.get(name)!.id}&inline=1&t=${alice}`);
      expectDownloadOnly(res);
    }
    // A PNG is a PNG whatever the sender called it.
    const png = await fetch(`${s.base}/h5/attach/download?id=${byName.get('real.bin')!.id}&inline=1&t=${alice}`);
    expectSandboxed(png);
    expect(png.headers.get('content-type')).toBe('image/png');

    const inline = await fetch(`${s.base}/h5/read/inline?mid=${row.id}&cid=${encodeURIComponent('x@evil')}&t=${alice}`);
    expectDownloadOnly(inline);
  });
});
