import { generateKeyPairSync } from 'node:crypto';
import { authenticate } from 'mailauth';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authResolver } from '../src/smtp/auth-dns.js';
import { senderCheck, type AuthPeer } from '../src/smtp/sender-auth.js';
import { startDnsStandIn, type Zone } from './dns-standin.js';

// senderCheck runs mailauth's SPF, DKIM and DMARC itself so it can keep SPF answers
// (sender-auth.ts). Its answer must be what mailauth's authenticate() gives for the same
// message, and a kept SPF answer must be one the DNS would still give. DNS is a loopback
// stand-in, asked through the resolver the server uses (auth-dns.ts), on a clock of our own.

const key = generateKeyPairSync('rsa', { modulusLength: 1024 });
const zone: Zone = {
  'good.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
  '_dmarc.good.example': { txt: ['v=DMARC1; p=reject'] },
  'sel1._domainkey.good.example': { txt: [`v=DKIM1; k=rsa; p=${key.publicKey.export({ type: 'spki', format: 'pem' }).toString().replace(/-----[^-]+-----|\s/g, '')}`] },
  'strict.example': { txt: ['v=spf1 ip4:192.0.2.1 -all'] },
  '_dmarc.strict.example': { txt: ['v=DMARC1; p=quarantine'] },
  'moving.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
  'broken.example': { servfail: true },
};

let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
beforeAll(async () => { dns = await startDnsStandIn(zone); });
afterAll(async () => { await dns?.close(); });

async function compose(from: string, dkim = false, text = 'Hello\r\n'): Promise<Buffer> {
  const t = nodemailer.createTransport({
    streamTransport: true, buffer: true, newline: 'windows',
    dkim: dkim ? { domainName: 'good.example', keySelector: 'sel1', privateKey: key.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() } : undefined,
  });
  return (await t.sendMail({ from, to: 'bob@demo.test', subject: 'Q3', text })).message as Buffer;
}

const peer = (mailFrom: string, helo = 'mta.outside.example'): AuthPeer => ({ ip: '127.0.0.1', helo, mailFrom, mta: 'mx.test' });

describe('senderCheck', () => {
  it.each([
    ['an unsigned mail whose SPF and DMARC pass', 'a@good.example', false, peer('a@good.example')],
    ['a signed mail, with a body', 'a@good.example', true, peer('a@good.example')],
    ['an SPF and DMARC failure', 'x@strict.example', false, peer('x@strict.example')],
    ['a bounce (null sender) with an address literal as HELO', 'a@good.example', false, peer('', '127.0.0.1')],
    ['a domain whose DNS fails', 'x@broken.example', false, peer('x@broken.example')],
  ])('answers as mailauth’s authenticate() for %s', async (_, from, dkim, p) => {
    const raw = await compose(from, dkim, 'quarterly report\r\n'.repeat(200));
    const resolver = authResolver([dns.server], 1000);
    const ours = await senderCheck(resolver)(raw, p);
    const theirs = await authenticate(raw, { ip: p.ip, helo: p.helo, sender: p.mailFrom || undefined, mta: p.mta, resolver, disableArc: true, disableBimi: true });
    expect(ours.headers).toBe(theirs.headers);
    expect(ours.spf).toEqual(theirs.spf);
    expect(ours.dmarc).toEqual(theirs.dmarc);
    expect(ours.dkim).toEqual({ results: theirs.dkim.results, headerFrom: theirs.dkim.headerFrom });
    // The answers differ between the cases, so the comparison above compares something.
    expect(ours.headers).toMatch(/^Received-SPF: \w+ .*\r\nAuthentication-Results: mx\.test;\r\n dkim=/s);
  });

  it('keeps an SPF answer as long as its DNS answers are kept, and never a temporary error', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const dnsCache = authResolver([dns.server], 1000, clock);
    // The resolver's own cache answers the same names for 30 s, so what is counted is what SPF asks of it.
    const asks: string[] = [];
    const resolver = ((name: string, type: string) => { asks.push(`${type} ${name}`); return dnsCache(name, type); }) as typeof dnsCache;
    const check = senderCheck(resolver, clock);
    const raw = await compose('a@moving.example');
    const spfQuestions = () => asks.filter((q) => q === 'TXT moving.example').length;

    const first = await check(raw, peer('a@moving.example'));
    expect(first.spf && first.spf.status.result).toBe('pass');
    const asked = spfQuestions();
    expect(asked).toBe(1);
    zone['moving.example'] = { txt: ['v=spf1 -all'] };
    now += 29_000;
    expect((await check(raw, peer('a@moving.example'))).spf).toEqual(first.spf);
    // Another client of the same sender is another question.
    const other = await check(raw, peer('a@moving.example', 'other.example'));
    expect(other.spf && other.spf.status.result).toBe('pass');
    expect(other.spf && other.spf.helo).toBe('other.example');
    expect(spfQuestions()).toBe(asked + 1);

    now += 2_000;
    const later = await check(raw, peer('a@moving.example'));
    expect(later.spf && later.spf.status.result).toBe('fail');
    expect(spfQuestions()).toBe(asked + 2);

    const broken = await compose('x@broken.example');
    expect((await check(broken, peer('x@broken.example'))).spf).toMatchObject({ status: { result: 'temperror' } });
    zone['broken.example'] = { txt: ['v=spf1 ip4:127.0.0.1 -all'] };
    expect((await check(broken, peer('x@broken.example'))).spf).toMatchObject({ status: { result: 'pass' } });
  });
});
