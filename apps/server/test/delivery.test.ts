import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import type { Mail, MailList, SendResult } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

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
});
afterAll(async () => {
  await s.stop();
  await mx.close();
});
beforeEach(() => {
  mx.received.length = 0;
  mx.answer = () => null;
  mx.beforeAnswer = undefined;
});

async function send(token: string, form: Record<string, string | number>): Promise<SendResult> {
  const r = await s.post<SendResult>('/h5/write/send', form, token);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data;
}

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const readMail = async (token: string, id: string) => (await s.get<Mail>('/h5/read/index', { mid: id }, token)).data;
const outboxOf = (sentId: string) => s.rt.services.db.selectFrom('outbox').selectAll().where('message_id', '=', Number(sentId)).execute();

describe('outbound delivery through the queue', () => {
  it('delivers to the outside server over STARTTLS with a DKIM signature that verifies', async () => {
    const sent = await send(alice, { to: 'carol@partner.test', subject: '你好 Carol', html: '<p>季度报告见附件</p>' });
    expect(sent.status).toBe('sending');
    const [got] = await mx.waitFor(1);
    expect(got).toMatchObject({ from: 'alice@demo.test', to: ['carol@partner.test'], secure: true });
    const parsed = await simpleParser(got!.raw);
    expect(parsed.subject).toBe('你好 Carol');
    expect(parsed.headers.has('bcc')).toBe(false);

    const domain = await s.rt.services.db.selectFrom('domains').select(['dkim_selector', 'dkim_public_key']).where('name', '=', 'demo.test').executeTakeFirstOrThrow();
    // mailauth's resolver option stands in for DNS: it answers with the TXT record admins publish.
    const result = await dkimVerify(got!.raw, {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === `${domain.dkim_selector}._domainkey.demo.test`) return [[`v=DKIM1; k=rsa; p=${domain.dkim_public_key}`]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(result.results[0]?.status.result).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe('demo.test');

    const done = await until('sent status', async () => {
      const m = await readMail(alice, sent.id);
      return m.status === 'sent' ? m : null;
    });
    expect(done.deliveries).toEqual([expect.objectContaining({ address: 'carol@partner.test', kind: 'external', status: 'sent', attempts: 1 })]);
  });

  it('retries after a 4xx and succeeds, showing the deferral meanwhile', async () => {
    mx.answer = (_rcpt, attempt) => (attempt === 1 ? '451 4.7.1 greylisted, try again later' : null);
    const sent = await send(alice, { to: 'dave@partner.test', subject: 'Greylisted' });
    await mx.waitFor(1);
    const rows = await until('sent', async () => {
      const r = await outboxOf(sent.id);
      return r[0]?.status === 'sent' ? r : null;
    });
    expect(rows[0]!.attempts).toBe(2);
    expect((await readMail(alice, sent.id)).status).toBe('sent');
  });

  it('a 5xx fails the recipient at once and puts a DSN bounce in the sender’s inbox', async () => {
    // Set before the send: the worker may deliver before send() has even returned.
    mx.answer = (rcpt) => (rcpt === 'erin@partner.test' ? '550 5.1.1 <erin@partner.test>: Recipient address rejected: User unknown' : null);
    const sent = await send(alice, { to: 'erin@partner.test, frank@partner.test', subject: 'Will bounce' });
    // Both recipients settled (an empty or still-queued list is not "settled").
    const mail = await until('send_failed', async () => {
      const m = await readMail(alice, sent.id);
      return m.deliveries.length === 2 && m.deliveries.every((d) => d.status === 'sent' || d.status === 'send_failed') ? m : null;
    });
    expect(mail.status).toBe('send_failed');
    const erin = mail.deliveries.find((d) => d.address === 'erin@partner.test')!;
    expect(erin).toMatchObject({ status: 'send_failed', attempts: 1 });
    expect(erin.error).toContain('User unknown');
    expect(mail.deliveries.find((d) => d.address === 'frank@partner.test')?.status).toBe('sent');

    // The bounce is stored by the delivery's own batch, which may commit just after the status.
    const bounce = await until('bounce', async () => {
      const inbox = (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 50 }, alice)).data;
      return inbox.list.find((m) => m.subject.startsWith('Undelivered Mail Returned to Sender: Will bounce')) ?? null;
    });
    const row = await s.rt.services.db.selectFrom('messages').select('blob_hash').where('id', '=', Number(bounce.id)).executeTakeFirstOrThrow();
    const raw = (await s.rt.services.blobs.get(row.blob_hash)).toString();
    expect(raw).toMatch(/Content-Type: multipart\/report;\s*report-type=delivery-status/i);
    expect(raw).toMatch(/Final-Recipient: rfc822; erin@partner\.test/);
    expect(raw).toMatch(/Status: 5\.1\.1/);
    expect(raw).toMatch(/Action: failed/);
    expect(raw).toContain('Content-Type: text/rfc822-headers');
  });

  it('gives up with a bounce when 4xx answers outlast the retry period', async () => {
    // The background worker stops so that the test alone moves the job, and by a clock it
    // moves: the retry period (60 s here) runs out without waiting for it in wall time.
    await s.rt.services.queue.stop();
    try {
      mx.answer = () => '452 4.2.2 mailbox full';
      const sent = await send(alice, { to: 'gina@partner.test', subject: 'Never accepted' });
      const delivery = s.rt.services.delivery;
      expect(await delivery.runOnce()).toBe(1);
      let [job] = await outboxOf(sent.id);
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect(job!.last_error).toContain('mailbox full');
      expect(job!.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
      // Not yet due: the retry waits out its back-off.
      expect(await delivery.runOnce()).toBe(0);

      expect(await delivery.runOnce(new Date(Date.now() + s.config.delivery.maxAgeMs + 1_000))).toBe(1);
      [job] = await outboxOf(sent.id);
      expect(job).toMatchObject({ status: 'failed', attempts: 2 });
      expect(job!.last_error).toContain('gave up after 2 attempts');
      expect(mx.received.filter((m) => m.to.includes('gina@partner.test'))).toHaveLength(0);
      expect((await readMail(alice, sent.id)).status).toBe('send_failed');
      const inbox = (await s.get<MailList>('/h5/mail/list', { mid: '0', size: 50 }, alice)).data;
      expect(inbox.list.some((m) => m.subject.startsWith('Undelivered Mail Returned to Sender: Never accepted'))).toBe(true);
    } finally {
      s.rt.services.queue.start();
    }
  });
});

describe('timed send', () => {
  it('waits until its time, survives a restart, then goes to local and outside recipients', async () => {
    // An hour ahead, and the dispatcher is then asked with the clock moved on: the test does
    // not wait for wall time (a 3 s margin was once eaten by a loaded machine before the halt).
    const at = Math.floor(Date.now() / 1000) + 3600;
    const sent = await send(alice, { to: 'bob@demo.test, hank@partner.test', subject: 'Timed hello', sendAt: at });
    expect(sent).toMatchObject({ status: 'sending', sendAt: at });
    const waiting = await readMail(alice, sent.id);
    expect(waiting.sendAt).toBe(at);
    await s.halt();
    await s.restart();
    const compose = s.rt.services.compose;
    expect(await compose.dispatchDue(new Date((at - 1) * 1000))).toBe(0);
    expect(mx.received).toHaveLength(0);
    expect(await compose.dispatchDue(new Date(at * 1000))).toBe(1);
    const [got] = await mx.waitFor(1, 15_000);
    expect(got!.to).toEqual(['hank@partner.test']);
    bob = await s.login('bob@demo.test');
    alice = await s.login('alice@demo.test');
    const inbox = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, bob)).data;
    expect(inbox.list.some((m) => m.subject === 'Timed hello')).toBe(true);
    const done = await until('sent', async () => {
      const m = await readMail(alice, sent.id);
      return m.status === 'sent' ? m : null;
    });
    expect(done.sendAt).toBeNull();
  }, 30_000);

  it('can be cancelled back into Drafts before its time', async () => {
    const sent = await send(alice, { to: 'bob@demo.test', subject: 'Changed my mind', sendAt: Math.floor(Date.now() / 1000) + 3600 });
    expect((await s.post('/h5/write/cancel-timed', { mid: sent.id }, bob)).code).toBe(404);
    const r = await s.post<{ id: string }>('/h5/write/cancel-timed', { mid: sent.id }, alice);
    expect(r.data.id).toBe(sent.id);
    expect((await readMail(alice, sent.id)).mid).toBe('2');
    expect(await s.rt.services.compose.dispatchDue()).toBe(0);
  });
});

describe('at-least-once delivery across a crash', () => {
  it('a crash between the remote 250 and its record resends at most once, and a recorded success never', async () => {
    // Queue the job with no worker running, then hand the data to a second process.
    await s.restart({ workers: false });
    alice = await s.login('alice@demo.test');
    const sent = await send(alice, { to: 'ivan@partner.test', subject: 'Crash window' });
    await s.halt();

    const child = fork(fileURLToPath(new URL('./fixtures/delivery-child.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env, DATA_DIR: s.config.dataDir, ...(s.config.databaseUrl ? { DATABASE_URL: s.config.databaseUrl } : {}),
        SMTP_RELAY: `smtp://127.0.0.1:${mx.port}`, DELIVERY_LEASE_MS: '1500', DELIVERY_POLL_MS: '100', PARSE_WORKERS: '0', LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The remote server has the whole message; the sender dies before it hears 250.
    mx.beforeAnswer = async () => {
      mx.beforeAnswer = undefined;
      child.kill('SIGKILL');
      await exited;
    };
    await mx.waitFor(1, 30_000);
    await exited;

    await s.restart({ workers: true });
    await mx.waitFor(2, 20_000);
    const [job] = await until('sent', async () => {
      const r = await outboxOf(sent.id);
      return r[0]?.status === 'sent' ? r : null;
    });
    expect(job!.attempts).toBe(2);

    // Recorded: a restart, and a pass long after every lease has run out, deliver nothing more.
    await s.restart({ workers: true });
    expect(await s.rt.services.delivery.runOnce(new Date(Date.now() + 3_600_000))).toBe(0);
    expect(mx.received.filter((m) => m.to.includes('ivan@partner.test'))).toHaveLength(2);
  }, 90_000);
});
