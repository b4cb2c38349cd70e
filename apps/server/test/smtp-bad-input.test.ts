import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, MailList } from '@mailwing/shared';
import { rawSmtp, startTestServer, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;

beforeAll(async () => {
  s = await startTestServer({ smtp: { host: '127.0.0.1', port: 0, maxBytes: 50 * 1024 * 1024, socketTimeoutMs: 1_500, hostname: 'mx.test.local' } });
  alice = await s.login('alice@demo.test');
});
afterAll(async () => s?.stop());

/** Sends a raw message (CRLF lines) to alice over a real socket and opens what was stored. */
async function deliverRaw(raw: string | Buffer): Promise<Mail> {
  const info = await s.send({ raw }, { from: 'sender@outside.example', to: ['alice@demo.test'] });
  expect(info.response).toMatch(/^250 /);
  const list = await s.get<MailList>('/h5/mail/list', { mid: '0', size: 1 }, alice);
  const read = await s.get<Mail>('/h5/read/index', { mid: list.data.list[0]!.id }, alice);
  expect(read.code).toBe(200);
  return read.data;
}

const crlf = (lines: string[]) => lines.join('\r\n');

describe('charsets and encoded words', () => {
  const cases: [string, string, string][] = [
    ['GB2312', 'gb2312', '第三季度报告'],
    ['GBK', 'gbk', '銷售數據与客户'],
    ['GB18030', 'gb18030', '季度报告𠀀'],
    ['Big5', 'big5', '第三季度報告'],
  ];
  for (const [label, charset, text] of cases) {
    it(`reads a ${label} body`, async () => {
      const { default: iconv } = await import('iconv-lite');
      const body = iconv.encode(text, charset).toString('base64');
      const mail = await deliverRaw(crlf([
        'From: <s@outside.example>', 'To: <alice@demo.test>', `Subject: ${label} body`, 'MIME-Version: 1.0',
        `Content-Type: text/plain; charset=${charset}`, 'Content-Transfer-Encoding: base64', '', body, '',
      ]));
      expect(mail.text.trim()).toBe(text);
    });
  }

  it('reads an ISO-2022-JP body and subject', async () => {
    // "日本語" in ISO-2022-JP: ESC $ B F| K\ 8l ESC ( B
    const jis = Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x38, 0x6c, 0x1b, 0x28, 0x42]);
    const raw = Buffer.concat([
      Buffer.from(crlf(['From: <s@outside.example>', 'To: <alice@demo.test>', `Subject: =?ISO-2022-JP?B?${jis.toString('base64')}?=`, 'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=ISO-2022-JP', 'Content-Transfer-Encoding: 7bit', '', ''])),
      jis, Buffer.from('\r\n'),
    ]);
    const mail = await deliverRaw(raw);
    expect(mail.subject).toBe('日本語');
    expect(mail.text.trim()).toBe('日本語');
  });

  it('decodes RFC 2047 subjects and RFC 2231 / encoded-word file names', async () => {
    const { default: iconv } = await import('iconv-lite');
    const subject = iconv.encode('第三季度报告', 'gb2312').toString('base64');
    const mail = await deliverRaw(crlf([
      'From: =?UTF-8?B?5p2O5rOi?= <s@outside.example>', 'To: <alice@demo.test>', `Subject: =?GB2312?B?${subject}?=`, 'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: text/plain; charset=utf-8', '', 'see attached', '--b1',
      'Content-Type: application/octet-stream; name="=?UTF-8?B?5oql5ZGKLnBkZg==?="', "Content-Disposition: attachment; filename*=UTF-8''%E6%95%B0%E6%8D%AE.csv",
      'Content-Transfer-Encoding: base64', '', 'YSxiCjEsMgo=', '--b1--', '',
    ]));
    expect(mail.subject).toBe('第三季度报告');
    expect(mail.from.name).toBe('李波');
    expect(mail.attachments.map((a) => a.name)).toEqual(['数据.csv']);
  });
});

describe('malformed MIME is stored, readable, and never takes the server down', () => {
  it('an unterminated multipart boundary', async () => {
    const mail = await deliverRaw(crlf(['From: <s@outside.example>', 'To: <alice@demo.test>', 'Subject: unterminated', 'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="never-closed"', '', '--never-closed', 'Content-Type: text/plain', '', 'partial body', '']));
    expect(mail.subject).toBe('unterminated');
    expect(mail.text).toContain('partial body');
  });

  it('more than 1,000 parts: kept whole, with the original attached', async () => {
    const parts: string[] = [];
    for (let i = 0; i < 1100; i++) parts.push('--many', 'Content-Type: text/plain', '', `part ${i}`);
    const mail = await deliverRaw(crlf(['From: <s@outside.example>', 'To: <alice@demo.test>', 'Subject: many parts', 'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="many"', '', ...parts, '--many--', '']));
    expect(mail.subject).toBe('(message could not be read)');
    expect(mail.attachments).toHaveLength(1);
    const original = mail.attachments[0]!;
    expect(original.name).toBe('original.eml');
    const res = await fetch(`${s.base}/h5/attach/download?id=${original.id}&t=${alice}`);
    const body = await res.text();
    expect(body).toContain('part 1099');
    expect(body).toContain('Subject: many parts');
  });

  it('a header over 1 MB', async () => {
    const mail = await deliverRaw(crlf(['From: <s@outside.example>', 'To: <alice@demo.test>', 'Subject: huge header', `X-Huge: ${'h'.repeat(1_100_000)}`, '', 'body', '']));
    expect(mail.attachments[0]?.name).toBe('original.eml');
  });

  it('bad base64, an unknown charset and NUL bytes', async () => {
    const mail = await deliverRaw(crlf(['From: <s@outside.example>', 'To: <alice@demo.test>', 'Subject: odd bytes', 'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"', '', '--b', 'Content-Type: text/plain; charset=x-no-such-charset', '', 'plain \u0000 with nul', '--b',
      'Content-Type: application/pdf; name="broken.pdf"', 'Content-Transfer-Encoding: base64', '', '!!!not*base64###', '--b--', '']));
    expect(mail.subject).toBe('odd bytes');
    expect(mail.text).toContain('plain');
    expect(mail.attachments.map((a) => a.name)).toContain('broken.pdf');
  });
});

describe('protocol abuse gets a proper reply code', () => {
  it('a command line over the limit', async () => {
    await rawSmtp(s.smtpPort, async (io) => {
      expect(await io.reply()).toMatch(/^220 /);
      io.send(`EHLO ${'x'.repeat(5000)}`);
      expect(await io.reply()).toMatch(/^5\d\d /);
    });
  });

  it('a client that stalls is timed out with 421', async () => {
    await rawSmtp(s.smtpPort, async (io) => {
      expect(await io.reply()).toMatch(/^220 /);
      expect(await io.reply()).toMatch(/^421 /);
      await io.closed;
    });
  });

  it('the server still answers after all of the above', async () => {
    const info = await s.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'still up', text: 'ok' });
    expect(info.response).toMatch(/^250 /);
    expect((await s.get('/h5/uniapp/version')).code).toBe(200);
  });
});
