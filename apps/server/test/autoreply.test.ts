import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutoReply, MailList, SendResult } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

let s: TestServer;
let alice: string;
let bob: string;
let mx: MxStandIn;
let clock = new Date('2026-07-01T02:00:00Z');

beforeAll(async () => {
  mx = await startMxStandIn();
  ({ s, alice, bob } = await startDemo({
    workers: true,
    delivery: { relay: `smtp://127.0.0.1:${mx.port}`, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 10 },
  }));
  // The injectable clock of the rule engine (RuleEngineDeps.now): tests move it, never sleep.
  s.rt.services.rules.d.now = () => clock;
});
afterAll(async () => {
  await s.stop();
  await mx.close();
});

const vacation = { enabled: 1, start: '2026-07-01', end: '2026-07-10', timeZone: 'Asia/Shanghai', subject: '', body: 'I am away until 11 July.', intervalDays: 4 };
const repliesTo = async (rcpt: string) => (await s.rt.services.db.selectFrom('outbox').select(['id', 'mail_from']).where('rcpt', '=', rcpt).execute());
const inbox = async (token: string) => (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 100 }, token)).data.list;

describe('auto-reply settings', () => {
  it('saves and reads back; refuses bad values', async () => {
    const r = await s.post<AutoReply>('/h5/autoreply/save', vacation, bob);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ enabled: true, start: '2026-07-01', end: '2026-07-10', timeZone: 'Asia/Shanghai', intervalDays: 4 });
    expect((await s.get<AutoReply>('/h5/autoreply/get', {}, bob)).data.body).toBe('I am away until 11 July.');
    for (const bad of [{ intervalDays: 0 }, { intervalDays: 31 }, { timeZone: 'Mars/Olympus' }, { start: '2026-07-10', end: '2026-07-01' }, { start: '1 July' }, { enabled: 1, body: '' }]) {
      expect((await s.post('/h5/autoreply/save', { ...vacation, ...bad }, bob)).code).toBe(422);
    }
    expect((await s.get<AutoReply>('/h5/autoreply/get', {}, alice)).data.enabled).toBe(false);
  });
});

describe('auto-reply on delivery', () => {
  it('answers once per sender per interval, inside the date range of the user\'s zone', async () => {
    await s.post('/h5/autoreply/save', vacation, bob);
    // 2026-06-30 23:00 in Shanghai: the day before the range.
    clock = new Date('2026-06-30T15:00:00Z');
    await s.send({ from: 'carol@outside.test', to: 'bob@demo.test', subject: 'before', text: 'x', messageId: '<before@outside.test>' });
    expect(await repliesTo('carol@outside.test')).toHaveLength(0);
    // 2026-07-01 04:00 in Shanghai (still 30 June in UTC): inside.
    clock = new Date('2026-06-30T20:00:00Z');
    await s.send({ from: 'carol@outside.test', to: 'bob@demo.test', subject: 'Quarterly plan', text: 'x', messageId: '<plan@outside.test>' });
    expect(await repliesTo('carol@outside.test')).toEqual([expect.objectContaining({ mail_from: '' })]);
    const [reply] = await mx.waitFor(1);
    const raw = reply!.raw.toString('utf8');
    expect(reply!.from).toBe('');
    expect(raw).toMatch(/^Auto-Submitted: auto-replied/m);
    expect(raw).toMatch(/^In-Reply-To: <plan@outside\.test>/m);
    expect(raw).toMatch(/^Subject: Auto: Quarterly plan/m);
    expect(raw).toMatch(/^DKIM-Signature: .*d=demo\.test/m);
    expect(raw).toContain('I am away until 11 July.');
    // Again within 4 days: no second reply.
    clock = new Date('2026-07-03T20:00:00Z');
    await s.send({ from: 'carol@outside.test', to: 'bob@demo.test', subject: 'still there?', text: 'x' });
    expect(await repliesTo('carol@outside.test')).toHaveLength(1);
    // Four days after the first: one more.
    clock = new Date('2026-07-04T20:00:00Z');
    await s.send({ from: 'carol@outside.test', to: 'bob@demo.test', subject: 'hello again', text: 'x' });
    expect(await repliesTo('carol@outside.test')).toHaveLength(2);
    // 2026-07-11 00:30 in Shanghai: the range has ended (inclusive end, the user's day).
    clock = new Date('2026-07-10T16:30:00Z');
    await s.send({ from: 'dave@outside.test', to: 'bob@demo.test', subject: 'after', text: 'x' });
    expect(await repliesTo('dave@outside.test')).toHaveLength(0);
    clock = new Date('2026-07-10T15:30:00Z');
    await s.send({ from: 'dave@outside.test', to: 'bob@demo.test', subject: 'last day', text: 'x' });
    expect(await repliesTo('dave@outside.test')).toHaveLength(1);
  });

  it('never answers robots, lists, bulk mail, a null return path, or mail not addressed to the user', async () => {
    await s.post('/h5/autoreply/save', vacation, bob);
    clock = new Date('2026-07-05T04:00:00Z');
    const cases: [string, Parameters<TestServer['send']>[0], { from: string; to: string[] }?][] = [
      ['auto@outside.test', { headers: { 'Auto-Submitted': 'auto-generated' } }],
      ['list@outside.test', { headers: { 'List-Id': '<news.outside.test>' } }],
      ['bulk@outside.test', { headers: { Precedence: 'bulk' } }],
      ['MAILER-DAEMON@outside.test', {}],
      ['news-request@outside.test', {}],
      ['owner-news@outside.test', {}],
      ['bcc@outside.test', { to: 'someone@outside.test' }, { from: 'bcc@outside.test', to: ['bob@demo.test'] }],
      ['nullpath@outside.test', {}, { from: '', to: ['bob@demo.test'] }],
    ];
    for (const [from, extra, envelope] of cases) {
      await s.send({ from, to: 'bob@demo.test', subject: `guard ${from}`, text: 'x', ...extra }, envelope);
      expect(await repliesTo(from.toLowerCase()), from).toHaveLength(0);
    }
    // The control: an ordinary sender at the same moment is answered.
    await s.send({ from: 'ok@outside.test', to: 'bob@demo.test', subject: 'guard control', text: 'x' });
    expect(await repliesTo('ok@outside.test')).toHaveLength(1);
  });

  it('two of our own mailboxes on holiday exchange exactly one reply each', async () => {
    clock = new Date('2026-07-05T04:00:00Z');
    await s.post('/h5/autoreply/save', { ...vacation, subject: 'Bob is away' }, bob);
    await s.post('/h5/autoreply/save', { ...vacation, subject: 'Alice is away', body: 'Alice is on holiday.' }, alice);
    const a = await s.post<SendResult>('/h5/write/send', { to: 'bob@demo.test', subject: 'From Alice', html: '<p>hi</p>' }, alice);
    const b = await s.post<SendResult>('/h5/write/send', { to: 'alice@demo.test', subject: 'From Bob', html: '<p>hi</p>' }, bob);
    expect([a.code, b.code]).toEqual([200, 200]);
    const again = await s.post<SendResult>('/h5/write/send', { to: 'bob@demo.test', subject: 'From Alice again', html: '<p>hi</p>' }, alice);
    expect(again.code).toBe(200);
    expect((await inbox(alice)).filter((m) => m.subject === 'Bob is away')).toHaveLength(1);
    expect((await inbox(bob)).filter((m) => m.subject === 'Alice is away')).toHaveLength(1);
  });
});
