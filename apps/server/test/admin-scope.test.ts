import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDepartment } from '../src/features/account/account.repository.js';
import { startTestServer, type TestServer } from './harness.js';

// Spec §6 on the audit, company-list, migration and announcement routes: an ordinary
// user gets 403, another company's admin 404 for our ids, and a department admin acts
// only within their department subtree (403 admin.out_of_scope outside it).

let s: TestServer;
let ids: { sales: number; east: number; ops: number; rep: number; op: number; boss: number };
let tok: Record<'boss' | 'lead' | 'rep' | 'other', string>;

beforeAll(async () => {
  s = await startTestServer();
  const svc = s.rt.services;
  const acme = await svc.companies.createCompany({ name: 'Acme', domain: 'acme.test' });
  const other = await svc.companies.createCompany({ name: 'Other', domain: 'other.test' });
  const sales = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Sales' });
  const east = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: sales, name: 'East' });
  const ops = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Ops' });
  const mk = (c: typeof acme, email: string, role: 'user' | 'admin', departmentId: number) =>
    svc.companies.createUser(c, { email, password: 'pass-word-1', name: email.split('@')[0]!, role, departmentId });
  ids = {
    sales, east, ops,
    boss: await mk(acme, 'boss@acme.test', 'admin', acme.rootDepartmentId),
    rep: await mk(acme, 'rep@acme.test', 'user', east),
    op: await mk(acme, 'op@acme.test', 'user', ops),
  };
  await mk(acme, 'lead@acme.test', 'admin', sales);
  await mk(other, 'admin@other.test', 'admin', other.rootDepartmentId);
  tok = {
    boss: await s.login('boss@acme.test', 'pass-word-1'), lead: await s.login('lead@acme.test', 'pass-word-1'),
    rep: await s.login('rep@acme.test', 'pass-word-1'), other: await s.login('admin@other.test', 'pass-word-1'),
  };
}, 300_000);
afterAll(async () => { await s?.stop(); });

const rule = (kind: string, params: object, name = kind) => ({ name, kind, params: JSON.stringify(params), auditors: String(ids.boss), timeoutMin: 60, onTimeout: 'pass' });

describe('department scope on audit, lists, migration and announcements', () => {
  it('an ordinary user gets 403 admin.required on every route', async () => {
    const calls: [string, string, Record<string, string | number>][] = [
      ['get', '/h5/admin/audit/rules', {}], ['post', '/h5/admin/audit/rule-save', rule('external', {})], ['post', '/h5/admin/audit/rule-delete', { id: 1 }],
      ['get', '/h5/admin/audit/log', {}], ['get', '/h5/admin/lists', {}], ['post', '/h5/admin/lists/add', { kind: 'block', pattern: '*@spam.test', note: '' }],
      ['post', '/h5/admin/lists/delete', { id: 1 }], ['get', '/h5/admin/migrate/list', {}], ['get', '/h5/admin/migrate/detail', { id: 1 }],
      ['post', '/h5/admin/migrate/delete', { id: 1 }], ['post', '/h5/admin/announcement/publish', { title: 'x', body: 'y', departments: '' }],
      ['get', '/h5/admin/announcement/list', {}], ['post', '/h5/admin/announcement/delete', { id: 1 }],
    ];
    for (const [method, path, body] of calls) {
      const r = method === 'get' ? await s.get(path, body, tok.rep) : await s.post(path, body, tok.rep);
      expect({ path, ...r }).toMatchObject({ path, code: 403, reason: 'admin.required' });
    }
  });

  it('audit rules: a department admin manages member and department rules of their subtree only', async () => {
    const all = await s.post<{ id: string }>('/h5/admin/audit/rule-save', rule('external', {}, 'outside mail'), tok.boss);
    expect(all.code).toBe(200);
    // Company-wide kinds and people outside Sales are not the Sales admin's.
    expect(await s.post('/h5/admin/audit/rule-save', rule('external', {}), tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/audit/rule-save', rule('member', { userIds: [String(ids.op)] }), tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/audit/rule-save', rule('department', { departmentIds: [String(ids.ops)] }), tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    const mine = await s.post<{ id: string }>('/h5/admin/audit/rule-save', rule('member', { userIds: [String(ids.rep)] }, 'rep'), tok.lead);
    expect(mine.code).toBe(200);
    expect((await s.post('/h5/admin/audit/rule-save', rule('department', { departmentIds: [String(ids.east)] }, 'east'), tok.lead)).code).toBe(200);
    // The list shows the lead only their rules; the boss sees all.
    const leadList = await s.get<{ list: { name: string }[] }>('/h5/admin/audit/rules', {}, tok.lead);
    expect(leadList.data.list.map((r) => r.name).sort()).toEqual(['east', 'rep']);
    expect((await s.get<{ list: unknown[] }>('/h5/admin/audit/rules', {}, tok.boss)).data.list).toHaveLength(3);
    // Editing or deleting the boss's rule, or turning their own into a company-wide one: 403.
    expect(await s.post('/h5/admin/audit/rule-delete', { id: all.data.id }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/audit/rule-save', { ...rule('external', {}), id: all.data.id }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/audit/rule-save', { ...rule('all', {}), id: mine.data.id }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.get('/h5/admin/audit/log', {}, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    // Another company's admin cannot see or touch ours.
    expect(await s.post('/h5/admin/audit/rule-delete', { id: all.data.id }, tok.other)).toMatchObject({ code: 404 });
    expect(await s.post('/h5/admin/audit/rule-save', { ...rule('external', {}), id: all.data.id }, tok.other)).toMatchObject({ code: 404 });
    expect((await s.get<{ list: unknown[] }>('/h5/admin/audit/rules', {}, tok.other)).data.list).toHaveLength(0);
    expect((await s.post('/h5/admin/audit/rule-delete', { id: mine.data.id }, tok.lead)).code).toBe(200);
  });

  it('company lists: only a company-wide admin changes them; a department admin may read and test', async () => {
    expect((await s.post('/h5/admin/lists/add', { kind: 'block', pattern: '*@spam.test', note: '' }, tok.boss)).code).toBe(200);
    const entry = (await s.get<{ list: { id: string }[] }>('/h5/admin/lists', {}, tok.boss)).data.list[0]!;
    expect(await s.post('/h5/admin/lists/add', { kind: 'block', pattern: '*@x.test', note: '' }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/lists/delete', { id: entry.id }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/lists/import', { csv: 'block,*@y.test' }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect((await s.get('/h5/admin/lists', {}, tok.lead)).code).toBe(200);
    expect((await s.get('/h5/admin/lists/test', { address: 'a@spam.test' }, tok.lead)).code).toBe(200);
    expect(await s.post('/h5/admin/lists/delete', { id: entry.id }, tok.other)).toMatchObject({ code: 404 });
  });

  it('migration is a company-wide admin\'s job', async () => {
    expect(await s.get('/h5/admin/migrate/list', {}, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/migrate/import', { host: '127.0.0.1', port: 993, tls: 'tls', csv: 'old@x.test,pw,rep@acme.test' }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect((await s.get('/h5/admin/migrate/list', {}, tok.boss)).code).toBe(200);
    expect(await s.get('/h5/admin/migrate/detail', { id: 1 }, tok.other)).toMatchObject({ code: 404 });
  });

  it('announcements: a department admin publishes to, lists and deletes notices of their subtree only', async () => {
    const everyone = await s.post<{ id: string }>('/h5/admin/announcement/publish', { title: 'All', body: 'b', departments: '' }, tok.boss);
    expect(everyone.code).toBe(200);
    expect(await s.post('/h5/admin/announcement/publish', { title: 'x', body: 'b', departments: '' }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/announcement/publish', { title: 'x', body: 'b', departments: String(ids.ops) }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    const sales = await s.post<{ id: string }>('/h5/admin/announcement/publish', { title: 'Sales', body: 'b', departments: `${ids.sales},${ids.east}` }, tok.lead);
    expect(sales.code).toBe(200);
    expect((await s.get<{ list: { title: string }[] }>('/h5/admin/announcement/list', {}, tok.lead)).data.list.map((a) => a.title)).toEqual(['Sales']);
    expect(await s.post('/h5/admin/announcement/delete', { id: everyone.data.id }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect(await s.post('/h5/admin/announcement/delete', { id: everyone.data.id }, tok.other)).toMatchObject({ code: 404 });
    expect((await s.get<{ list: unknown[] }>('/h5/admin/announcement/list', {}, tok.other)).data.list).toHaveLength(0);
    expect((await s.post('/h5/admin/announcement/delete', { id: sales.data.id }, tok.lead)).code).toBe(200);
  });
});
