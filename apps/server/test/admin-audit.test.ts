import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeldList, HeldPreview, Mail, MailList, SendResult } from '@mailwing/shared';
import { ruleMatches, type AuditSubject } from '../src/features/audit/audit-match.js';
import { AuditService } from '../src/features/audit/audit.service.js';
import { startDemo, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

// Issue 17, scope 4: outgoing-mail audit. Outside mail goes to a loopback MX stand-in
// through the real queue; timeouts run on a second AuditService whose clock the test moves.

let s: TestServer;
let mx: MxStandIn;
let alice: string;
let bob: string;
let admin: string;
let ids: Record<string, number>;

beforeAll(async () => {
  mx = await startMxStandIn();
  ({ s, alice, bob } = await startDemo({
    delivery: { relay: `smtp://127.0.0.1:${mx.port}`, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 4 },
  }));
  admin = await s.login('admin@demo.test');
  const rows = await s.rt.services.db.selectFrom('users').select(['id', 'email']).execute();
  ids = Object.fromEntries(rows.map((r) => [r.email, r.id]));
}, 400_000);
afterAll(async () => {
  await s?.stop();
  await mx?.close();
});

const svc = () => s.rt.services;
/** One turn of the workers: due timed sends (and released held mail), then the outbound queue. */
async function work(): Promise<void> {
  await svc().compose.dispatchDue();
  await svc().delivery.runOnce();
}
async function inbox(token: string, mid = '0'): Promise<MailList['list']> {
  return (await s.get<MailList>('/h5/mail/list', { mid, size: 100 }, token)).data.list;
}
async function send(token: string, form: Record<string, string | number>): Promise<SendResult> {
  const r = await s.post<SendResult>('/h5/write/send', form, token);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data;
}
async function rule(form: Record<string, string | number>): Promise<string> {
  const r = await s.post<{ id: string }>('/h5/admin/audit/rule-save', { auditors: String(ids['admin@demo.test']), ...form }, admin);
  if (r.code !== 200) throw new Error(JSON.stringify(r));
  return r.data.id;
}
async function dropRules(): Promise<void> {
  await svc().db.deleteFrom('audit_rules' as never).execute();
}
async function heldItem(mid: string): Promise<HeldList['list'][number]> {
  const list = (await s.get<HeldList>('/h5/audit/held', { open: 0 }, admin)).data.list.concat((await s.get<HeldList>('/h5/audit/held', {}, admin)).data.list);
  const item = list.find((h) => h.mid === mid);
  if (!item) throw new Error(`no audit item for mail ${mid}`);
  return item;
}

describe('rule matching', () => {
  const mail: AuditSubject = {
    senderId: 7, departmentIds: [3, 1], subject: '季度合同 Q3', text: 'Please sign the attached', attachmentNames: ['报价单.xlsx'], size: 5_000_000,
    recipients: [{ address: 'bob@demo.test', external: false }, { address: 'x@mail.partner.example', external: true }],
  };
  const m = (kind: Parameters<typeof ruleMatches>[0]['kind'], params: Parameters<typeof ruleMatches>[0]['params']) => ruleMatches({ id: 1, kind, params }, mail);

  it('matches each kind on its own condition, and only on it', () => {
    expect(m('member', { userIds: [7] })).toBe(true);
    expect(m('member', { userIds: [8] })).toBe(false);
    expect(m('department', { departmentIds: [1] })).toBe(true); // a parent department covers its children
    expect(m('department', { departmentIds: [9] })).toBe(false);
    expect(m('keyword', { keywords: ['合同'], fields: ['subject'] })).toBe(true); // CJK inside a word
    expect(m('keyword', { keywords: ['合同'], fields: ['body'] })).toBe(false);
    expect(m('keyword', { keywords: ['SIGN'], fields: ['body'] })).toBe(true);
    expect(m('keyword', { keywords: ['报价'], fields: ['attachment'] })).toBe(true);
    expect(m('keyword', { keywords: ['报价'], fields: ['subject', 'body'] })).toBe(false);
    expect(m('size', { minBytes: 5_000_000 })).toBe(true);
    expect(m('size', { minBytes: 5_000_001 })).toBe(false);
    expect(m('domain', { domains: ['partner.example'] })).toBe(true); // subdomains too
    expect(m('domain', { domains: ['*@mail.partner.example'] })).toBe(true);
    expect(m('domain', { domains: ['other.example'] })).toBe(false);
    expect(m('external', {})).toBe(true);
    expect(ruleMatches({ id: 1, kind: 'external', params: {} }, { ...mail, recipients: [{ address: 'bob@demo.test', external: false }] })).toBe(false);
    expect(m('all', {})).toBe(true);
  });
});

describe('held mail', () => {
  it('reaches no one, inside or outside, until an auditor passes it from the phone', async () => {
    await rule({ name: 'Contracts', kind: 'keyword', params: JSON.stringify({ keywords: ['合同'] }) });
    const rules = await s.get<{ list: { name: string; params: { keywords?: string[] }; auditors: { email: string }[] }[] }>('/h5/admin/audit/rules', {}, admin);
    expect(rules.data.list).toMatchObject([{ name: 'Contracts', params: { keywords: ['合同'] }, auditors: [{ email: 'admin@demo.test' }] }]);
    const before = mx.received.length;
    const sent = await send(alice, { to: 'bob@demo.test,partner@outside.example', subject: '合同 draft A', html: '<p>Terms</p><script>alert(1)</script>' });
    expect(sent.status).toBe('audit_waiting');
    await work();
    await work();
    expect((await inbox(bob)).some((m) => m.subject === '合同 draft A')).toBe(false);
    expect(mx.received.length).toBe(before);
    expect((await s.get<Mail>('/h5/read/index', { mid: sent.id }, alice)).data.status).toBe('audit_waiting');
    // Unrelated mail is not held.
    expect((await send(alice, { to: 'bob@demo.test', subject: 'Lunch?' })).status).toBe('sent');

    const item = await heldItem(sent.id);
    expect(item).toMatchObject({ state: 'waiting', subject: '合同 draft A', rules: ['Contracts'] });
    expect(item.to).toEqual(['bob@demo.test', 'partner@outside.example']);
    const preview = await s.get<HeldPreview>('/h5/audit/preview', { id: item.id }, admin);
    expect(preview.code).toBe(200);
    // The read page's sanitiser: no script reaches the auditor.
    expect(preview.data.mail.html).toContain('Terms');
    expect(preview.data.mail.html).not.toContain('<script');
    expect(preview.data.item.state).toBe('auditing');
    expect((await s.get<Mail>('/h5/read/index', { mid: sent.id }, alice)).data.status).toBe('auditing');

    expect((await s.post('/h5/audit/decide', { id: item.id, action: 'pass' }, admin)).data).toEqual({ state: 'passed' });
    await work();
    await work();
    expect((await inbox(bob)).some((m) => m.subject === '合同 draft A')).toBe(true);
    await mx.waitFor(before + 1);
    expect(mx.received.at(-1)!.to).toContain('partner@outside.example');
    expect((await s.get<Mail>('/h5/read/index', { mid: sent.id }, alice)).data.status).toBe('sent');
    // Decided once: a second decision is refused.
    const again = await s.post('/h5/audit/decide', { id: item.id, action: 'reject', reason: 'late' }, admin);
    expect(again).toMatchObject({ code: 422, reason: 'audit.already_decided' });
    const log = await s.get<{ list: { action: string; itemId: string; via: string }[] }>('/h5/admin/audit/log', {}, admin);
    expect(log.data.list.filter((l) => l.itemId === item.id).map((l) => l.action).reverse()).toEqual(['held', 'opened', 'passed']);
    await dropRules();
  });

  it('on reject reaches no one and tells the sender why, on the Sent mail and by mail', async () => {
    await rule({ name: 'Outside', kind: 'external' });
    const before = mx.received.length;
    const sent = await send(alice, { to: 'bob@demo.test,partner@outside.example', subject: 'Pricing sheet' });
    expect(sent.status).toBe('audit_waiting');
    const item = await heldItem(sent.id);
    expect(await s.post('/h5/audit/decide', { id: item.id, action: 'reject' }, admin)).toMatchObject({ code: 422, reason: 'audit.reason_required' });
    expect((await s.post('/h5/audit/decide', { id: item.id, action: 'reject', reason: '价格未经批准 / prices not approved' }, admin)).data).toEqual({ state: 'rejected' });
    await work();
    await work();
    expect(mx.received.length).toBe(before);
    expect((await inbox(bob)).some((m) => m.subject === 'Pricing sheet')).toBe(false);
    expect((await s.get<Mail>('/h5/read/index', { mid: sent.id }, alice)).data.status).toBe('audit_rejected');
    expect((await s.get('/h5/audit/sent', { mid: sent.id }, alice)).data).toMatchObject({ state: 'rejected', reason: '价格未经批准 / prices not approved' });
    // Only the sender sees it there.
    expect((await s.get('/h5/audit/sent', { mid: sent.id }, bob)).code).toBe(404);
    const notice = (await inbox(alice)).find((m) => m.subject.includes('Pricing sheet') && m.subject.includes('not approved'));
    expect(notice).toBeDefined();
    expect((await s.get<Mail>('/h5/read/index', { mid: notice!.id }, alice)).data.text).toContain('prices not approved');
    await dropRules();
  });
});

describe('timeouts', () => {
  it('auto-pass or auto-reject at the rule timeout, within a minute, on an injected clock', async () => {
    await rule({ name: 'Slow pass', kind: 'member', params: JSON.stringify({ userIds: [String(ids['alice@demo.test'])] }), timeoutMin: 60, onTimeout: 'pass' });
    const sent = await send(alice, { to: 'bob@demo.test', subject: 'Timeout pass' });
    const item = await heldItem(sent.id);
    const heldAt = item.heldAt * 1000;
    let now = heldAt + 59 * 60_000;
    const clocked = new AuditService({ db: svc().db, messages: svc().messages, mailer: svc().mailer, webBase: 'https://x', onReleased: () => undefined, now: () => new Date(now) });
    expect(await clocked.timeoutDue()).toBe(0);
    now = heldAt + 61 * 60_000;
    expect(await clocked.timeoutDue()).toBe(1);
    expect(await clocked.timeoutDue()).toBe(0);
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Timeout pass')).toBe(true);
    await dropRules();

    await rule({ name: 'Slow reject', kind: 'all', timeoutMin: 30, onTimeout: 'reject' });
    const second = await send(alice, { to: 'bob@demo.test', subject: 'Timeout reject' });
    const item2 = await heldItem(second.id);
    now = item2.heldAt * 1000 + 31 * 60_000;
    expect(await clocked.timeoutDue()).toBe(1);
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Timeout reject')).toBe(false);
    expect((await s.get('/h5/audit/sent', { mid: second.id }, alice)).data).toMatchObject({ state: 'rejected' });
    const log = await s.get<{ list: { action: string; itemId: string; via: string }[] }>('/h5/admin/audit/log', {}, admin);
    expect(log.data.list.find((l) => l.itemId === item2.id && l.action === 'rejected')?.via).toBe('timeout');
    await dropRules();
  });
});

describe('no way around audit', () => {
  it('a timed send whose time comes while held stays held; once passed it still waits for its time', async () => {
    await rule({ name: 'All', kind: 'all' });
    const at = Math.floor(Date.now() / 1000) + 3600;
    const sent = await send(alice, { to: 'bob@demo.test', subject: 'Timed and held', sendAt: at });
    expect(sent.status).toBe('audit_waiting');
    // Its time comes (the dispatch is made due) while it is held: nothing goes.
    await svc().db.updateTable('dispatches').set({ send_at: new Date(Date.now() - 1000) }).where('message_id', '=', Number(sent.id)).execute();
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Timed and held')).toBe(false);
    const item = await heldItem(sent.id);
    await s.post('/h5/audit/decide', { id: item.id, action: 'pass' }, admin);
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Timed and held')).toBe(true);

    const later = await send(alice, { to: 'bob@demo.test', subject: 'Timed, passed early', sendAt: at });
    await s.post('/h5/audit/decide', { id: (await heldItem(later.id)).id, action: 'pass' }, admin);
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Timed, passed early')).toBe(false);
    expect((await s.get<Mail>('/h5/read/index', { mid: later.id }, alice)).data.status).toBe('audit_passed');
    await dropRules();
  });

  it('recall of a held mail is refused; taking it back to Drafts ends the audit, and it was never delivered', async () => {
    await rule({ name: 'All', kind: 'all' });
    const sent = await send(alice, { to: 'bob@demo.test', subject: 'Take me back' });
    expect(await s.post('/h5/write/recall', { mid: sent.id }, alice)).toMatchObject({ code: 422, reason: 'compose.recall_held' });
    const item = await heldItem(sent.id);
    expect((await s.post('/h5/write/cancel-timed', { mid: sent.id }, alice)).code).toBe(200);
    expect((await inbox(alice, '2')).some((m) => m.id === sent.id)).toBe(true);
    expect(await s.post('/h5/audit/decide', { id: item.id, action: 'pass' }, admin)).toMatchObject({ code: 422, reason: 'audit.already_decided' });
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Take me back')).toBe(false);
    // A rejected mail cannot be "recalled" either: it never went.
    const rejected = await send(alice, { to: 'bob@demo.test', subject: 'Rejected, then recalled' });
    await s.post('/h5/audit/decide', { id: (await heldItem(rejected.id)).id, action: 'reject', reason: 'no' }, admin);
    expect(await s.post('/h5/write/recall', { mid: rejected.id }, alice)).toMatchObject({ code: 422, reason: 'compose.recall_held' });
    await dropRules();
  });
});

describe('links in the auditor notification', () => {
  it('work once, expire, and die once the mail is decided', async () => {
    await rule({ name: 'All', kind: 'all' });
    await send(alice, { to: 'bob@demo.test', subject: 'Approve by link' });
    const notice = (await inbox(admin)).find((m) => m.subject.includes('Approve by link'));
    expect(notice).toBeDefined();
    const text = (await s.get<Mail>('/h5/read/index', { mid: notice!.id }, admin)).data.text;
    const pass = /Approve: \S+token=([A-Za-z0-9_-]{43})/.exec(text)![1]!;
    const reject = /Reject: \S+token=([A-Za-z0-9_-]{43})/.exec(text)![1]!;
    // Without a session: the token is the credential.
    const view = await s.get<{ action: string; item: { subject: string } }>('/h5/audit/link', { token: pass });
    expect(view.data).toMatchObject({ action: 'pass', item: { subject: 'Approve by link' } });
    // An expired link is refused (clock moved past its 72 h).
    const late = new AuditService({ db: svc().db, messages: svc().messages, mailer: svc().mailer, webBase: 'https://x', onReleased: () => undefined, now: () => new Date(Date.now() + 73 * 3600_000) });
    await expect(late.linkDecide(pass, '')).rejects.toMatchObject({ reason: 'audit.link_expired' });
    expect((await s.post('/h5/audit/link', { token: pass })).data).toEqual({ state: 'passed' });
    expect(await s.post('/h5/audit/link', { token: pass })).toMatchObject({ code: 422, reason: 'audit.link_used' });
    expect(await s.post('/h5/audit/link', { token: reject, reason: 'x' })).toMatchObject({ code: 422, reason: 'audit.already_decided' });
    expect(await s.get('/h5/audit/link', { token: 'A'.repeat(43) })).toMatchObject({ code: 404 });
    await work();
    expect((await inbox(bob)).some((m) => m.subject === 'Approve by link')).toBe(true);
    const log = await s.get<{ list: { action: string; via: string; subject: string }[] }>('/h5/admin/audit/log', {}, admin);
    expect(log.data.list.find((l) => l.subject === 'Approve by link' && l.action === 'passed')?.via).toBe('link');
    await dropRules();
  });
});

describe('the decision log', () => {
  it('is append-only in the database itself', async () => {
    const db = svc().db;
    const n = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log`.execute(db)).rows[0]!.n;
    expect(n).toBeGreaterThan(0);
    await expect(sql`UPDATE audit_log SET reason = 'edited'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log`.execute(db)).rows[0]!.n).toBe(n);
  });
});

describe('permissions', () => {
  it('every audit admin route refuses an ordinary user (403) and hides one company from another (404)', async () => {
    const ruleId = await rule({ name: 'All', kind: 'all' });
    const sent = await send(alice, { to: 'bob@demo.test', subject: 'Not yours' });
    const item = await heldItem(sent.id);
    const other = await svc().companies.createCompany({ name: 'Other Co', domain: 'other-co.test' });
    await svc().companies.createUser(other, { email: 'boss@other-co.test', password: 'demo1234', name: 'Boss', role: 'admin' });
    const stranger = await s.login('boss@other-co.test');

    const adminRoutes: [string, string, Record<string, string>][] = [
      ['GET', '/h5/admin/audit/rules', {}],
      ['POST', '/h5/admin/audit/rule-save', { name: 'x', kind: 'all', auditors: String(ids['bob@demo.test']) }],
      ['POST', '/h5/admin/audit/rule-delete', { id: ruleId }],
      ['GET', '/h5/admin/audit/log', {}],
    ];
    for (const [method, route, body] of adminRoutes) {
      const r = method === 'GET' ? await s.get(route, body, bob) : await s.post(route, body, bob);
      expect(r, route).toMatchObject({ code: 403, reason: 'admin.required' });
    }
    // Another company's admin: our rule and our held mail do not exist for them.
    expect((await s.post('/h5/admin/audit/rule-delete', { id: ruleId }, stranger)).code).toBe(404);
    // The rule is looked up before anything else about the form: another company's id is simply not there.
    expect((await s.post('/h5/admin/audit/rule-save', { id: ruleId, name: 'x', kind: 'all', auditors: String(ids['admin@demo.test']) }, stranger)).code).toBe(404);
    expect((await s.get<{ list: unknown[] }>('/h5/admin/audit/rules', {}, stranger)).data.list).toEqual([]);
    expect((await s.get('/h5/audit/preview', { id: item.id }, stranger)).code).toBe(404);
    expect((await s.post('/h5/audit/decide', { id: item.id, action: 'pass' }, stranger)).code).toBe(404);
    expect((await s.get<HeldList>('/h5/audit/held', {}, stranger)).data.list).toEqual([]);
    // A colleague who is not an auditor sees nothing to audit.
    expect((await s.get('/h5/audit/preview', { id: item.id }, bob)).code).toBe(404);
    expect((await s.post('/h5/audit/decide', { id: item.id, action: 'pass' }, bob)).code).toBe(404);
    // Auditors must be colleagues.
    expect(await s.post('/h5/admin/audit/rule-save', { name: 'x', kind: 'all', auditors: String(ids['admin@demo.test']) }, stranger)).toMatchObject({ code: 422, reason: 'audit.auditor_unknown' });
    // A named auditor who is not an admin may decide.
    await rule({ name: 'Bob audits', kind: 'all', auditors: String(ids['bob@demo.test']) });
    const byBob = await send(alice, { to: 'admin@demo.test', subject: 'Bob decides' });
    const bobs = (await s.get<HeldList>('/h5/audit/held', {}, bob)).data.list;
    const mine = bobs.find((h) => h.mid === byBob.id)!;
    expect((await s.post('/h5/audit/decide', { id: mine.id, action: 'pass' }, bob)).code).toBe(200);
    await dropRules();
  });
});
