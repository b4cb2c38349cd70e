import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, type SmtpLimitsConfig } from '../src/config.js';
import { IpLimiter, clientKey } from '../src/smtp/ip-limiter.js';
import { startTestServer, type TestServer } from './harness.js';
import { openSmtp, replies, startTransaction } from './smtp-socket.js';

// Issue 12, finding 5 (one client holding the MX) and the directory-harvesting bullet of
// finding 10. Every client here is 127.0.0.1; the limits are small so nothing waits long.

const defaults = testConfig({ dataDir: '/unused' }).smtpLimits;

// One server for the file; each group restarts it with its own limits (a fresh receiver, fresh counts).
let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => s?.stop());
const withLimits = (limits: Partial<SmtpLimitsConfig>) => s.restart({ smtpLimits: { ...defaults, ...limits } });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `text` one byte every `everyMs` until it is all out or the socket closed; returns the bytes written. */
async function trickle(write: (b: string) => void, closed: Promise<void>, text: string, everyMs: number): Promise<number> {
  let open = true;
  void closed.then(() => { open = false; });
  let sent = 0;
  while (open && sent < text.length) {
    write(text[sent++]!);
    await pause(everyMs);
  }
  return sent;
}

describe('per-IP connection cap and the unknown-recipient tarpit', () => {
  beforeAll(() => withLimits({ maxConnectionsPerIp: 3, tarpitAfterUnknownRcpts: 3, tarpitDelayMs: 50, maxUnknownRcpts: 10 }));

  it('the connection over the cap gets 421 at connect; a session that ends frees its slot', async () => {
    const open = await Promise.all([0, 1, 2].map(() => openSmtp(s.smtpPort)));
    try {
      for (const c of open) expect(await c.reply()).toMatch(/^220 /);
      const extra = await openSmtp(s.smtpPort);
      expect(await extra.reply()).toBe('421 4.7.0 Too many connections from your address');
      await extra.closed;

      open[0]!.send('QUIT');
      expect(await open[0]!.reply()).toMatch(/^221 /);
      await open[0]!.closed;
      const again = await openSmtp(s.smtpPort);
      expect(await again.reply()).toMatch(/^220 /);
      again.destroy();
    } finally {
      for (const c of open) c.destroy();
    }
  });

  it('clients that vanish without QUIT give their slots back', async () => {
    for (let round = 0; round < 2; round++) {
      const open = await Promise.all([0, 1, 2].map(() => openSmtp(s.smtpPort)));
      for (const c of open) expect(await c.reply()).toMatch(/^220 /);
      for (const c of open) c.destroy();
      await Promise.all(open.map((c) => c.closed));
    }
  });

  it('unknown recipients are answered slower and slower, and the session ends before the 20th, across RSET; known ones still work', async () => {
    const c = await openSmtp(s.smtpPort);
    try {
      await startTransaction(c);
      c.send('RCPT TO:<alice@demo.test>');
      expect(await c.reply()).toMatch(/^250 /);
      const answers: { reply: string; ms: number }[] = [];
      for (let i = 1; i <= 20; i++) {
        if (i === 5) {
          // A new transaction does not reset the count.
          c.send('RSET');
          expect(await c.reply()).toMatch(/^250 /);
          c.send('MAIL FROM:<sender@outside.example>');
          expect(await c.reply()).toMatch(/^250 /);
          c.send('RCPT TO:<bob@demo.test>');
          expect(await c.reply()).toMatch(/^250 /);
        }
        const t0 = performance.now();
        c.send(`RCPT TO:<nobody${i}@demo.test>`);
        const reply = await c.reply();
        answers.push({ reply, ms: performance.now() - t0 });
        if (reply.startsWith('421')) break;
      }
      await c.closed;
      expect(answers).toHaveLength(10);
      for (const a of answers.slice(0, 9)) expect(a.reply).toMatch(/^550 5\.1\.1 <nobody\d+@demo\.test>: no such mailbox here$/);
      expect(answers[9]!.reply).toBe('421 4.7.0 Too many unknown recipients');
      // Answers 4..9 wait 50, 100, … 300 ms.
      expect(answers[3]!.ms).toBeGreaterThanOrEqual(45);
      expect(answers[8]!.ms).toBeGreaterThanOrEqual(290);
    } finally {
      c.destroy();
    }
  });

  it('the server still takes mail afterwards', async () => {
    const info = await s.send({ from: 'x@outside.example', to: 'alice@demo.test', subject: 'after the limits', text: 'ok' });
    expect(info.response).toMatch(/^250 /);
  });
});

describe('per-IP connection rate', () => {
  beforeAll(() => withLimits({ connectionsPerMinutePerIp: 4 }));

  it('the fifth new session within a minute gets 421 at connect', async () => {
    for (let i = 0; i < 4; i++) {
      const c = await openSmtp(s.smtpPort);
      expect(await c.reply()).toMatch(/^220 /);
      c.send('QUIT');
      await c.reply();
      await c.closed;
    }
    const c = await openSmtp(s.smtpPort);
    expect(await c.reply()).toBe('421 4.7.0 Too many new connections from your address, try again later');
    await c.closed;
  });
});

describe('IpLimiter', () => {
  it('refills the rate evenly over the minute', () => {
    let now = 0;
    const l = new IpLimiter({ maxConcurrent: 100, perMinute: 4 }, () => now);
    for (let i = 0; i < 4; i++) {
      expect(l.admit('192.0.2.1')).toBe('ok');
      l.release('192.0.2.1');
    }
    expect(l.admit('192.0.2.1')).toBe('too_fast');
    expect(l.admit('192.0.2.2')).toBe('ok');
    now += 14_000;
    expect(l.admit('192.0.2.1')).toBe('too_fast');
    now += 2_000;
    expect(l.admit('192.0.2.1')).toBe('ok');
    expect(l.admit('192.0.2.1')).toBe('too_fast');
  });

  it('counts an IPv6 client by its /64', () => {
    const l = new IpLimiter({ maxConcurrent: 2, perMinute: 100 });
    expect(l.admit('2001:db8::1')).toBe('ok');
    expect(l.admit('2001:db8::ffff:2')).toBe('ok');
    expect(l.admit('2001:db8:0:0:1::3')).toBe('too_many');
    expect(l.admit('2001:db8:0:1::1')).toBe('ok');
    l.release('2001:db8::1');
    expect(l.admit('2001:db8::1:2:3:4')).toBe('ok');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::ffff:0:192.0.2.1')).toBe('0:0:0:0::/64');
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('slow clients', () => {
  beforeAll(() => withLimits({ commandDeadlineMs: 300 }));

  it('a command trickled a byte every 100 ms is cut off with 421 by the line deadline', async () => {
    const c = await openSmtp(s.smtpPort);
    try {
      expect(await c.reply()).toMatch(/^220 /);
      const t0 = performance.now();
      const sent = trickle((b) => c.socket.write(b), c.closed, 'EHLO a-very-slow-client.example\r\n', 100);
      expect(await c.reply()).toBe('421 4.4.2 Command line not completed in time, closing connection');
      await c.closed;
      expect(performance.now() - t0).toBeLessThan(2_000);
      expect(await sent).toBeLessThan(10);
    } finally {
      c.destroy();
    }
  });

  it('a message line trickled in DATA is cut off the same way', async () => {
    const c = await openSmtp(s.smtpPort);
    try {
      await startTransaction(c);
      c.send('RCPT TO:<alice@demo.test>');
      expect(await c.reply()).toMatch(/^250 /);
      c.send('DATA');
      expect(await c.reply()).toMatch(/^354 /);
      c.send('Subject: slow');
      void trickle((b) => c.socket.write(b), c.closed, 'one byte at a time, for ever and ever\r\n', 100);
      expect(await c.reply()).toBe('421 4.4.2 Command line not completed in time, closing connection');
      await c.closed;
    } finally {
      c.destroy();
    }
  });

  it('waiting between whole commands is not cut off by the line deadline', async () => {
    const c = await openSmtp(s.smtpPort);
    try {
      expect(await c.reply()).toMatch(/^220 /);
      await pause(700);
      c.send('EHLO patient.example');
      expect(await c.reply()).toMatch(/^250[- ]/);
      await pause(700);
      c.send('NOOP');
      expect(await c.reply()).toMatch(/^250 /);
    } finally {
      c.destroy();
    }
  });

  it('after STARTTLS the deadline holds inside TLS, and a stalled handshake is closed', async () => {
    const c = await openSmtp(s.smtpPort);
    try {
      expect(await c.reply()).toMatch(/^220 /);
      c.send('EHLO tls.example');
      expect(await c.reply()).toContain('STARTTLS');
      c.send('STARTTLS');
      expect(await c.reply()).toMatch(/^220 /);
      c.socket.removeAllListeners('data');
      const secure = tls.connect({ socket: c.socket, rejectUnauthorized: false });
      const r = replies(secure);
      await new Promise<void>((resolve, reject) => { secure.once('secureConnect', () => resolve()); secure.once('error', reject); });
      secure.write('EHLO tls.example\r\n');
      expect(await r.reply()).toMatch(/^250[- ]/);
      void trickle((b) => secure.write(b), r.closed, 'NOOP and some more bytes\r\n', 100);
      expect(await r.reply()).toBe('421 4.4.2 Command line not completed in time, closing connection');
      await r.closed;
    } finally {
      c.destroy();
    }

    const stalled = await openSmtp(s.smtpPort);
    try {
      expect(await stalled.reply()).toMatch(/^220 /);
      stalled.send('EHLO tls.example');
      await stalled.reply();
      stalled.send('STARTTLS');
      expect(await stalled.reply()).toMatch(/^220 /);
      const t0 = performance.now();
      // No handshake follows; the idle timeout (60 s here) would wait far longer.
      await stalled.closed;
      expect(performance.now() - t0).toBeLessThan(2_000);
    } finally {
      stalled.destroy();
    }
  });
});

describe('session length', () => {
  beforeAll(() => withLimits({ commandDeadlineMs: 300, maxSessionMs: 1_000 }));

  it('a busy session is closed with 421 when it reaches the longest session', async () => {
    const c = await openSmtp(s.smtpPort);
    try {
      expect(await c.reply()).toMatch(/^220 /);
      const got: string[] = [];
      for (let i = 0; i < 40; i++) {
        c.send('NOOP');
        const reply = await c.reply().catch(() => 'closed');
        got.push(reply);
        if (!reply.startsWith('250')) break;
        await pause(100);
      }
      await c.closed;
      expect(got.at(-1)).toBe('421 4.4.2 Session time limit reached, closing connection');
      expect(got.filter((g) => g.startsWith('250')).length).toBeGreaterThanOrEqual(3);
      expect(c.closedAfterMs()).toBeGreaterThanOrEqual(1_000);
      expect(c.closedAfterMs()).toBeLessThan(3_000);
    } finally {
      c.destroy();
    }
  });
});
