import { describe, expect, it } from 'vitest';
import {
  addRecipients, checkFiles, DEFAULT_LIMITS, formatRecipients, mentionsAttachment, ownText, sendProblems, splitTyped, toRecipient,
} from './compose-rules';

const MB = 1024 * 1024;
const addresses = (text: string, final = false) => splitTyped(text, final).done.map((r) => (r.valid ? r.address : `!${r.address}`));

describe('recipient chips', () => {
  it('ends a recipient at a comma, semicolon or line break, in either script', () => {
    expect(addresses('a@x.com,b@y.com;c@z.com，d@w.com；e@v.com\nf@u.com\n')).toEqual([
      'a@x.com', 'b@y.com', 'c@z.com', 'd@w.com', 'e@v.com', 'f@u.com',
    ]);
  });

  it('ends one at a space only once it has an @', () => {
    expect(splitTyped('bob@x.com ')).toEqual({ done: [{ name: '', address: 'bob@x.com', valid: true }], rest: '' });
    expect(splitTyped('Bob ')).toEqual({ done: [], rest: 'Bob ' });
    expect(addresses('a@x.com b@y.com c')).toEqual(['a@x.com', 'b@y.com']);
    expect(splitTyped('a@x.com b@y.com c').rest).toBe('c');
  });

  it('keeps a display name with spaces and reads the address in angle brackets', () => {
    const { done, rest } = splitTyped('Bob Lee <Bob@X.com> ');
    expect(done).toEqual([{ name: 'Bob Lee', address: 'bob@x.com', valid: true }]);
    expect(rest).toBe('');
    expect(splitTyped('Bob Lee <bob@x').done).toEqual([]);
    expect(splitTyped('"Lee, Bob" <bob@x.com>,').done).toEqual([{ name: 'Lee, Bob', address: 'bob@x.com', valid: true }]);
  });

  it('turns the rest into a chip on enter or blur', () => {
    expect(addresses('carol@z.com', true)).toEqual(['carol@z.com']);
    expect(splitTyped('carol@z.com', true).rest).toBe('');
    expect(addresses('   ', true)).toEqual([]);
  });

  it('marks invalid addresses and keeps what was typed', () => {
    expect(addresses('not-an-address, a@b, x@y.com', true)).toEqual(['!not-an-address', '!a@b', 'x@y.com']);
    expect(toRecipient('  ')).toBeNull();
  });

  it('adds only addresses the field does not have yet', () => {
    const list = [{ name: '', address: 'a@x.com', valid: true }];
    expect(addRecipients(list, [{ name: 'A', address: 'A@x.com', valid: true }, { name: '', address: 'b@x.com', valid: true }]).map((r) => r.address))
      .toEqual(['a@x.com', 'b@x.com']);
  });

  it('formats names the server splits on safely', () => {
    expect(formatRecipients([
      { name: 'Lee, Bob', address: 'bob@x.com', valid: true },
      { name: '', address: 'a@x.com', valid: true },
      { name: 'Carol "C" <x>', address: 'c@x.com', valid: true },
    ])).toBe('Lee Bob <bob@x.com>, a@x.com, Carol C x <c@x.com>');
  });
});

describe('attachment checks before upload (spec §8, §9)', () => {
  const limits = { ...DEFAULT_LIMITS, maxFileBytes: 10 * MB, maxTotalBytes: 20 * MB, blockedExtensions: ['exe', '.BAT'] };
  const problems = (files: Array<{ name: string; size: number }>, current: Array<{ name: string; size: number }> = []) => {
    const { accepted, refused } = checkFiles(files, current, limits);
    return { accepted: accepted.map((f) => f.name), refused: refused.map((r) => `${r.file.name}:${r.problem}`) };
  };

  it('accepts files within every limit', () => {
    expect(problems([{ name: 'a.pdf', size: MB }, { name: 'b.txt', size: 0 }])).toEqual({ accepted: ['a.pdf', 'b.txt'], refused: [] });
  });

  it('refuses a file over the per-file limit', () => {
    expect(problems([{ name: 'big.zip', size: 10 * MB + 1 }]).refused).toEqual(['big.zip:tooLarge']);
    expect(problems([{ name: 'edge.zip', size: 10 * MB }]).accepted).toEqual(['edge.zip']);
  });

  it('refuses blocked extensions, in any case and with or without a dot in the list', () => {
    expect(problems([{ name: 'setup.EXE', size: 1 }, { name: 'run.bat', size: 1 }, { name: 'exe', size: 1 }]))
      .toEqual({ accepted: ['exe'], refused: ['setup.EXE:badFormat', 'run.bat:badFormat'] });
  });

  it('refuses names with / ? : * " < > | or a backslash', () => {
    for (const name of ['a/b.txt', 'a?.txt', 'a:b.txt', 'a*.txt', 'a".txt', 'a<.txt', 'a>.txt', 'a|b.txt', 'a\\b.txt']) {
      expect(problems([{ name, size: 1 }]).refused).toEqual([`${name}:badName`]);
    }
  });

  it('stops at the total size, counting the files already attached', () => {
    expect(problems([{ name: 'b', size: 8 * MB }, { name: 'c', size: 3 * MB }, { name: 'd', size: MB }], [{ name: 'a', size: 10 * MB }]))
      .toEqual({ accepted: ['b', 'd'], refused: ['c:totalTooLarge'] });
  });

  it('stops at 52 files in all', () => {
    const current = Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, size: 1 }));
    const result = problems([{ name: 'x1', size: 1 }, { name: 'x2', size: 1 }, { name: 'x3', size: 1 }], current);
    expect(result).toEqual({ accepted: ['x1', 'x2'], refused: ['x3:tooMany'] });
  });

  it('never allows more than 52 files, whatever the server says', () => {
    const current = Array.from({ length: 52 }, (_, i) => ({ name: `f${i}`, size: 1 }));
    expect(checkFiles([{ name: 'x', size: 1 }], current, { ...limits, maxFiles: 100 }).refused).toHaveLength(1);
  });
});

describe('attachment mention (spec §5)', () => {
  it('finds 附件 and attach… in any case', () => {
    expect(mentionsAttachment('请查收附件')).toBe(true);
    expect(mentionsAttachment('See the ATTACHED file')).toBe(true);
    expect(mentionsAttachment('Attachments below')).toBe(true);
    expect(mentionsAttachment('Lunch at noon?')).toBe(false);
  });

  it('reads only the writer’s own words, not the quoted mail', () => {
    const html = '<p>Thanks, looks good.</p><p>On Monday Bob wrote:</p><blockquote><p>Please see the attachment.</p></blockquote>';
    expect(ownText(html)).toBe('Thanks, looks good.');
    expect(mentionsAttachment(ownText(html))).toBe(false);
    expect(mentionsAttachment(ownText('<p>Report <b>attached</b></p><blockquote>x</blockquote>'))).toBe(true);
  });

  it('leaves out a forwarded original from its header line on', () => {
    const html = '<p>FYI</p><p>---------- Forwarded message ----------<br>From: a@x.com</p><p>The attachment has the figures.</p>';
    expect(ownText(html).trim()).toBe('FYI');
    expect(ownText('<p>附件见下</p><p>---------- 转发的邮件 ----------</p><p>x</p>')).toContain('附件');
  });
});

describe('send checks (spec §5)', () => {
  const ok = { name: '', address: 'a@x.com', valid: true };
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const mail = { html: '<p>Hi</p>', replyTo: null };
  it('needs a recipient and a subject', () => {
    expect(sendProblems({ ...mail, to: [], cc: [], bcc: [], subject: '  ', sendAt: null }, now)).toEqual({ to: 'noRecipient', subject: 'emptySubject' });
    expect(sendProblems({ ...mail, to: [], cc: [], bcc: [ok], subject: 'Hi', sendAt: null }, now)).toEqual({});
  });

  it('names each field with an invalid address', () => {
    const bad = { name: '', address: 'nope', valid: false };
    expect(sendProblems({ ...mail, to: [ok], cc: [bad], bcc: [], subject: 'Hi', sendAt: null }, now)).toEqual({ cc: 'badAddress' });
  });

  it('refuses a timed send earlier than now', () => {
    expect(sendProblems({ ...mail, to: [ok], cc: [], bcc: [], subject: 'Hi', sendAt: now / 1000 - 1 }, now)).toEqual({ sendAt: 'sendAtPast' });
    expect(sendProblems({ ...mail, to: [ok], cc: [], bcc: [], subject: 'Hi', sendAt: now / 1000 + 60 }, now)).toEqual({});
  });

  it('refuses a reply with nothing but the quote (spec §5: reply must not be empty)', () => {
    const reply = { to: [ok], cc: [], bcc: [], subject: 'Re: x', sendAt: null, replyTo: '5' };
    const quote = '<p></p><p>On Monday Bob wrote:</p><blockquote><p>Question?</p></blockquote>';
    expect(sendProblems({ ...reply, html: `<p></p><p></p>${quote}` }, now)).toEqual({ body: 'emptyReply' });
    expect(sendProblems({ ...reply, html: `<p> </p><blockquote><p>Question?</p></blockquote>` }, now)).toEqual({ body: 'emptyReply' });
    expect(sendProblems({ ...reply, html: `<p>Yes.</p>${quote}` }, now)).toEqual({});
    expect(sendProblems({ ...reply, html: `<p><img src="x"></p><blockquote><p>Q</p></blockquote>` }, now)).toEqual({});
    // A new mail may have an empty body.
    expect(sendProblems({ ...reply, replyTo: null, html: '' }, now)).toEqual({});
  });
});
