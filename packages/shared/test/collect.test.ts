import { describe, expect, it } from 'vitest';
import { COLLECT_PRESETS, CreateCollectInput } from '../src/index.js';

const good = { protocol: 'pop3', host: 'pop.qq.com', port: '995', tls: 'tls', username: 'me@qq.com', password: 'app code', leaveCopy: '1', folder: '0', interval: '15' };

describe('collection schemas', () => {
  it('has presets for QQ, 163, 126, Gmail, Outlook and Exmail, each with POP3 and IMAP over TLS', () => {
    expect(COLLECT_PRESETS.map((p) => p.id)).toEqual(['qq', '163', '126', 'gmail', 'outlook', 'exmail']);
    for (const p of COLLECT_PRESETS) {
      expect(p.pop3).toMatchObject({ port: 995, tls: 'tls' });
      expect(p.imap).toMatchObject({ port: 993, tls: 'tls' });
    }
  });

  it('takes a form post and refuses what could break a command line or the schedule', () => {
    expect(CreateCollectInput.parse(good)).toMatchObject({ port: 995, leaveCopy: true, interval: 15 });
    const bad = (over: Record<string, string>) => CreateCollectInput.safeParse({ ...good, ...over }).success;
    expect(bad({ interval: '4' })).toBe(false);
    expect(bad({ interval: '61' })).toBe(false);
    expect(bad({ username: 'me\r\nDELE 1' })).toBe(false);
    expect(bad({ username: 'two words' })).toBe(false);
    expect(bad({ password: 'x\r\nQUIT' })).toBe(false);
    expect(bad({ password: '' })).toBe(false);
    expect(bad({ host: 'pop.qq.com\r\nQUIT' })).toBe(false);
    expect(bad({ host: 'a b' })).toBe(false);
    expect(bad({ tls: 'ssl3' })).toBe(false);
    expect(bad({ port: '70000' })).toBe(false);
    expect(bad({ host: '[::1]' })).toBe(true);
  });
});
