import { describe, expect, it } from 'vitest';
import { buildQuote, quoteBodyOfMail, quoteDate, replyRecipients } from '../src/index.js';

// The reply/forward rule shared by write/load and the offline compose (issue 15). That the
// two give the same answer on real mail is apps/server/test/compose-prefill.test.ts.

const carol = { name: 'Carol', address: 'carol@x.test' };
const bob = { name: '', address: 'bob@demo.test' };

describe('compose prefill rule', () => {
  it('adds Re:/Fw: once, in any of the prefixes mail apps use', () => {
    const o = { from: carol, to: [bob], cc: [], date: 0, body: '<p>b</p>' };
    expect(buildQuote({ ...o, subject: 'Hi' }, 'reply', { lang: 'en', tz: 0 }).subject).toBe('Re: Hi');
    expect(buildQuote({ ...o, subject: '回复：Hi' }, 'replyAll', { lang: 'zh', tz: 0 }).subject).toBe('回复：Hi');
    expect(buildQuote({ ...o, subject: 'FWD: Hi' }, 'forward', { lang: 'en', tz: 0 }).subject).toBe('FWD: Hi');
    expect(buildQuote({ ...o, subject: 'Hi' }, 'forward', { lang: 'zh', tz: 0 }).subject).toBe('Fw: Hi');
  });

  it('dates the quote in the writer\'s time zone and escapes names', () => {
    expect(quoteDate(Date.UTC(2026, 0, 1, 23, 30), 480)).toBe('2026-01-02 07:30');
    const q = buildQuote({ subject: 's', from: { name: 'A <b>', address: 'a@x.test' }, to: [], cc: [], date: Date.UTC(2026, 0, 1), body: 'x' }, 'reply', { lang: 'en', tz: 0 });
    expect(q.html).toBe('<p></p><p></p><p>On 2026-01-01 00:00, A &lt;b&gt; &lt;a@x.test&gt; wrote:</p><blockquote>x</blockquote>');
  });

  it('answers Reply-To first, one\'s own sent mail to its recipients, and reply all without oneself', () => {
    const mail = { from: carol, replyTo: [{ name: '', address: 'list@x.test' }], to: [bob, carol], cc: [{ name: '', address: 'dan@x.test' }, bob] };
    expect(replyRecipients(mail, 'reply', 'bob@demo.test')).toEqual({ to: [{ name: '', address: 'list@x.test' }], cc: [] });
    expect(replyRecipients(mail, 'replyAll', 'bob@demo.test').cc.map((a) => a.address)).toEqual(['carol@x.test', 'dan@x.test']);
    expect(replyRecipients({ ...mail, from: bob }, 'reply', 'bob@demo.test').to).toEqual([bob, carol]);
  });

  it('quotes a kept mail without its remote images, with the session\'s token on inline ones', () => {
    const html = '<p>a</p><img data-mw-src="https://r.test/x.png"><img src="/h5/read/image?mid=1&amp;url=u&amp;t=old" alt=""><img src="/h5/read/inline?mid=1&amp;cid=c&amp;t=old">';
    expect(quoteBodyOfMail({ html, text: '' }, 'new token')).toBe('<p>a</p><img src="/h5/read/inline?mid=1&amp;cid=c&amp;t=new%20token">');
    expect(quoteBodyOfMail({ html: '', text: 'a <b>\nc' }, 't')).toBe('a &lt;b&gt;<br>c');
  });
});
