import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SendResult } from '@mailwing/shared';
import { insertDepartment } from '../src/features/account/account.repository.js';
import { startTestServer, type TestServer } from './harness.js';
import { startMxStandIn, type MxStandIn } from './mx-standin.js';

// Issue 17: a mail group's outside members get the group's mail through the durable
// outbound queue, whether the mail was written here or came in from outside. The
// outside world is a stand-in MX on loopback that the queue relays to.

let s: TestServer;
let mx: MxStandIn;
let ids: { op: number; boss: number };
let tok: { boss: string; op: string };

beforeAll(async () => {
  mx = await startMxStandIn();
  s = await startTestServer({
    workers: true,
    delivery: { relay: `smtp://127.0.0.1:${mx.port}`, port: 25, dnsServers: [], retryBaseMs: 200, retryMaxMs: 1_000, maxAgeMs: 60_000, leaseMs: 2_000, pollMs: 100, concurrency: 10 },
  });
  const svc = s.rt.services;
  const acme = await svc.companies.createCompany({ name: 'Acme', domain: 'acme.test' });
  const ops = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Ops' });
  const mk = (email: string, role: 'user' | 'admin', departmentId: number) => svc.companies.createUser(acme, { email, password: 'pass-word-1', name: email.split('@')[0]!, role, departmentId });
  ids = { boss: await mk('boss@acme.test', 'admin', acme.rootDepartmentId), op: await mk('op@acme.test', 'user', ops) };
  tok = { boss: await s.login('boss@acme.test', 'pass-word-1'), op: await s.login('op@acme.test', 'pass-word-1') };
}, 300_000);
afterAll(async () => {
  await s?.stop();
  await mx?.close();
});
beforeEach(() => { mx.received.length = 0; });

async function group(address: string, members: { users?: string; outside?: string }): Promise<string> {
  const g = await s.post<{ id: string }>('/h5/admin/groups/create', { address, name: address.split('@')[0]! }, tok.boss);
  expect(g.code).toBe(200);
  expect((await s.post('/h5/admin/groups/update', { id: g.data.id, ...members }, tok.boss)).code).toBe(200);
  return g.data.id;
}
const folders = async (userId: number) => (await s.rt.services.db.selectFrom('messages').select('folder_mid').where('user_id', '=', userId).orderBy('id').execute()).map((m) => m.folder_mid);
const rcpts = () => mx.received.flatMap((m) => m.to).sort();

describe('outside members of a group', () => {
  it('mail written here reaches outside members through the queue, and the local member in GroupMail', async () => {
    await group('team@acme.test', { users: String(ids.op), outside: 'friend@partner.test,pal@other.test' });
    const before = (await folders(ids.op)).length;
    const r = await s.post<SendResult>('/h5/write/send', { to: 'team@acme.test', subject: 'to the team', text: 'hello team' }, tok.boss);
    expect(r).toMatchObject({ code: 200, data: { status: 'sending' } });
    await mx.waitFor(2);
    expect(rcpts()).toEqual(['friend@partner.test', 'pal@other.test']);
    expect(mx.received[0]!.from).toBe('boss@acme.test');
    expect(mx.received[0]!.raw.toString()).toContain('Subject: to the team');
    expect((await folders(ids.op)).slice(before)).toEqual([5]);
    // One durable job per outside member, on the sent copy: its status follows them.
    const jobs = await s.rt.services.db.selectFrom('outbox').select(['rcpt', 'status']).where('message_id', '=', Number(r.data.id)).orderBy('rcpt').execute();
    expect(jobs.map((j) => j.rcpt)).toEqual(['friend@partner.test', 'pal@other.test']);
    for (let i = 0; i < 100; i++) {
      const m = await s.get<{ status: string }>('/h5/read/index', { mid: r.data.id }, tok.boss);
      if (m.data.status === 'sent') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect((await s.get<{ status: string }>('/h5/read/index', { mid: r.data.id }, tok.boss)).data.status).toBe('sent');
  });

  it('a group of outside members only takes mail from outside and passes it on as it came, once per Message-ID', async () => {
    await group('partners@acme.test', { outside: 'a@partner.test,b@partner.test' });
    const mail = { from: 'carol@example.com', to: 'partners@acme.test', subject: 'relayed', text: 'hi partners', messageId: '<relay-1@example.com>' };
    expect((await s.send(mail)).accepted).toEqual(['partners@acme.test']);
    await mx.waitFor(2);
    expect(rcpts()).toEqual(['a@partner.test', 'b@partner.test']);
    expect(mx.received[0]!.from).toBe('carol@example.com');
    const raw = mx.received[0]!.raw.toString();
    expect(raw).toMatch(/^X-Loop: partners@acme\.test\r\n/);
    expect(raw).toContain('Message-ID: <relay-1@example.com>');
    // The sender's server retries the same message (our 250 was lost): nothing is queued twice.
    await s.send(mail);
    const jobs = await s.rt.services.db.selectFrom('outbox').select('rcpt').where('idempotency_key', 'like', 'group:partners@acme.test:%').execute();
    expect(jobs).toHaveLength(2);
  });

  it('mail that already went through the group is not passed on again (no loop), but its local members still get it', async () => {
    await group('loop@acme.test', { users: String(ids.op), outside: 'list@partner.test' });
    const before = (await folders(ids.op)).length;
    await s.send({ from: 'list@partner.test', to: 'loop@acme.test', subject: 'looped', text: 'x', headers: { 'X-Loop': 'loop@acme.test' } });
    expect((await folders(ids.op)).slice(before)).toEqual([5]);
    const jobs = await s.rt.services.db.selectFrom('outbox').select('rcpt').where('rcpt', '=', 'list@partner.test').execute();
    expect(jobs).toHaveLength(0);
  });

  it('an "all outside mail" audit rule holds mail whose only outside recipients are a group\'s members', async () => {
    await group('ext@acme.test', { outside: 'x@partner.test' });
    const r = await s.post<{ id: string }>('/h5/admin/audit/rule-save', { name: 'outside', kind: 'external', params: '{}', auditors: String(ids.boss), timeoutMin: 60, onTimeout: 'pass' }, tok.boss);
    expect(r.code).toBe(200);
    const sent = await s.post<SendResult>('/h5/write/send', { to: 'ext@acme.test', subject: 'through the group', text: 'x' }, tok.op);
    expect(sent).toMatchObject({ code: 200, data: { status: 'audit_waiting' } });
    expect(await s.rt.services.db.selectFrom('outbox').select('id').where('message_id', '=', Number(sent.data.id)).execute()).toHaveLength(0);
    expect((await s.post('/h5/admin/audit/rule-delete', { id: r.data.id }, tok.boss)).code).toBe(200);
  });
});
