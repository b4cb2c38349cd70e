import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SystemFolder, type ComposeData, type Mail, type MailList, type SendResult } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

// Undo send (issue 14, scope 4). The window is measured with the compose service's clock:
// each test moves time by passing it to dispatchDue, never by sleeping. The background
// runner polls with the real clock, which stays far inside a 30 s window meanwhile.

let s: TestServer;
let alice: string;
let bob: string;
let mx: MxStandIn;

beforeAll(async () => {
  mx = await startMxStandIn();
  ({ s, alice, bob } = await startDemo({
    workers: true,
    delivery: { relay: `smtp://127.0.0.1:${mx.port}`, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 10 },
  }));
}, 180_000);
afterAll(async () => {
  await s?.stop();
  await mx?.close();
});
beforeEach(async () => {
  mx.received.length = 0;
  mx.answer = () => null;
  expect((await s.post('/h5/setting/undo-send', { seconds: 30 }, alice)).code).toBe(200);
});

async function send(form: Record<string, string | number>): Promise<SendResult> {
  const r = await s.post<SendResult>('/h5/write/send', form, alice);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data;
}

const db = () => s.rt.services.db;
const compose = () => s.rt.services.compose;
const outboxOf = (sentId: string) => db().selectFrom('outbox').selectAll().where('message_id', '=', Number(sentId)).execute();
const dispatchOf = (sentId: string) => db().selectFrom('dispatches').selectAll().where('message_id', '=', Number(sentId)).execute();
const inboxHas = async (token: string, subject: string) =>
  (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 50 }, token)).data.list.some((m) => m.subject === subject);

describe('the undo window setting', () => {
  it('is 5 s by default, 0–30 s, and refuses more with a reason', async () => {
    const fresh = await s.login('admin@demo.test');
    expect((await s.get('/h5/setting/undo-send', {}, fresh)).data).toEqual({ seconds: 5 });
    expect(await s.post('/h5/setting/undo-send', { seconds: 31 }, fresh)).toMatchObject({ code: 422, reasons: { seconds: expect.stringMatching(/^input\./) } });
    expect((await s.post('/h5/setting/undo-send', { seconds: 0 }, fresh)).data).toEqual({ seconds: 0 });
    expect((await s.get('/h5/setting/undo-send', {}, fresh)).data).toEqual({ seconds: 0 });
  });
});

describe('the dev clock', () => {
  it('is not there unless DEV_CLOCK is on: the window always runs on real time (features/dev-clock)', async () => {
    expect((await s.post('/h5/dev/clock', { offsetMs: 60_000 }, alice)).code).toBe(404);
  });
});

describe('sending with undo', () => {
  it('holds local and remote delivery until the window ends, then both go', async () => {
    const before = Date.now();
    const sent = await send({ to: 'bob@demo.test, hank@partner.test', subject: 'Held for undo', html: '<p>x</p>', undo: 1 });
    expect(sent.status).toBe('sending');
    expect(sent.sendAt).toBeNull();
    expect(sent.undoUntil).toBeGreaterThanOrEqual(before + 30_000);
    // A second before the end: nothing local, nothing queued for the MX.
    expect(await compose().dispatchDue(new Date(sent.undoUntil! - 1_000))).toBe(0);
    expect(await inboxHas(bob, 'Held for undo')).toBe(false);
    expect(await outboxOf(sent.id)).toHaveLength(0);
    expect(mx.received).toHaveLength(0);
    // It is not a timed send on the read page: no time of its own to show or cancel.
    expect((await s.get<Mail>('/h5/read/index', { mid: sent.id }, alice)).data).toMatchObject({ sendAt: null, status: 'sending' });

    expect(await compose().dispatchDue(new Date(sent.undoUntil! + 1))).toBe(1);
    expect(await inboxHas(bob, 'Held for undo')).toBe(true);
    const [got] = await mx.waitFor(1);
    expect(got!.to).toEqual(['hank@partner.test']);
    expect(await s.post('/h5/write/undo', { mid: sent.id }, alice)).toMatchObject({ code: 422, reason: 'send.undo_too_late' });
  });

  it('an undo inside the window returns the mail to Drafts with nothing sent, local or remote', async () => {
    const sent = await send({ to: 'bob@demo.test', cc: 'ivy@partner.test', subject: 'Taken back', html: '<p>oops</p>', undo: 1 });
    expect(await compose().dispatchDue(new Date(sent.undoUntil! - 500))).toBe(0);
    const undone = await s.post<{ id: string }>('/h5/write/undo', { mid: sent.id }, alice);
    expect(undone).toMatchObject({ code: 200, data: { id: sent.id } });
    expect(await dispatchOf(sent.id)).toHaveLength(0);
    // Long after the window, the clock finds nothing to send.
    expect(await compose().dispatchDue(new Date(sent.undoUntil! + 3_600_000))).toBe(0);
    expect(await inboxHas(bob, 'Taken back')).toBe(false);
    expect(await outboxOf(sent.id)).toHaveLength(0);
    expect(await db().selectFrom('send_recipients').selectAll().where('sent_id', '=', Number(sent.id)).execute()).toHaveLength(0);
    expect(mx.received).toHaveLength(0);
    // Back in compose: the draft opens with its recipients, subject and text.
    const read = (await s.get<Mail>('/h5/read/index', { mid: sent.id }, alice)).data;
    expect(read.mid).toBe(SystemFolder.Drafts);
    const draft = (await s.get<ComposeData>('/h5/write/load', { mid: sent.id, mode: 'edit' }, alice)).data;
    expect(draft).toMatchObject({ subject: 'Taken back', draftId: sent.id, to: [{ address: 'bob@demo.test' }], cc: [{ address: 'ivy@partner.test' }] });
    expect(draft.html).toContain('oops');
    // Another mailbox cannot undo it, and neither can a second undo.
    expect(await s.post('/h5/write/undo', { mid: sent.id }, alice)).toMatchObject({ code: 422, reason: 'send.undo_too_late' });
  });

  it('belongs to its sender: another mailbox’s undo changes nothing', async () => {
    const sent = await send({ to: 'bob@demo.test', subject: 'Mine to undo', undo: 1 });
    expect(await s.post('/h5/write/undo', { mid: sent.id }, bob)).toMatchObject({ code: 422, reason: 'send.undo_too_late' });
    expect(await dispatchOf(sent.id)).toHaveLength(1);
    expect(await compose().dispatchDue(new Date(sent.undoUntil! + 1))).toBe(1);
    expect(await inboxHas(bob, 'Mine to undo')).toBe(true);
  });

  it('a timed send is cancelled, not undone', async () => {
    const sent = await send({ to: 'bob@demo.test', subject: 'Timed, not undoable', sendAt: Math.floor(Date.now() / 1000) + 3600, undo: 1 });
    expect(sent.undoUntil).toBeNull();
    expect(await s.post('/h5/write/undo', { mid: sent.id }, alice)).toMatchObject({ code: 422, reason: 'send.undo_too_late' });
    expect((await s.post('/h5/write/cancel-timed', { mid: sent.id }, alice)).code).toBe(200);
  });

  it('with a 0 s window, or without undo, the mail goes at once', async () => {
    await s.post('/h5/setting/undo-send', { seconds: 0 }, alice);
    const zero = await send({ to: 'bob@demo.test', subject: 'No window', undo: 1 });
    expect(zero).toMatchObject({ status: 'sent', undoUntil: null });
    await s.post('/h5/setting/undo-send', { seconds: 30 }, alice);
    const plain = await send({ to: 'bob@demo.test', subject: 'No undo asked' });
    expect(plain).toMatchObject({ status: 'sent', undoUntil: null });
    expect(await inboxHas(bob, 'No window')).toBe(true);
    expect(await inboxHas(bob, 'No undo asked')).toBe(true);
  });
});

describe('a refused recipient', () => {
  it('is named with its field and a reason code the client words itself', async () => {
    const r = await s.post('/h5/write/send', { to: 'bob@demo.test', cc: 'nobody@demo.test', subject: 'typo', undo: 1 }, alice);
    expect(r).toMatchObject({
      code: 422, reason: 'send.no_such_mailbox', reasons: { cc: 'send.no_such_mailbox' },
      refused: [{ address: 'nobody@demo.test', field: 'cc', reason: 'send.no_such_mailbox' }],
    });
    expect(await inboxHas(bob, 'typo')).toBe(false);
  });
});
