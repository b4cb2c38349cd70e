import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authResolver } from '../src/smtp/auth-dns.js';
import { startDnsStandIn } from './dns-standin.js';

// The inbound-auth resolver's cache (issue 13): the same SPF/DMARC question from a
// run of mail is asked once, answers expire, and failures are never kept.

let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
beforeAll(async () => {
  dns = await startDnsStandIn({
    'sender.example': { txt: ['v=spf1 -all'] },
    'broken.example': { servfail: true },
  });
});
afterAll(async () => dns?.close());

const asked = (name: string) => dns.queries.filter((q) => q.name === name).length;

describe('inbound authentication DNS cache', () => {
  it('asks once for repeated and concurrent questions, and again after 30 s', async () => {
    let t = 1_000_000;
    const resolve = authResolver([dns.server], 1_000, () => t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => resolve('sender.example', 'TXT')));
    for (const a of answers) expect(a).toEqual([['v=spf1 -all']]);
    expect(asked('sender.example')).toBe(1);
    await resolve('Sender.Example', 'TXT');
    expect(asked('sender.example')).toBe(1);
    t += 30_001;
    await resolve('sender.example', 'TXT');
    expect(asked('sender.example')).toBe(2);
  });

  it('keeps "no such name" but never SERVFAIL', async () => {
    const resolve = authResolver([dns.server], 1_000);
    for (let i = 0; i < 3; i++) await expect(resolve('nobody.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(asked('nobody.example')).toBe(1);
    for (let i = 0; i < 3; i++) await expect(resolve('broken.example', 'TXT')).rejects.toBeTruthy();
    expect(asked('broken.example')).toBe(3);
  });
});
