import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemFolder } from '@mailwing/shared';
import type { Branding, CheckedRecord, DomainStatus, DomainStatusList, WelcomePreview, WelcomeTemplate } from '@mailwing/shared';
import { dkimTxtRecord } from '../src/features/admin/company.service.js';
import { domainResolver } from '../src/features/domain-check/dns-check.js';
import { DomainCheckService } from '../src/features/domain-check/domain-check.service.js';
import { contentText } from '../src/features/message/message.repository.js';
import { sendWelcome } from '../src/features/welcome/welcome.service.js';
import { startDnsStandIn, type Zone } from './dns-standin.js';
import { startTestServer, type Envelope, type TestServer } from './harness.js';

// The console's domains, welcome mail and login branding (issue 17) against a DNS server on
// loopback with good, missing, wrong and silent (timing-out) records. The server's sending
// address is 192.0.2.25 and its MX host mx.test.local (testConfig).

const zone: Zone = {};
let dns: Awaited<ReturnType<typeof startDnsStandIn>>;
let s: TestServer;
let admin: string;
let bob: string;
let otherAdmin: string;
const reason = (r: Envelope<unknown>) => (r as unknown as { reason: string }).reason;
const byKind = (st: DomainStatus) => Object.fromEntries(st.records.map((r) => [r.kind, r])) as Record<string, CheckedRecord>;
const add = (domain: string, token = admin) => s.post<DomainStatus>('/h5/admin/domains/add', { domain }, token);
const keyOf = async (name: string, col: 'dkim_next_public_key' | 'verify_token') =>
  (await sql<{ v: string }>`SELECT ${sql.ref(col)} AS v FROM domain_checks WHERE name = ${name}`.execute(s.rt.services.db)).rows[0]!.v;

beforeAll(async () => {
  dns = await startDnsStandIn(zone);
  s = await startTestServer({ domainCheck: { dnsServers: [dns.server], timeoutMs: 500, sendingIps: ['192.0.2.25'], webUrl: undefined } });
  admin = await s.login('admin@demo.test');
  bob = await s.login('bob@demo.test');
  const acme = await s.rt.services.companies.createCompany({ name: 'Acme', domain: 'acme.test' });
  await s.rt.services.companies.createUser(acme, { email: 'boss@acme.test', password: 'acme12345', name: 'Boss', role: 'admin' });
  otherAdmin = await s.login('boss@acme.test', 'acme12345');
}, 240_000);
afterAll(async () => {
  await s?.stop();
  await dns?.close();
});

/** Publishes good records for a domain the admin added (its token and key are known only after adding). */
async function publishGood(name: string, dmarc = 'v=DMARC1; p=none') {
  zone[`_mailwing.${name}`] = { txt: [`mailwing-verify=${await keyOf(name, 'verify_token')}`] };
  // SPF by meaning: our address is only reached through an include.
  zone[name] = { mx: [{ priority: 10, exchange: 'mx.test.local' }], txt: ['v=spf1 include:_spf.' + name + ' -all', 'google-site-verification=x'] };
  zone[`_spf.${name}`] = { txt: ['v=spf1 ip4:192.0.2.0/24 -all'] };
  zone[`mw1._domainkey.${name}`] = { txt: [dkimTxtRecord(await keyOf(name, 'dkim_next_public_key'))] };
  zone[`_dmarc.${name}`] = { txt: [dmarc] };
}

describe('domain checks', () => {
  it('lists the hosted domain as verified, and adds a domain pending until its ownership TXT is seen', async () => {
    const list = (await s.get<DomainStatusList>('/h5/admin/domains/status', {}, admin)).data.list;
    expect(list.map((d) => [d.domain, d.verified])).toEqual([['demo.test', true]]);

    const r = await add('Good.Test.');
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ domain: 'good.test', verified: false, selector: 'mw1' });
    expect(r.data.records.every((x) => x.state === 'missing')).toBe(true);
    // Not hosted yet: mail for it is not ours.
    expect(await s.rt.services.db.selectFrom('domains').select('id').where('name', '=', 'good.test').executeTakeFirst()).toBeUndefined();

    await publishGood('good.test');
    const c = await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'good.test' }, admin);
    const k = byKind(c.data);
    expect(Object.fromEntries(Object.entries(k).map(([kind, x]) => [kind, x.state]))).toEqual({ ownership: 'ok', mx: 'ok', spf: 'ok', dkim: 'ok', dmarc: 'ok' });
    expect(k.dmarc!.note).toBe('dmarc.policy_none');
    expect(k.dkim!.found[0]!.length).toBeGreaterThan(255);
    expect(k.mx!.found).toEqual(['10 mx.test.local']);
    expect(c.data.verified).toBe(true);
    expect(c.data.checkMs).toBeGreaterThanOrEqual(0);
    expect(await s.rt.services.db.selectFrom('domains').select('dkim_selector').where('name', '=', 'good.test').executeTakeFirst()).toEqual({ dkim_selector: 'mw1' });
  });

  it('tells missing, wrong and unparsable records apart', async () => {
    expect((await add('missing.test')).data.records.map((r) => r.state)).toEqual(['missing', 'missing', 'missing', 'missing', 'missing']);

    await add('wrong.test');
    zone['_mailwing.wrong.test'] = { txt: ['mailwing-verify=someone-elses-token'] };
    zone['wrong.test'] = { mx: [{ priority: 10, exchange: 'mx.elsewhere.example.' }], txt: ['v=spf1 ip4:198.51.100.1 -all'] };
    zone['mw1._domainkey.wrong.test'] = { txt: [dkimTxtRecord('MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong')] };
    zone['_dmarc.wrong.test'] = { txt: ['v=DMARC1; p=bogus'] };
    const k = byKind((await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'wrong.test' }, admin)).data);
    expect([k.ownership!.state, k.mx!.state, k.spf!.state, k.dkim!.state, k.dmarc!.state]).toEqual(['mismatch', 'mismatch', 'mismatch', 'mismatch', 'syntax-error']);
    expect(k.mx!.found).toEqual(['10 mx.elsewhere.example']);
    expect(k.spf!.note).toBe('spf.fail');

    // Two SPF records, and one that needs more than ten lookups.
    zone['wrong.test'] = { txt: ['v=spf1 -all', 'v=spf1 +all'] };
    expect(byKind((await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'wrong.test' }, admin)).data).spf).toMatchObject({ state: 'syntax-error', note: 'spf.multiple' });
    zone['wrong.test'] = { txt: [`v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:n${i}.wrong.test`).join(' ')} ip4:192.0.2.25 -all`] };
    for (let i = 0; i < 11; i++) zone[`n${i}.wrong.test`] = { txt: ['v=spf1 ip4:203.0.113.9 ?all'] };
    expect(byKind((await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'wrong.test' }, admin)).data).spf!.state).toBe('syntax-error');
  });

  it('calls a record that times out unverifiable, never missing', async () => {
    await add('slow.test');
    for (const n of ['slow.test', '_mailwing.slow.test', 'mw1._domainkey.slow.test', '_dmarc.slow.test']) zone[n] = { silent: true };
    const st = (await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'slow.test' }, admin)).data;
    expect(st.records.map((r) => r.state)).toEqual(['unverifiable', 'unverifiable', 'unverifiable', 'unverifiable', 'unverifiable']);
    expect(st.records[0]!.note).toBe('dns.timeout');
    // All records are asked at once: about one timeout (500 ms), not five.
    expect(st.checkMs!).toBeLessThan(2_000);
    // SERVFAIL proves nothing either.
    zone['_dmarc.slow.test'] = { servfail: true };
    expect(byKind((await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'slow.test' }, admin)).data).dmarc).toMatchObject({ state: 'unverifiable', note: 'dns.error' });
  });

  it('rechecks every 10 minutes for 24 hours after a change, as durable jobs on an injected clock', async () => {
    let now = Date.now();
    const svc = new DomainCheckService({ db: s.rt.services.db, lookup: domainResolver([dns.server], 500), mailHost: 'mx.test.local', sendingIps: ['192.0.2.25'], now: () => new Date(now) });
    // slow.test answers at once now, so the day of rechecks below costs no timeouts.
    for (const n of ['slow.test', '_mailwing.slow.test', 'mw1._domainkey.slow.test', '_dmarc.slow.test']) delete zone[n];
    const changed = now;
    expect((await svc.list(1)).find((d) => d.domain === 'good.test')!.nextCheckAt).not.toBeNull();
    let checks = 0;
    // Through 25 hours in 10-minute strides: each of good, missing, wrong and slow.test is due every 10 minutes until its day ends.
    for (now = changed + 10 * 60_000; now <= changed + 25 * 3600_000; now += 10 * 60_000) checks += await svc.runDue(100);
    const perDomain = checks / 4;
    expect(perDomain).toBeGreaterThanOrEqual(140);
    expect(perDomain).toBeLessThanOrEqual(145);
    expect((await svc.list(1)).every((d) => d.nextCheckAt === null)).toBe(true);
    expect(await svc.runDue(100)).toBe(0);
  }, 120_000);

  it('rotates the DKIM key with a new selector; the old key signs until the new record verifies', async () => {
    const r = await s.post<DomainStatus>('/h5/admin/domains/rotate-dkim', { domain: 'good.test' }, admin);
    expect(r.data).toMatchObject({ selector: 'mw1', nextSelector: 'mw2' });
    expect(byKind(r.data)['dkim-next']!.state).toBe('missing');
    expect(reason(await s.post('/h5/admin/domains/rotate-dkim', { domain: 'good.test' }, admin))).toBe('domain.rotation_pending');
    const signing = () => s.rt.services.db.selectFrom('domains').select('dkim_selector').where('name', '=', 'good.test').executeTakeFirstOrThrow();
    expect((await signing()).dkim_selector).toBe('mw1');

    const next = byKind(r.data)['dkim-next']!;
    zone['mw2._domainkey.good.test'] = { txt: [next.expected] };
    await s.post('/h5/admin/domains/check', { domain: 'good.test' }, admin);
    expect((await signing()).dkim_selector).toBe('mw2');
    const after = (await s.post<DomainStatus>('/h5/admin/domains/check', { domain: 'good.test' }, admin)).data;
    expect(after).toMatchObject({ selector: 'mw2', nextSelector: null });
    expect(byKind(after).dkim).toMatchObject({ name: 'mw2._domainkey.good.test', state: 'ok' });
  });

  it('refuses a taken domain and removes only pending ones', async () => {
    expect(reason(await add('demo.test'))).toBe('domain.taken');
    expect(reason(await add('missing.test'))).toBe('domain.exists');
    expect(reason(await add('not a domain'))).toBe('input.invalid');
    expect(reason(await s.post('/h5/admin/domains/remove', { domain: 'demo.test' }, admin))).toBe('domain.hosted');
    expect((await s.post('/h5/admin/domains/remove', { domain: 'missing.test' }, admin)).code).toBe(200);
  });
});

describe('welcome mail', () => {
  const inboxSubjects = async (userId: number) => (await sql<{ subject: string; text_body: string }>`
    SELECT c.subject, ${contentText()} AS text_body FROM messages m JOIN mail_contents c ON c.id = m.content_id WHERE m.user_id = ${userId} AND m.folder_mid = ${Number(SystemFolder.Inbox)}`.execute(s.rt.services.db)).rows;

  it('has a default, saves a template with variables, previews it, and mails it once to a new user', async () => {
    const t = await s.get<WelcomeTemplate>('/h5/admin/welcome', {}, admin);
    expect(t.data).toMatchObject({ enabled: true, variables: ['name', 'email', 'company', 'loginUrl'] });
    const saved = await s.post<WelcomeTemplate>('/h5/admin/welcome', { enabled: '1', subject: 'Welcome to {{company}}, {{name}}', body: 'Your address is {{email}}. {{unknown}}' }, admin);
    expect(saved.data.subject).toBe('Welcome to {{company}}, {{name}}');
    const p = await s.post<WelcomePreview>('/h5/admin/welcome/preview', {}, admin);
    expect(p.data).toEqual({ subject: 'Welcome to Demo Co, Admin', body: 'Your address is admin@demo.test. {{unknown}}' });
    const draft = await s.post<WelcomePreview>('/h5/admin/welcome/preview', { subject: 'Hi {{name}}', body: '{{loginUrl}}' }, admin);
    expect(draft.data.body).toContain('#/pages/login/index?domain=demo.test');

    const companies = s.rt.services.companies;
    const demo = await s.rt.services.db.selectFrom('domains').select(['id', 'company_id']).where('name', '=', 'demo.test').executeTakeFirstOrThrow();
    const userId = await companies.createUser({ companyId: demo.company_id, domainId: demo.id }, { email: 'newbie@demo.test', password: 'x1234567', name: 'Newbie' });
    await sendWelcome(s.rt.services.db, userId);
    await sendWelcome(s.rt.services.db, userId);
    expect(await s.rt.services.welcome.runDue()).toBe(1);
    expect(await s.rt.services.welcome.runDue()).toBe(0);
    expect(await inboxSubjects(userId)).toEqual([{ subject: 'Welcome to Demo Co, Newbie', text_body: expect.stringContaining('newbie@demo.test') }]);
  });

  it('sends nothing when turned off', async () => {
    await s.post('/h5/admin/welcome', { enabled: '0', subject: 'x', body: 'y' }, admin);
    const demo = await s.rt.services.db.selectFrom('domains').select(['id', 'company_id']).where('name', '=', 'demo.test').executeTakeFirstOrThrow();
    const userId = await s.rt.services.companies.createUser({ companyId: demo.company_id, domainId: demo.id }, { email: 'quiet@demo.test', password: 'x1234567', name: 'Quiet' });
    await sendWelcome(s.rt.services.db, userId);
    expect(await s.rt.services.welcome.runDue()).toBe(1);
    expect(await inboxSubjects(userId)).toEqual([]);
  });

  it('is queued by the console\'s member-create path (directory member-edit) and mailed with the company\'s default', async () => {
    const svc = s.rt.services;
    const beta = await svc.companies.createCompany({ name: 'Beta', domain: 'beta.test' });
    await svc.companies.createUser(beta, { email: 'root@beta.test', password: 'beta-pass-1', name: 'Root', role: 'admin', departmentId: beta.rootDepartmentId });
    const root = await s.login('root@beta.test', 'beta-pass-1');
    const made = await s.post<{ id: string }>('/h5/directory/member-edit', { email: 'fresh@beta.test', password: 'fresh-pass-1', name: 'Fresh', departmentId: String(beta.rootDepartmentId) }, root);
    expect(made.code).toBe(200);
    expect(await svc.welcome.runDue()).toBe(1);
    const mails = await inboxSubjects(Number(made.data.id));
    expect(mails.map((m) => m.subject)).toEqual(['欢迎使用 Beta 企业邮箱 / Welcome to Beta mail']);
    expect(mails[0]!.text_body).toContain('fresh@beta.test');
  });
});

describe('login page branding', () => {
  const byHost = (host: string) => new Promise<Envelope<Branding>>((resolve, reject) => {
    const u = new URL(s.base);
    http.get({ host: u.hostname, port: u.port, path: '/h5/login/branding', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(JSON.parse(body) as Envelope<Branding>));
    }).on('error', reject);
  });
  const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('answers by ?domain= or the Host header, and says nothing more of an unknown domain', async () => {
    const none = { name: '', color: '', logo: '' };
    expect((await s.get<Branding>('/h5/login/branding', { domain: 'demo.test' })).data).toEqual(none);
    expect((await s.post('/h5/admin/branding', { name: 'Demo 公司', color: '#aa3300', logo: PNG }, admin)).code).toBe(200);
    expect((await s.get<Branding>('/h5/login/branding', { domain: 'demo.test' })).data).toEqual({ name: 'Demo 公司', color: '#aa3300', logo: PNG });
    expect((await byHost('mail.demo.test:8080')).data.name).toBe('Demo 公司');
    expect((await byHost('nowhere.example')).data).toEqual(none);
    // Acme has no branding: it answers like an unknown domain (no company name leaks).
    expect((await s.get<Branding>('/h5/login/branding', { domain: 'acme.test' })).data).toEqual(none);
    expect(reason(await s.post('/h5/admin/branding', { logo: 'data:image/svg+xml;base64,PHN2Zz4=' }, admin))).toBe('input.invalid');
    expect(reason(await s.post('/h5/admin/branding', { color: 'red' }, admin))).toBe('input.invalid');
  });
});

describe('permissions', () => {
  const routes: [method: 'get' | 'post', route: string, body: Record<string, string>][] = [
    ['get', '/h5/admin/domains/status', {}],
    ['post', '/h5/admin/domains/add', { domain: 'bob.test' }],
    ['post', '/h5/admin/domains/check', { domain: 'good.test' }],
    ['post', '/h5/admin/domains/rotate-dkim', { domain: 'good.test' }],
    ['post', '/h5/admin/domains/remove', { domain: 'wrong.test' }],
    ['get', '/h5/admin/welcome', {}],
    ['post', '/h5/admin/welcome', { enabled: '1', subject: 'a', body: 'b' }],
    ['post', '/h5/admin/welcome/preview', {}],
    ['get', '/h5/admin/branding', {}],
    ['post', '/h5/admin/branding', { name: 'Bob Inc' }],
  ];

  it('refuses every console route to an ordinary user (403 admin.required)', async () => {
    for (const [method, route, body] of routes) {
      const r = method === 'get' ? await s.get(route, body, bob) : await s.post(route, body, bob);
      expect([route, r.code, reason(r)]).toEqual([route, 403, 'admin.required']);
    }
  });

  it('shows another company\'s admin none of this company\'s domains, template or branding', async () => {
    expect((await s.get<DomainStatusList>('/h5/admin/domains/status', {}, otherAdmin)).data.list.map((d) => d.domain)).toEqual(['acme.test']);
    for (const route of ['/h5/admin/domains/check', '/h5/admin/domains/rotate-dkim', '/h5/admin/domains/remove']) {
      const r = await s.post(route, { domain: 'good.test' }, otherAdmin);
      expect([route, r.code, reason(r)]).toEqual([route, 404, 'domain.not_found']);
    }
    expect((await s.get<WelcomeTemplate>('/h5/admin/welcome', {}, otherAdmin)).data.subject).not.toBe('x');
    expect((await s.get<Branding>('/h5/admin/branding', {}, otherAdmin)).data.name).toBe('');
    await s.post('/h5/admin/branding', { name: 'Acme' }, otherAdmin);
    expect((await s.get<Branding>('/h5/admin/branding', {}, admin)).data.name).toBe('Demo 公司');
    // The demo company's pending domain is its own: Acme may claim the same name, but only DNS decides who gets it.
    expect((await add('wrong.test', otherAdmin)).code).toBe(200);
  });
});
