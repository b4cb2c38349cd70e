import type { MailList, SendResult } from '@mailwing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startDemo, type TestServer } from './harness.js';

// DEV_CLOCK (features/dev-clock): the browser suite's way to see a timed send leave at its
// time without waiting for it. Here the background runner polls once an hour, so only the
// clock's move (and the wake-up that comes with it) can send the mail.

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo({
    workers: true, devClock: true,
    delivery: { relay: undefined, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 3_600_000, concurrency: 10 },
  }));
}, 180_000);
afterAll(async () => s?.stop());

const inboxHas = async (token: string, subject: string) =>
  (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 50 }, token)).data.list.some((m) => m.subject === subject);

describe('the dev clock', () => {
  it('sends a timed mail once moved past its time, and not before', async () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    const sent = (await s.post<SendResult>('/h5/write/send', { to: 'bob@demo.test', subject: 'Due in an hour', html: '<p>x</p>', sendAt: at }, alice)).data;
    expect(sent.sendAt).toBe(at);

    const early = await s.post<{ now: string }>('/h5/dev/clock', { offsetMs: 30 * 60_000 }, alice);
    expect(early.code).toBe(200);
    expect(Date.parse(early.data.now)).toBeGreaterThan(Date.now() + 29 * 60_000);
    // The wake-up ran a pass that found nothing due: the dispatcher says so when asked with that clock.
    expect(await s.rt.services.compose.dispatchDue()).toBe(0);
    expect(await inboxHas(bob, 'Due in an hour')).toBe(false);

    expect((await s.post('/h5/dev/clock', { offsetMs: 3600_000 + 5_000 }, alice)).code).toBe(200);
    await expect.poll(() => inboxHas(bob, 'Due in an hour'), { timeout: 30_000 }).toBe(true);
    expect((await s.post('/h5/dev/clock', { offsetMs: 0 }, alice)).code).toBe(200);
  });

  it('needs a session and a whole number of milliseconds from 0 to a day', async () => {
    expect((await s.post('/h5/dev/clock', { offsetMs: 1 })).code).toBe(401);
    expect(await s.post('/h5/dev/clock', { offsetMs: -1 }, alice)).toMatchObject({ code: 422, reasons: { offsetMs: expect.stringMatching(/^input\./) } });
    expect(await s.post('/h5/dev/clock', { offsetMs: 'soon' }, alice)).toMatchObject({ code: 422, reasons: { offsetMs: expect.stringMatching(/^input\./) } });
    expect(await s.post('/h5/dev/clock', { offsetMs: 25 * 3600_000 }, alice)).toMatchObject({ code: 422 });
  });
});

describe('the DEV_CLOCK setting', () => {
  it('is refused in production and with several processes, and off by default', () => {
    const env = { DATA_DIR: '/tmp/mw-dev-clock' };
    expect(loadConfig(env).devClock).toBe(false);
    expect(loadConfig({ ...env, DEV_CLOCK: '1' }).devClock).toBe(true);
    expect(() => loadConfig({ ...env, DEV_CLOCK: '1', NODE_ENV: 'production' })).toThrow(/DEV_CLOCK/);
    expect(() => loadConfig({ ...env, DEV_CLOCK: '1', DATABASE_URL: 'postgres://x@127.0.0.1/y', PROCESSES: '2' })).toThrow(/DEV_CLOCK/);
  });
});
