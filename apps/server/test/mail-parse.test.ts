import { describe, expect, it } from 'vitest';
import { parseMail } from '../src/features/message/mail-parse.js';

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
});
