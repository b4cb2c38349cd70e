import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefillFromMail, type ComposeData, type Mail, type MailList, type PrefillMode, type SendResult } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

// Issue 15, scope 3: offline, the client answers write/load for a reply or forward from the
// mail kept as read/index gave it (apps/web/src/offline/cache.ts), with the shared rule in
// packages/shared compose-prefill.ts. The server's write/load uses the same rule on the
// stored mail. These tests hold the two answers equal, field for field, on real mail.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

async function inboxId(token: string, subject: string): Promise<string> {
  const r = await s.get<MailList>('/h5/mail/list', { mid: '0', size: 50 }, token);
  const row = r.data.list.find((m) => m.subject === subject);
  expect(row).toBeDefined();
  return row!.id;
}

const MODES: PrefillMode[] = ['reply', 'replyAll', 'forward'];
const ZONES: Array<['zh' | 'en', number]> = [['zh', 480], ['en', -300], ['en', 0]];

/** write/load (with `loadToken`) against the offline prefill from `kept` (read with another token). */
async function expectSame(kept: Mail, loadToken: string, self: string): Promise<ComposeData[]> {
  const out: ComposeData[] = [];
  for (const mode of MODES) {
    for (const [lang, tz] of ZONES) {
      const online = await s.get<ComposeData>('/h5/write/load', { mid: kept.id, mode, lang, tz }, loadToken);
      expect(online.code).toBe(200);
      expect(prefillFromMail(kept, mode, { lang, tz, self, token: loadToken })).toEqual(online.data);
      out.push(online.data);
    }
  }
  return out;
}

describe('offline reply and forward prefill equals write/load', () => {
  it('an outside mail with Reply-To, Cc, an inline image, a remote image and a file, before and after remote images are allowed', async () => {
    await s.send({
      from: 'Carol <carol@outside.test>',
      replyTo: 'Carol list <list@outside.test>',
      to: 'Bob <bob@demo.test>, alice@demo.test',
      cc: 'admin@demo.test, bob@demo.test',
      subject: 'Plans & <things>',
      html: '<p>Hello <b>team</b></p><p><img src="cid:logo@outside.test" alt="logo"></p><p><img src="https://images.outside.test/a.png" alt="remote"></p>',
      attachments: [
        { filename: 'logo.png', cid: 'logo@outside.test', content: Buffer.from('89504e470d0a1a0a', 'hex'), contentType: 'image/png' },
        { filename: '方案.txt', content: 'the plan', contentType: 'text/plain' },
      ],
    }, { from: 'carol@outside.test', to: ['bob@demo.test'] });
    const id = await inboxId(bob, 'Plans & <things>');
    // The kept copy was read with one session token, compose runs with another.
    const other = await s.login('bob@demo.test');
    const kept = (await s.get<Mail>('/h5/read/index', { mid: id }, bob)).data;
    expect(kept.remoteImages).toBe(true);
    expect(kept.html).toMatch(/\/h5\/read\/inline\?mid=/);
    const [replyZh, , , replyAllZh, , , forwardZh] = await expectSame(kept, other, 'bob@demo.test');
    expect(replyZh).toMatchObject({ to: [{ address: 'list@outside.test' }], cc: [], subject: 'Re: Plans & <things>', replyTo: id });
    expect(replyZh!.html).toContain('写道：');
    expect(replyZh!.html).toContain(`t=${encodeURIComponent(other)}`);
    expect(replyZh!.html).not.toContain('images.outside.test');
    expect(replyAllZh!.cc.map((a) => a.address)).toEqual(['alice@demo.test', 'admin@demo.test']);
    expect(forwardZh).toMatchObject({ subject: 'Fw: Plans & <things>', forwardOf: id, to: [] });
    expect(forwardZh!.attachments.map((a) => a.name)).toEqual(['方案.txt']);

    // Remote images allowed: the read copy shows them through the proxy; a quote still leaves them out.
    const shown = (await s.get<Mail>('/h5/read/index', { mid: id, images: 1 }, bob)).data;
    expect(shown.html).toMatch(/\/h5\/read\/image\?mid=/);
    await expectSame(shown, other, 'bob@demo.test');
  });

  it('a plain-text local mail, and a reply to one\'s own sent mail', async () => {
    const sent = await s.post<SendResult>('/h5/write/send', { to: 'bob@demo.test', cc: 'admin@demo.test', subject: 'Re: Lunch', text: 'Noodles <at> noon?\nOr rice & soup.' }, alice);
    expect(sent.code).toBe(200);
    const id = await inboxId(bob, 'Re: Lunch');
    const kept = (await s.get<Mail>('/h5/read/index', { mid: id }, bob)).data;
    const [reply] = await expectSame(kept, bob, 'bob@demo.test');
    expect(reply).toMatchObject({ subject: 'Re: Lunch', to: [{ address: 'alice@demo.test' }] });
    expect(reply!.html).toContain('Noodles &lt;at&gt; noon?<br>Or rice &amp; soup.');

    // Alice's own sent copy: a reply goes to its recipients again.
    const own = (await s.get<Mail>('/h5/read/index', { mid: sent.data.id }, alice)).data;
    const [ownReply] = await expectSame(own, alice, 'alice@demo.test');
    expect(ownReply!.to.map((a) => a.address)).toEqual(['bob@demo.test']);
  });
});
