import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { simpleParser, type ParsedMail } from 'mailparser';
import { PARSE_OPTIONS, parseMail, parsePlainOrWhole, plainBodyStart, utf8WithLf } from '../src/features/message/mail-parse.js';

const mail = (headers: string, body: string) => Buffer.from(`From: Ann <ann@x.test>\r\nTo: bob@y.test\r\n${headers}\r\n${body}`);

// What the snippet is, whatever the code does to get there quickly.
const snippetOf = (text: string) => text.slice(0, 2000).replace(/\s+/g, ' ').trim().slice(0, 140);

describe('parseMail', () => {
  it('gives the first 140 characters of the body, whitespace collapsed, however the whitespace falls', async () => {
    const word = (i: number) => ['report', '季度', 'x', 'budget😀', 'a'][i % 5]!;
    const bodies = [
      '',
      'short',
      ' \r\n'.repeat(300) + 'after a long run of blank lines',
      ' '.repeat(1999) + 'past the first 2000',
      'x'.repeat(139),
      'y'.repeat(140),
      'z'.repeat(141),
      'w'.repeat(399) + '   tail',
      'y'.repeat(139) + ' tail, so the 140th character is a space',
      // Its first 400 characters collapse to 132: fewer than a snippet, more than most of it.
      ('abc' + ' '.repeat(9)).repeat(100),
      Array.from({ length: 500 }, (_, i) => word(i)).join(' \t \r\n  '),
      Array.from({ length: 60 }, (_, i) => word(i) + ' '.repeat(i * 3)).join(''),
      Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? '\r\n\r\n' : word(i))).join(' '),
    ];
    for (const body of bodies) {
      const c = await parseMail(mail('Subject: s\r\n', body + '\r\n'), 'ann@x.test');
      expect(c.snippet).toBe(snippetOf(c.text));
      expect(c.snippet.length).toBe(Math.min(140, snippetOf(c.text).length));
    }
    const spaced = await parseMail(mail('Subject: s\r\n', ' \r\n'.repeat(300) + 'after a long run of blank lines\r\n'), 'ann@x.test');
    expect(spaced.snippet).toBe('after a long run of blank lines');
  });

  it('drops NUL from every text it keeps, and keeps a mail without NUL as parsed', async () => {
    const raw = mail(
      'Subject: a\u0000b\r\nContent-Type: multipart/mixed; boundary=b1\r\n',
      '--b1\r\nContent-Type: text/plain\r\n\r\nline\u0000one\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="f\u0000.bin"\r\n\r\nAAAA\r\n--b1--\r\n',
    );
    const c = await parseMail(raw, 'ann@x.test');
    expect(c.subject).toBe('ab');
    expect(c.text.trim()).toBe('lineone');
    expect(c.snippet).toBe('lineone');
    expect(c.attachments.map((a) => a.name)).toEqual(['f.bin']);
    expect(JSON.stringify(c)).not.toContain('\\u0000');

    const clean = await parseMail(mail('Subject: plain\r\n', 'nothing odd\r\n'), 'ann@x.test');
    expect(clean.subject).toBe('plain');
    expect(clean.from).toEqual({ name: 'Ann', address: 'ann@x.test' });
    expect(clean.date).toBeNull();
  });

  it('reads a single-part plain-text mail exactly as mailparser does when it parses the whole of it', async () => {
    // Generated mail around the fast path's edges: header blocks it must take and must refuse
    // (multipart, other types and charsets, encodings, dispositions, folded or repeated headers),
    // LF and CRLF, no body or no empty line at all, bare CRs, NUL, broken UTF-8, boundary-like lines.
    let seed = 7;
    const rand = (n: number) => { // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const pick = <T>(xs: T[]) => xs[rand(xs.length)]!;
    const typeLines = [
      '', '', '', 'Content-Type: text/plain\r\n', 'Content-Type: text/plain; charset=utf-8\r\n', 'Content-Type: TEXT/PLAIN; charset="US-ASCII"\r\n',
      'Content-Type: text/plain; charset=iso-8859-1\r\n', 'Content-Type: text/plain; charset=gb2312\r\n', 'Content-Type: text/plain; format=flowed\r\n',
      'Content-Type: text/plain;\r\n\tcharset=utf-8\r\n', 'Content-Type: text/html; charset=utf-8\r\n', 'Content-Type: text/plain; name="a.txt"\r\n',
      'Content-Type: multipart/mixed; boundary=b1\r\n', 'Content-Type: text/plain\r\nContent-Type: text/html\r\n',
      'Content-Transfer-Encoding: 7bit\r\n', 'Content-Transfer-Encoding: 8BIT\r\n', 'Content-Transfer-Encoding: quoted-printable\r\n',
      'Content-Transfer-Encoding: base64\r\n', 'Content-Disposition: attachment; filename=x.txt\r\n', 'MIME-Version: 1.0\r\n',
      // The raw look reads only a header's first line; mailparser's parse of these must refuse them.
      'Content-Type: text/plain\r\n ; charset=gb2312\r\n', 'Content-Type: text/plain\r\n ; format=flowed\r\n', 'Content-Type: text/plain\r\n\tformat=flowed\r\n',
      'Content-Type: text/plain\r\nContent-Type: text/plain\r\n ; charset=gb2312\r\n', 'Content-Transfer-Encoding: 8bit\r\nContent-Transfer-Encoding: base64\r\n',
      'X-Note: content-type: text/html\r\n', 'Subject: =?utf-8?B?5a2j5bqm?= report\r\n', 'X-Priority: 1\r\n',
    ];
    // Strings go as UTF-8; the byte pieces are invalid UTF-8 on their own.
    const pieces: (string | Buffer)[] = ['abc', ' ', 'hello world', '\r\n', '\n', '\r', '\r\n\r\n', '--b1\r\n', '--b1--', '.\r\n', '季度报告', '😀',
      Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82]), '\u0000', '=41', 'QUJD'];
    // The shortest bodies first, each after every kind of empty line, then generated ones.
    const edges = ['', '\r\n', '\n', '\r', '\r\n\r\n', 'x', '.', ' '].flatMap((b) => ['\r\n', '\n', ''].map((blank) => ({ blank, body: [b] })));
    let fast = 0;
    let tails = 0;
    for (let n = 0; n < 600 + edges.length; n++) {
      const headers = n < edges.length ? '' : Array.from({ length: rand(4) }, () => pick(typeLines)).join('');
      const blank = n < edges.length ? edges[n]!.blank : pick(['\r\n', '\r\n', '\n', '']);
      const body = n < edges.length ? edges[n]!.body : Array.from({ length: rand(60) }, () => pick(pieces));
      const raw = Buffer.concat([`From: Ann <ann@x.test>\r\nTo: bob@y.test\r\nSubject: n${n}\r\n${headers}${blank}`, ...body].map((p) => Buffer.from(p)));
      if (plainBodyStart(raw) >= 0) fast++;
      const whole = await simpleParser(raw, PARSE_OPTIONS);
      expect(seen(await parsePlainOrWhole(raw)), raw.toString('latin1')).toEqual(seen(whole));
      // Migration 043: a text said to be the message's tail is exactly that tail decoded, and
      // that is mailparser's text; a tail with NUL or broken UTF-8 is never offered.
      const content = await parseMail(raw, 'ann@x.test');
      if (content.textTail !== undefined) {
        tails++;
        const tail = raw.subarray(raw.length - content.textTail);
        expect(utf8WithLf(tail), raw.toString('latin1')).toBe(content.text);
        expect(content.text).toBe(whole.text);
        expect(tail.includes(0) || !isUtf8(tail)).toBe(false);
      }
    }
    // Enough of the generated mail took the fast path for the comparison to mean something.
    expect(fast).toBeGreaterThan(150);
    expect(tails).toBeGreaterThan(20);
  });

  it('takes the fast path for a plain letter and not for a multipart one', () => {
    expect(plainBodyStart(mail('Subject: s\r\nContent-Type: text/plain; charset=utf-8\r\n', 'hi\r\n'))).toBeGreaterThan(0);
    expect(plainBodyStart(mail('Subject: s\r\nContent-Type: multipart/alternative; boundary=x\r\n', '--x\r\n'))).toBe(-1);
    expect(plainBodyStart(Buffer.from('Subject: no empty line\r\n'))).toBe(-1);
  });

  it('decodes a plain body with CRLF as LF exactly as the replace on the decoded text does, broken UTF-8 included', () => {
    // Bytes that make and break UTF-8 sequences (lead bytes, continuations, 0xFF) around CR, LF and NUL.
    const alphabet = [[13, 10], [13], [10], [0x61], [0x20], [0xe2], [0x82, 0xac], [0xc3], [0xa9], [0xf0, 0x9f], [0x98], [0x80], [0xff], [0]];
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let withCrlf = 0;
    for (let t = 0; t < 20_000; t++) {
      const body = Buffer.from(Array.from({ length: Math.floor(next() * 16) }, () => alphabet[Math.floor(next() * alphabet.length)]!).flat());
      const want = body.toString('utf8').replace(/\r?\n/g, '\n');
      if (want !== body.toString('utf8')) withCrlf++;
      expect(utf8WithLf(body), body.toString('hex')).toBe(want);
    }
    expect(withCrlf).toBeGreaterThan(5_000);
    const letter = Buffer.from('Dear Ann,\r\n\r\nthe 季度 report € is attached.\r\nA lone \r stays.\r\n');
    expect(utf8WithLf(letter)).toBe('Dear Ann,\n\nthe 季度 report € is attached.\nA lone \r stays.\n');
  });
});

/** What of mailparser's answer a stored mail is made from. */
function seen(m: ParsedMail) {
  return {
    text: m.text, html: m.html, subject: m.subject, from: m.from, to: m.to, cc: m.cc, date: m.date, messageId: m.messageId,
    headerLines: m.headerLines, headers: [...m.headers], attachments: m.attachments.map((a) => [a.filename, a.contentType, a.size]),
  };
}
