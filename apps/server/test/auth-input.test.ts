import { generateKeyPairSync } from 'node:crypto';
import { authenticate } from 'mailauth';
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { authInput } from '../src/smtp/sender-auth.js';

// mailauth is given only the header block of an unsigned message (sender-auth.ts: authInput).
// These compare its whole answer for the header block with its answer for the whole message.

const key = generateKeyPairSync('rsa', { modulusLength: 1024 });
const txt: Record<string, string> = {
  'good.example': 'v=spf1 ip4:127.0.0.1 -all',
  '_dmarc.good.example': 'v=DMARC1; p=reject',
  'sel1._domainkey.good.example': `v=DKIM1; k=rsa; p=${key.publicKey.export({ type: 'spki', format: 'pem' }).toString().replace(/-----[^-]+-----|\s/g, '')}`,
};
const resolver = async (name: string, type: string): Promise<string[][]> => {
  if (type === 'TXT' && txt[name]) return [[txt[name]]];
  throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
};
const check = (raw: Buffer) => authenticate(raw, { ip: '127.0.0.1', helo: 'mta.good.example', sender: 'a@good.example', mta: 'mx.test', resolver, disableArc: true, disableBimi: true });

async function compose(dkim?: boolean, text = 'Hello\r\nquarterly report\r\n'): Promise<Buffer> {
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows', dkim: dkim ? { domainName: 'good.example', keySelector: 'sel1', privateKey: key.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() } : undefined });
  const info = await t.sendMail({ from: 'Alice <a@good.example>', to: 'bob@demo.test', subject: 'Q3', text });
  return info.message as Buffer;
}

describe('authInput', () => {
  it('gives mailauth the header block of an unsigned message, with the same answer as the whole message', async () => {
    const raw = await compose(false, 'Hello\r\n'.repeat(2000));
    const head = authInput(raw);
    expect(head.length).toBeLessThan(raw.length);
    expect(head.subarray(-4).toString()).toBe('\r\n\r\n');
    expect(raw.subarray(0, head.length).equals(head)).toBe(true);
    const [whole, short] = [await check(raw), await check(head)];
    expect(short).toEqual(whole);
    expect(whole.spf && whole.spf.status.result).toBe('pass');
    expect(whole.dmarc && whole.dmarc.status.result).toBe('pass');
  });

  it('gives the whole message when it is signed, and the signature still passes', async () => {
    const raw = await compose(true);
    expect(authInput(raw)).toBe(raw);
    const res = await check(raw);
    expect(res.dkim.results[0]!.status.result).toBe('pass');
    // The body matters here: the header block alone would fail the body hash.
    expect((await check(raw.subarray(0, raw.indexOf('\r\n\r\n') + 4))).dkim.results[0]!.status.result).toBe('neutral');
  });

  it('gives the whole message when a bare LF could end the header block elsewhere, or there is none', async () => {
    const bare = Buffer.from('From: a@good.example\nSubject: x\r\n\r\nbody\r\n');
    expect(authInput(bare)).toBe(bare);
    const noBody = Buffer.from('From: a@good.example\r\nSubject: x\r\n');
    expect(authInput(noBody)).toBe(noBody);
    const folded = Buffer.from('From: a@good.example\r\nX-Note: see\r\n dkim-signature below\r\n\r\nbody\r\n');
    expect(authInput(folded)).toBe(folded);
  });
});
