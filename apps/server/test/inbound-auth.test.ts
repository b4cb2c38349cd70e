import { generateKeyPairSync } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemFolder, type Mail, type MailList } from '@mailwing/shared';
import { testConfig } from '../src/config.js';
import { startDnsStandIn, type Zone } from './dns-standin.js';
import { startDemo, type TestServer } from './harness.js';

// Sender authentication over real SMTP on loopback: the server's SPF, DKIM and DMARC
// lookups go to a loopback DNS stand-in that serves the TXT records below. Our SMTP
// client connects from 127.0.0.1, so "ip4:127.0.0.1" is an authorised sender.

const outsideKey = generateKeyPairSync('rsa', { modulusLength: 1024 });
const dkimTxt = (spkiPem: string) => `v=DKIM1; k=rsa; p=${spkiPem.replace(/-----[^-]+-----|\s/g, '')}`;

const zone: Zone = {
  'good.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
  'sel1._domainkey.good.example': { txt: [dkimTxt(outsideKey.publicKey.export({ type: 'spki', format: 'pem' }).toString())] },
  '_dmarc.good.example': { txt: ['v=DMARC1; p=reject'] },
  'strict.example': { txt: ['v=spf1 ip4:192.0.2.1 -all'] },
  '_dmarc.strict.example': { txt: ['v=DMARC1; p=reject'] },
  'careful.example': { txt: ['v=spf1 ip4:192.0.2.1 -all'] },
  '_dmarc.careful.example': { txt: ['v=DMARC1; p=quarantine'] },
  'nodmarc.example': { txt: ['v=spf1 ip4:192.0.2.1 -all'] },
  'lists.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
  'broken.example': { servfail: true },
  '_dmarc.broken.example': { servfail: true },
  'slow.example': { silent: true },
  '_dmarc.slow.example': { silent: true },
};

let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  dns = await startDnsStandIn(zone);
  const base = testConfig({ dataDir: '' });
  ({ s, alice, bob } = await startDemo({
    delivery: { ...base.delivery, dnsServers: [dns.server] },
    // A resolver that never answers costs this much per question, and no more.
    inboundAuth: { dnsTimeoutMs: 300, deadlineMs: 5_000 },
  }));
  // Publish the demo domain's own DKIM key, as its owner would.
  const demo = await s.rt.services.db.selectFrom('domains').select(['dkim_selector', 'dkim_public_key']).where('name', '=', 'demo.test').executeTakeFirstOrThrow();
  zone[`${demo.dkim_selector}._domainkey.demo.test`] = { txt: [dkimTxt(demo.dkim_public_key)] };
});
afterAll(async () => {
  await s?.stop();
  await dns?.close();
});

/** Sends over SMTP as another server would: its own HELO name, optionally DKIM-signed. */
async function send(mail: SendMailOptions, dkim?: { domainName: string; keySelector: string; privateKey: string }) {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port: s.smtpPort, secure: false, ignoreTLS: true, name: 'mta.outside.example', dkim });
  try {
    return await t.sendMail({ text: 'Hello', ...mail });
  } finally {
    t.close();
  }
}

async function find(token: string, mid: string, subject: string) {
  const list = await s.get<MailList>('/h5/mail/list', { mid, page: 1, size: 50 }, token);
  return list.data.list.find((m) => m.subject === subject);
}

async function read(token: string, mid: string, subject: string): Promise<Mail> {
  const row = await find(token, mid, subject);
  expect(row, `"${subject}" in folder ${mid}`).toBeDefined();
  return (await s.get<Mail>('/h5/read/index', { mid: row!.id }, token)).data;
}

const goodKey = { domainName: 'good.example', keySelector: 'sel1', privateKey: outsideKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };

describe('mail claiming a hosted domain through MX', () => {
  it('refuses a hosted domain in MAIL FROM, and stores nothing', async () => {
    await expect(send({ from: 'Admin <admin@demo.test>', to: 'alice@demo.test', subject: 'Envelope spoof' }))
      .rejects.toThrow(/550 5\.7\.1 <admin@demo\.test>/);
    expect(await find(alice, SystemFolder.Inbox, 'Envelope spoof')).toBeUndefined();
  });

  it('refuses a hosted domain in the header From behind an outside envelope, in any spelling the reader would show', async () => {
    // Each of these is shown to the reader as admin@demo.test (mailparser decodes the encoded word, drops the route).
    const spellings = [
      'Admin <admin@demo.test>', 'Admin <ADMIN@Demo.Test.>', 'staff: Admin <admin@demo.test>;', 'x@good.example, admin@demo.test',
      'admin@=?utf-8?q?demo.test?=', '"admin@demo.test"', 'Admin <@relay.example:admin@demo.test>',
    ];
    for (const [i, from] of spellings.entries()) {
      const raw = `From: ${from}\r\nTo: alice@demo.test\r\nSubject: Header spoof ${i}\r\nMessage-ID: <spoof${i}@good.example>\r\n\r\nPay this invoice.\r\n`;
      await expect(send({ raw, envelope: { from: 'bounce@good.example', to: ['alice@demo.test'] } }), from)
        .rejects.toThrow(/550 5\.7\.1 From: names demo\.test/);
    }
    const list = await s.get<MailList>('/h5/mail/list', { mid: SystemFolder.Inbox, page: 1, size: 50 }, alice);
    expect(list.data.list.filter((m) => m.subject.startsWith('Header spoof'))).toEqual([]);
  });

  it('quarantines a colleague’s mail signed with our own key that came back through an outside list', async () => {
    const demo = await s.rt.services.db.selectFrom('domains').select(['dkim_selector', 'dkim_private_key']).where('name', '=', 'demo.test').executeTakeFirstOrThrow();
    await send({ from: 'Bob Li <bob@demo.test>', to: 'alice@demo.test', subject: 'Via the list', envelope: { from: 'bounces@lists.example', to: ['alice@demo.test'] } },
      { domainName: 'demo.test', keySelector: demo.dkim_selector, privateKey: demo.dkim_private_key });
    expect(await find(alice, SystemFolder.Inbox, 'Via the list')).toBeUndefined();
    const mail = await read(alice, SystemFolder.Spam, 'Via the list');
    expect(mail.auth).toMatchObject({ external: true, verdict: 'pass', dkim: 'pass' });
  });
});

describe('SPF, DKIM and DMARC', () => {
  it('stores pass results for an outside sender with SPF and DKIM, marks it external, and prepends Authentication-Results', async () => {
    const info = await send({ from: 'News <news@good.example>', to: 'alice@demo.test', subject: 'Signed newsletter' }, goodKey);
    expect(info.response).toMatch(/^250 /);
    const mail = await read(alice, SystemFolder.Inbox, 'Signed newsletter');
    expect(mail.auth).toEqual({ external: true, verdict: 'pass', spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    const row = await s.rt.services.db.selectFrom('messages').select(['auth_results', 'blob_hash']).where('id', '=', Number(mail.id)).executeTakeFirstOrThrow();
    expect(row.auth_results).toMatchObject({ external: true, dkimDomain: 'good.example', fromDomain: 'good.example', action: 'deliver' });
    const raw = (await s.rt.services.blobs.get(row.blob_hash)).toString('latin1');
    const head = raw.slice(0, raw.indexOf('\r\nReceived: from'));
    expect(head).toMatch(/^Return-Path: <news@good\.example>\r\nReceived-SPF: pass /);
    expect(head).toMatch(/\r\nAuthentication-Results: mx\.test\.local;\r\n dkim=pass header\.i=@good\.example/);
    expect(head).toMatch(/spf=pass/);
    expect(head).toMatch(/dmarc=pass/);
  });

  it('checks a message too big to hold in memory: unsigned on its header block, signed through its body hash', async () => {
    // Past 256 KB the message is spooled; an unsigned one is checked on its header block (authInput).
    const text = 'quarterly figures\r\n'.repeat(20_000);
    expect((await send({ from: 'news@good.example', to: 'alice@demo.test', subject: 'Big unsigned', text })).response).toMatch(/^250 /);
    expect((await send({ from: 'news@good.example', to: 'alice@demo.test', subject: 'Big signed', text }, goodKey)).response).toMatch(/^250 /);
    expect((await read(alice, SystemFolder.Inbox, 'Big unsigned')).auth).toEqual({ external: true, verdict: 'pass', spf: 'pass', dkim: 'none', dmarc: 'pass' });
    expect((await read(alice, SystemFolder.Inbox, 'Big signed')).auth).toEqual({ external: true, verdict: 'pass', spf: 'pass', dkim: 'pass', dmarc: 'pass' });
  });

  it('refuses a DMARC failure of a domain whose policy is reject', async () => {
    await expect(send({ from: 'CEO <ceo@strict.example>', to: 'alice@demo.test', subject: 'Wire transfer' }))
      .rejects.toThrow(/550 5\.7\.1 Rejected by the DMARC policy of strict\.example/);
    expect(await find(alice, SystemFolder.Inbox, 'Wire transfer')).toBeUndefined();
  });

  it('files a DMARC failure of a domain whose policy is quarantine in Spam, marked failed', async () => {
    await send({ from: 'billing@careful.example', to: 'bob@demo.test', subject: 'Your invoice' });
    expect(await find(bob, SystemFolder.Inbox, 'Your invoice')).toBeUndefined();
    const mail = await read(bob, SystemFolder.Spam, 'Your invoice');
    expect(mail.auth).toEqual({ external: true, verdict: 'fail', spf: 'fail', dkim: 'none', dmarc: 'fail' });
  });

  it('accepts a failing SPF of a domain without DMARC into the Inbox, marked failed', async () => {
    await send({ from: 'someone@nodmarc.example', to: 'bob@demo.test', subject: 'No DMARC here' });
    const mail = await read(bob, SystemFolder.Inbox, 'No DMARC here');
    expect(mail.auth).toEqual({ external: true, verdict: 'fail', spf: 'fail', dkim: 'none', dmarc: 'none' });
  });

  it('accepts a domain that publishes nothing, with nothing to tell', async () => {
    await send({ from: 'hello@nothing.example', to: 'bob@demo.test', subject: 'Plain outside mail' });
    const mail = await read(bob, SystemFolder.Inbox, 'Plain outside mail');
    expect(mail.auth).toEqual({ external: true, verdict: 'none', spf: 'none', dkim: 'none', dmarc: 'none' });
  });

  it('accepts mail when DNS fails (SERVFAIL) or never answers, as temperror', async () => {
    await send({ from: 'a@broken.example', to: 'bob@demo.test', subject: 'DNS is broken' });
    expect((await read(bob, SystemFolder.Inbox, 'DNS is broken')).auth).toMatchObject({ verdict: 'none', spf: 'temperror', dmarc: 'temperror' });
    await send({ from: 'b@slow.example', to: 'bob@demo.test', subject: 'DNS is silent' });
    expect((await read(bob, SystemFolder.Inbox, 'DNS is silent')).auth).toMatchObject({ verdict: 'none', spf: 'temperror', dmarc: 'temperror' });
  });

  it('leaves mail sent locally between our own users without auth results: no external or failure banner', async () => {
    const sent = await s.post<{ status: string }>('/h5/write/send', { to: 'bob@demo.test', subject: 'Lunch?', text: 'At noon' }, alice);
    expect(sent.data.status).toBe('sent');
    const mail = await read(bob, SystemFolder.Inbox, 'Lunch?');
    expect(mail.from.address).toBe('alice@demo.test');
    expect(mail.auth).toBeUndefined();
  });
});
