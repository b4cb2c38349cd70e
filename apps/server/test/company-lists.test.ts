import nodemailer, { type SendMailOptions } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyList, CompanyListImported, CompanyListTest, MailList } from '@mailwing/shared';
import { testConfig } from '../src/config.js';
import { CompanyListService, LIST_TTL_MS } from '../src/features/company-list/company-list.service.js';
import { CompiledList, normalisePattern, type ListEntry } from '../src/features/company-list/list-match.js';
import { startDnsStandIn, type Zone } from './dns-standin.js';
import { startDemo, type TestServer } from './harness.js';

// Issue 17, scope 6: company block/allow lists, judged on the real SMTP path.

const zone: Zone = {
  'strict.example': { txt: ['v=spf1 ip4:192.0.2.1 -all'] },
  '_dmarc.strict.example': { txt: ['v=DMARC1; p=reject'] },
  'careful.example': { txt: ['v=spf1 ip4:192.0.2.1 -all'] },
  '_dmarc.careful.example': { txt: ['v=DMARC1; p=quarantine'] },
  'friendly.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
  'spam.example': { txt: ['v=spf1 ip4:127.0.0.1 -all'] },
};

let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let s: TestServer;
let alice: string;
let bob: string;
let admin: string;

beforeAll(async () => {
  dns = await startDnsStandIn(zone);
  const base = testConfig({ dataDir: '' });
  ({ s, alice, bob } = await startDemo({ delivery: { ...base.delivery, dnsServers: [dns.server] }, inboundAuth: { dnsTimeoutMs: 300, deadlineMs: 5_000 } }));
  admin = await s.login('admin@demo.test');
}, 400_000);
afterAll(async () => {
  await s?.stop();
  await dns?.close();
});

async function send(mail: SendMailOptions) {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port: s.smtpPort, secure: false, ignoreTLS: true, name: 'mta.outside.example' });
  try {
    return await t.sendMail({ text: 'Hello', ...mail });
  } finally {
    t.close();
  }
}
async function folderHas(token: string, mid: string, subject: string): Promise<boolean> {
  return (await s.get<MailList>('/h5/mail/list', { mid, size: 100 }, token)).data.list.some((m) => m.subject === subject);
}
const entry = (id: number, kind: 'block' | 'allow', pattern: string): ListEntry => ({ id, kind, pattern, note: '', created_at: new Date() });

describe('patterns and precedence', () => {
  it('accepts addresses, *@domain, IPs and CIDR ranges, in one spelling', () => {
    expect(normalisePattern(' Boss@Example.COM ')).toEqual({ pattern: 'boss@example.com', type: 'address' });
    expect(normalisePattern('*@Spam.Example')).toEqual({ pattern: '*@spam.example', type: 'domain' });
    expect(normalisePattern('203.0.113.9')).toEqual({ pattern: '203.0.113.9', type: 'ip' });
    expect(normalisePattern('203.0.113.77/24')).toEqual({ pattern: '203.0.113.0/24', type: 'ip' });
    expect(normalisePattern('2001:db8::1/32')?.type).toBe('ip');
    for (const bad of ['', 'spam.example', '*@', '1.2.3.4/33', '300.1.1.1', 'a b@x.example', '*@-bad-.x']) expect(normalisePattern(bad), bad).toBeNull();
  });

  it('lets the most specific entry decide, and allow win a tie', () => {
    const list = new CompiledList([
      entry(1, 'block', '*@example.com'), entry(2, 'allow', 'boss@example.com'),
      entry(3, 'allow', '*@partner.example'), entry(4, 'block', 'spam@partner.example'),
      entry(5, 'block', '198.51.100.0/24'), entry(6, 'allow', '198.51.100.7'),
      entry(7, 'block', '2001:db8::/32'),
      entry(8, 'block', 'both@x.example'), entry(9, 'allow', 'both@x.example'),
    ]);
    expect(list.match(['boss@example.com'], null)?.id).toBe(2);
    expect(list.match(['clerk@example.com'], null)?.id).toBe(1);
    expect(list.match(['spam@partner.example'], null)?.id).toBe(4);
    expect(list.match(['sales@partner.example'], null)?.id).toBe(3);
    expect(list.match([], '198.51.100.8')?.id).toBe(5);
    expect(list.match([], '198.51.100.7')?.id).toBe(6);
    expect(list.match([], '::ffff:198.51.100.9')?.id).toBe(5);
    expect(list.match([], '2001:db8:1::5')?.id).toBe(7);
    expect(list.match([], '2001:db9::5')).toBeNull();
    expect(list.match(['both@x.example'], null)?.id).toBe(9);
    // An address entry beats an IP one.
    expect(list.match(['boss@example.com'], '198.51.100.8')?.id).toBe(2);
    expect(list.match(['nobody@else.example'], '192.0.2.1')).toBeNull();
    // Envelope allowed, header From blocked: the block wins.
    expect(list.match(['boss@example.com', 'spam@partner.example'], null)?.id).toBe(4);
  });
});

describe('the admin console', () => {
  it('adds, imports CSV with errors per line, tests an address, and deletes', async () => {
    expect((await s.post('/h5/admin/lists/add', { kind: 'block', pattern: '*@spam.example', note: 'bulk sender' }, admin)).code).toBe(200);
    expect(await s.post('/h5/admin/lists/add', { kind: 'block', pattern: 'not a pattern' }, admin)).toMatchObject({ code: 422, reason: 'lists.pattern_invalid' });
    const csv = ['kind,pattern,note', 'allow,friend@spam.example,our friend', '192.0.2.0/24', 'maybe,x@y.example', 'block,nonsense', '白名单,*@friendly.example', ''].join('\n');
    const imported = await s.post<CompanyListImported>('/h5/admin/lists/import', { csv }, admin);
    expect(imported.data.added).toBe(3);
    expect(imported.data.errors).toEqual([
      { line: 4, message: 'kind must be block or allow', reason: 'lists.kind_invalid' },
      { line: 5, message: expect.stringContaining('nonsense'), reason: 'lists.pattern_invalid' },
    ]);
    const list = (await s.get<CompanyList>('/h5/admin/lists', {}, admin)).data.list;
    expect(list.map((e) => `${e.kind} ${e.pattern}`).sort()).toEqual(['allow *@friendly.example', 'allow friend@spam.example', 'block *@spam.example', 'block 192.0.2.0/24']);

    const t = async (q: Record<string, string>) => (await s.get<CompanyListTest>('/h5/admin/lists/test', q, admin)).data;
    expect(await t({ address: 'promo@spam.example' })).toMatchObject({ result: 'block', entry: { pattern: '*@spam.example', note: 'bulk sender' } });
    expect(await t({ address: 'Friend@Spam.example' })).toMatchObject({ result: 'allow', entry: { pattern: 'friend@spam.example' } });
    expect(await t({ address: 'x@elsewhere.example', ip: '192.0.2.200' })).toMatchObject({ result: 'block', entry: { pattern: '192.0.2.0/24' } });
    expect(await t({ address: 'x@elsewhere.example' })).toEqual({ result: 'none', entry: null });
    expect(await s.get('/h5/admin/lists/test', {}, admin)).toMatchObject({ code: 422, reason: 'lists.test_empty' });
  });

  it('refuses an ordinary user (403) and hides one company from another (404) on every route', async () => {
    const other = await s.rt.services.companies.createCompany({ name: 'Other Co', domain: 'other-lists.test' });
    await s.rt.services.companies.createUser(other, { email: 'boss@other-lists.test', password: 'demo1234', name: 'Boss', role: 'admin' });
    const stranger = await s.login('boss@other-lists.test');
    const ours = (await s.get<CompanyList>('/h5/admin/lists', {}, admin)).data.list[0]!;
    const routes: [string, string, Record<string, string>][] = [
      ['GET', '/h5/admin/lists', {}],
      ['POST', '/h5/admin/lists/add', { kind: 'block', pattern: '*@x.example' }],
      ['POST', '/h5/admin/lists/delete', { id: ours.id }],
      ['POST', '/h5/admin/lists/import', { csv: 'block,*@x.example' }],
      ['GET', '/h5/admin/lists/test', { address: 'a@b.example' }],
    ];
    for (const [method, route, body] of routes) {
      const r = method === 'GET' ? await s.get(route, body, alice) : await s.post(route, body, alice);
      expect(r, route).toMatchObject({ code: 403, reason: 'admin.required' });
    }
    expect((await s.post('/h5/admin/lists/delete', { id: ours.id }, stranger)).code).toBe(404);
    expect((await s.get<CompanyList>('/h5/admin/lists', {}, stranger)).data.list).toEqual([]);
    expect((await s.get<CompanyListTest>('/h5/admin/lists/test', { address: 'promo@spam.example' }, stranger)).data.result).toBe('none');
    expect((await s.get<CompanyList>('/h5/admin/lists', {}, admin)).data.list.some((e) => e.id === ours.id)).toBe(true);
  });
});

describe('on the SMTP path', () => {
  it('refuses a blocked sender at RCPT, lets an allowed one through, and blocks by client IP', async () => {
    await expect(send({ from: 'promo@spam.example', to: 'bob@demo.test', subject: 'Buy now' })).rejects.toMatchObject({ responseCode: 550 });
    await send({ from: 'friend@spam.example', to: 'bob@demo.test', subject: 'From a friend' });
    expect(await folderHas(bob, '0', 'From a friend')).toBe(true);
    // The test client connects from 127.0.0.1.
    await s.post('/h5/admin/lists/add', { kind: 'block', pattern: '127.0.0.0/8' }, admin);
    await expect(send({ from: 'someone@elsewhere.example', to: 'bob@demo.test', subject: 'By IP' })).rejects.toMatchObject({ responseCode: 550 });
    // A listed address is more specific than the IP block.
    await s.post('/h5/admin/lists/add', { kind: 'allow', pattern: 'someone@elsewhere.example' }, admin);
    await send({ from: 'someone@elsewhere.example', to: 'bob@demo.test', subject: 'By IP, allowed' });
    expect(await folderHas(bob, '0', 'By IP, allowed')).toBe(true);
    const block = (await s.get<CompanyList>('/h5/admin/lists', {}, admin)).data.list.find((e) => e.pattern === '127.0.0.0/8')!;
    await s.post('/h5/admin/lists/delete', { id: block.id }, admin);
  });

  it('blocks on the header From too, after DATA', async () => {
    await expect(send({ from: 'promo@spam.example', envelope: { from: 'bounce@friendly.example', to: ['bob@demo.test'] }, to: 'bob@demo.test', subject: 'Disguised' }))
      .rejects.toMatchObject({ responseCode: 550 });
    expect(await folderHas(bob, '0', 'Disguised')).toBe(false);
  });

  it('never lets an allow entry override a failed DMARC: p=reject is refused, p=quarantine stays in Spam', async () => {
    await s.post('/h5/admin/lists/add', { kind: 'allow', pattern: '*@strict.example' }, admin);
    await s.post('/h5/admin/lists/add', { kind: 'allow', pattern: '*@careful.example' }, admin);
    await expect(send({ from: 'ceo@strict.example', to: 'alice@demo.test', subject: 'Wire transfer' })).rejects.toMatchObject({ responseCode: 550 });
    await send({ from: 'ceo@careful.example', to: 'alice@demo.test', subject: 'Careful wire' });
    expect(await folderHas(alice, '3', 'Careful wire')).toBe(true);
  });

  it('a personal block still wins over a company allow for that mailbox', async () => {
    expect((await s.post('/h5/contact/rule-add', { kind: 'block', pattern: 'friend@spam.example' }, bob)).code).toBe(200);
    await send({ from: 'friend@spam.example', to: 'bob@demo.test', subject: 'Friend, personally blocked' });
    expect(await folderHas(bob, '3', 'Friend, personally blocked')).toBe(true);
  });

  it('a change reaches every process within 60 s: each reloads when its copy is 30 s old', async () => {
    let now = 1_000_000;
    const other = new CompanyListService({ db: s.rt.services.db, now: () => now });
    expect(await other.judge('demo.test', { addresses: ['late@late.example'], ip: null })).toBeNull();
    await s.post('/h5/admin/lists/add', { kind: 'block', pattern: 'late@late.example' }, admin);
    now += LIST_TTL_MS - 1;
    expect(await other.judge('demo.test', { addresses: ['late@late.example'], ip: null })).toBeNull();
    now += 2;
    expect((await other.judge('demo.test', { addresses: ['late@late.example'], ip: null }))?.kind).toBe('block');
    expect(LIST_TTL_MS).toBeLessThanOrEqual(60_000);
    // This process dropped its copy on the change: no wait at all here.
    await expect(send({ from: 'late@late.example', to: 'bob@demo.test', subject: 'Late' })).rejects.toMatchObject({ responseCode: 550 });
  });
});
