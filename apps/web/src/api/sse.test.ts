import { describe, expect, it } from 'vitest';
import { backoffMs, toLiveEvent } from './live';
import { affectsFolder, type LiveEvent, type MailEventKind } from './live-events';
import { createSseParser, type SseMessage } from './sse';

function parse(...chunks: string[]): { messages: SseMessage[]; retry: number | undefined } {
  const messages: SseMessage[] = [];
  const parser = createSseParser((m) => messages.push(m));
  for (const chunk of chunks) parser.push(chunk);
  return { messages, retry: parser.retry };
}

describe('server-sent events parser', () => {
  it('reads named events with their data, and skips comments', () => {
    const { messages, retry } = parse('retry: 3000\n\nevent: hello\ndata: {"a":1}\n\n: ping\n\nevent: mail\ndata: {"b":2}\n\n');
    expect(retry).toBe(3000);
    expect(messages).toEqual([
      { event: 'hello', data: '{"a":1}' },
      { event: 'mail', data: '{"b":2}' },
    ]);
  });

  it('joins data lines with newlines and defaults the event name to message', () => {
    expect(parse('data: one\ndata:two\ndata\n\n').messages).toEqual([{ event: 'message', data: 'one\ntwo\n' }]);
  });

  it('assembles blocks split across chunks at any point, including inside CRLF', () => {
    const text = 'event: mail\r\ndata: {"x":"y"}\r\n\r\nevent: hello\r\ndata: 2\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const { messages } = parse(text.slice(0, cut), text.slice(cut));
      expect(messages, `cut at ${cut}`).toEqual([{ event: 'mail', data: '{"x":"y"}' }, { event: 'hello', data: '2' }]);
    }
    // One character at a time.
    expect(parse(...text.split('')).messages).toHaveLength(2);
  });

  it('accepts lone CR line endings, keeps ids, ignores unknown fields and blocks without data', () => {
    expect(parse('event: a\rid: 7\rfoo: bar\rdata: x\r\revent: empty\r\r').messages).toEqual([{ event: 'a', data: 'x', id: '7' }]);
  });

  it('drops a block the stream never finished', () => {
    expect(parse('event: mail\ndata: {"half":').messages).toEqual([]);
  });

  it('keeps the field value after the first colon only', () => {
    expect(parse('data: a: b\n\n').messages[0]?.data).toBe('a: b');
  });
});

describe('live events', () => {
  const mbox = { system: [{ mid: '0', name: 'Inbox', count: 3, total: 9 }], custom: [] };

  it('turns hello and mail messages into events', () => {
    expect(toLiveEvent({ event: 'hello', data: JSON.stringify({ mbox }) }, false)).toEqual({ type: 'hello', mbox, catchUp: false });
    expect(toLiveEvent({ event: 'mail', data: JSON.stringify({ kinds: ['new'], ids: ['5'], folders: ['0'], mbox }) }, true)).toEqual({
      type: 'mail', kinds: ['new'], ids: ['5'], folders: ['0'], mbox,
    });
    expect(toLiveEvent({ event: 'mail', data: JSON.stringify({ kinds: ['resync'], mbox: null }) }, true)).toEqual({
      type: 'mail', kinds: ['resync'], ids: [], folders: [], mbox: null,
    });
    expect(toLiveEvent({ event: 'mail', data: 'not json' }, false)).toBeNull();
    expect(toLiveEvent({ event: 'other', data: '{}' }, false)).toBeNull();
  });

  it('reloads a list for its own folder, a resync, or any hello', () => {
    const mail = (folders: string[], kinds: MailEventKind[] = ['new']): LiveEvent =>
      ({ type: 'mail', kinds, ids: [], folders, mbox: null });
    expect(affectsFolder(mail(['0', '4']), '0')).toBe(true);
    expect(affectsFolder(mail(['4']), '0')).toBe(false);
    expect(affectsFolder(mail([], ['resync']), '101')).toBe(true);
    expect(affectsFolder({ type: 'hello', mbox, catchUp: false }, '0')).toBe(true);
    expect(affectsFolder({ type: 'hello', mbox, catchUp: true }, '0')).toBe(true);
  });

  it('backs off by doubling up to 30 s, with jitter', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 1000, mid))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(backoffMs(0, 3000, () => 0)).toBe(2400);
    expect(backoffMs(0, 3000, () => 1)).toBe(3600);
  });
});
