import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDepartment } from '../src/features/account/account.repository.js';
import { withPeopleTables } from '../src/features/people/tables.js';
import { startTestServer, type TestServer } from './harness.js';

// Issue 17 scopes 2 and 3: people, departments, quotas, aliases and groups, over real HTTP and SMTP.

let s: TestServer;
let acme: { companyId: number; domainId: number; rootDepartmentId: number };
type Ids = { sales: number; east: number; ops: number; boss: number; lead: number; rep: number; op: number; otherAdmin: number };
let ids: Ids;
let tok: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer();
  const svc = s.rt.services;
  acme = await svc.companies.createCompany({ name: 'Acme', domain: 'acme.test' });
  const other = await svc.companies.createCompany({ name: 'Other', domain: 'other.test' });
  const sales = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Sales' });
  const east = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: sales, name: 'East' });
  const ops = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Ops' });
  const mk = (c: typeof acme, email: string, role: 'user' | 'admin', departmentId: number | null) =>
    svc.companies.createUser(c, { email, password: 'pass-word-1', name: email.split('@')[0]!, role, departmentId });
  ids = {
    sales, east, ops,
    boss: await mk(acme, 'boss@acme.test', 'admin', acme.rootDepartmentId),
    lead: await mk(acme, 'lead@acme.test', 'admin', sales),
    rep: await mk(acme, 'rep@acme.test', 'user', east),
    op: await mk(acme, 'op@acme.test', 'user', ops),
    otherAdmin: await mk(other, 'admin@other.test', 'admin', other.rootDepartmentId),
  };
  tok = {};
  for (const u of ['boss@acme.test', 'lead@acme.test', 'rep@acme.test', 'admin@other.test']) tok[u.split('@')[0]!] = await s.login(u, 'pass-word-1');
}, 300_000);
afterAll(async () => { await s?.stop(); });

const folderOf = async (userId: number) =>
  (await s.rt.services.db.selectFrom('messages').select('folder_mid').where('user_id', '=', userId).orderBy('id').execute()).map((m) => m.folder_mid);

describe('permissions on every people/quota/group route', () => {
  const routes = (t: Ids): [method: 'get' | 'post', path: string, body: Record<string, string | number>][] => [
    ['get', '/h5/admin/people/list', {}],
    ['get', '/h5/admin/people/get', { id: t.op }],
    ['post', '/h5/admin/people/update', { id: t.op, name: 'X' }],
    ['post', '/h5/admin/people/delete', { id: t.op }],
    ['post', '/h5/admin/people/reset-password', { id: t.op, password: 'new-pass-word' }],
    ['post', '/h5/admin/people/scope', { id: t.op, departments: String(t.ops) }],
    ['post', '/h5/admin/people/create', { email: 'z@acme.test', name: 'Z', password: 'pass-word-1', departmentId: t.ops }],
    ['post', '/h5/admin/people/import', { csv: `email,name,password,department\nz@acme.test,Z,pass-word-1,Ops` }],
    ['get', '/h5/admin/departments/list', {}],
    ['post', '/h5/admin/departments/create', { parentId: t.ops, name: 'Sub' }],
    ['post', '/h5/admin/departments/rename', { id: t.ops, name: 'Ops2' }],
    ['post', '/h5/admin/departments/move', { id: t.ops, parentId: t.sales }],
    ['post', '/h5/admin/departments/delete', { id: t.ops }],
    ['get', '/h5/admin/quota/summary', {}],
    ['post', '/h5/admin/quota/company', { quotaBytes: 1 }],
    ['get', '/h5/admin/aliases/list', {}],
    ['post', '/h5/admin/aliases/create', { address: 'al@acme.test', userId: t.op }],
    ['post', '/h5/admin/aliases/delete', { id: 999999 }],
    ['get', '/h5/admin/groups/list', {}],
    ['post', '/h5/admin/groups/create', { address: 'g@acme.test', name: 'G' }],
    ['post', '/h5/admin/groups/update', { id: 999999, name: 'G' }],
    ['post', '/h5/admin/groups/delete', { id: 999999 }],
  ];
  const call = (m: 'get' | 'post', p: string, b: Record<string, string | number>, t: string) => (m === 'get' ? s.get(p, b, t) : s.post(p, b, t));

  it('an ordinary user gets 403 admin.required everywhere', async () => {
    for (const [m, p, b] of routes(ids)) expect(await call(m, p, b, tok.rep!), p).toMatchObject({ code: 403, reason: 'admin.required' });
  });

  it('an admin outside their department scope gets 403 admin.out_of_scope (Ops is not under Sales)', async () => {
    const scoped = routes(ids).filter(([, p]) => !p.endsWith('/list') && !p.endsWith('/summary') && !/(aliases|groups)\/delete|groups\/update/.test(p));
    for (const [m, p, b] of scoped) {
      const r = await call(m, p, b, tok.lead!);
      // The import answers per line: the out-of-scope line is refused with the same reason.
      if (p.endsWith('/import')) expect(r, p).toMatchObject({ code: 200, data: { created: 0, lines: [{ line: 2, ok: false, reason: 'admin.out_of_scope' }] } });
      else expect(r, p).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    }
    // Lists only show what is in scope.
    const list = await s.get<{ list: { email: string }[] }>('/h5/admin/people/list', {}, tok.lead);
    expect(list.data.list.map((p) => p.email).sort()).toEqual(['lead@acme.test', 'rep@acme.test']);
  });

  it("another company's admin gets 404 for this company's objects", async () => {
    const byId = routes(ids).filter(([, , b]) => 'id' in b || 'userId' in b || 'parentId' in b);
    for (const [m, p, b] of byId) expect((await call(m, p, b, tok.admin!)).code, p).toBe(404);
    // Acme's real group and alias ids, too.
    const g = await s.post<{ id: string }>('/h5/admin/groups/create', { address: 'probe@acme.test', name: 'Probe' }, tok.boss);
    const a = await s.post<{ id: string }>('/h5/admin/aliases/create', { address: 'probe-alias@acme.test', userId: ids.op }, tok.boss);
    expect((await s.post('/h5/admin/groups/update', { id: g.data.id, name: 'x' }, tok.admin)).code).toBe(404);
    expect((await s.post('/h5/admin/groups/delete', { id: g.data.id }, tok.admin)).code).toBe(404);
    expect((await s.post('/h5/admin/aliases/delete', { id: a.data.id }, tok.admin)).code).toBe(404);
    expect(await s.post('/h5/admin/aliases/delete', { id: a.data.id }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect((await s.post('/h5/admin/groups/delete', { id: g.data.id }, tok.boss)).code).toBe(200);
    const list = await s.get<{ list: { email: string }[] }>('/h5/admin/people/list', {}, tok.admin);
    expect(list.data.list.map((p) => p.email)).toEqual(['admin@other.test']);
  });

  it('a demo company is read-only for adding and editing users', async () => {
    const demoAdmin = await s.login('admin@demo.test');
    expect(await s.post('/h5/admin/people/create', { email: 'n@demo.test', name: 'N', password: 'pass-word-1' }, demoAdmin)).toMatchObject({ code: 403, reason: 'admin.demo_read_only' });
    expect((await s.get('/h5/admin/people/list', {}, demoAdmin)).code).toBe(200);
  });
});

describe('people and departments', () => {
  it('creates, moves, disables, resets and deletes a user', async () => {
    const made = await s.post<{ id: string }>('/h5/admin/people/create', { email: 'New@Acme.test', name: '新人', password: 'pass-word-1', departmentId: ids.east }, tok.lead);
    expect(made.code).toBe(200);
    expect(await s.post('/h5/admin/people/create', { email: 'new@acme.test', name: 'again', password: 'pass-word-1', departmentId: ids.east }, tok.lead))
      .toMatchObject({ code: 422, reason: 'people.email_taken' });
    expect(await s.post('/h5/admin/people/create', { email: 'x@other.test', name: 'x', password: 'pass-word-1', departmentId: ids.east }, tok.lead))
      .toMatchObject({ code: 422, reason: 'people.domain_not_hosted' });
    const id = made.data.id;
    const user = await s.login('new@acme.test', 'pass-word-1');
    // Moving out of the lead's scope is refused; the boss can.
    expect(await s.post('/h5/admin/people/update', { id, departmentId: ids.ops }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    expect((await s.post<{ departmentId: string }>('/h5/admin/people/update', { id, departmentId: ids.ops }, tok.boss)).data.departmentId).toBe(String(ids.ops));
    expect(await s.post('/h5/admin/people/update', { id, status: 'disabled' }, tok.boss)).toMatchObject({ code: 200, data: { status: 'disabled' } });
    expect((await s.get('/h5/mbox/index', {}, user)).code).toBe(401);
    await s.post('/h5/admin/people/update', { id, status: 'active' }, tok.boss);
    expect((await s.post('/h5/admin/people/reset-password', { id, password: 'brand-new-pass' }, tok.boss)).code).toBe(200);
    expect(await s.login('new@acme.test', 'brand-new-pass')).toBeTruthy();
    expect(await s.post('/h5/admin/people/update', { id, role: 'admin', departmentId: acme.rootDepartmentId }, tok.boss)).toMatchObject({ code: 422, reason: 'admin.scope_root' });
    expect(await s.post('/h5/admin/people/scope', { id: ids.lead, departments: String(acme.rootDepartmentId) }, tok.boss)).toMatchObject({ code: 422, reason: 'admin.scope_root' });
    expect(await s.post('/h5/admin/people/scope', { id: ids.lead, departments: String(ids.sales) }, tok.lead)).toMatchObject({ code: 403 });
    await s.send({ from: 'x@example.com', to: 'new@acme.test', subject: 'hi', text: 'hello' });
    expect((await s.post('/h5/admin/people/delete', { id }, tok.boss)).code).toBe(200);
    expect((await s.get('/h5/admin/people/get', { id }, tok.boss)).code).toBe(404);
    expect(await s.post('/h5/admin/people/delete', { id: ids.boss }, tok.boss)).toMatchObject({ code: 403, reason: 'people.self' });
  });

  it('manages the department tree: no cycles, no deleting the root or a non-empty one', async () => {
    const sub = await s.post<{ id: string }>('/h5/admin/departments/create', { parentId: ids.east, name: 'East-1' }, tok.lead);
    expect(sub.code).toBe(200);
    expect(await s.post('/h5/admin/departments/move', { id: ids.sales, parentId: sub.data.id }, tok.boss)).toMatchObject({ code: 422, reason: 'department.cycle' });
    expect(await s.post('/h5/admin/departments/delete', { id: ids.east }, tok.boss)).toMatchObject({ code: 422, reason: 'department.not_empty' });
    expect(await s.post('/h5/admin/departments/delete', { id: acme.rootDepartmentId }, tok.boss)).toMatchObject({ code: 422, reason: 'department.root' });
    expect((await s.post('/h5/admin/departments/rename', { id: sub.data.id, name: 'East One' }, tok.lead)).code).toBe(200);
    expect((await s.post('/h5/admin/departments/delete', { id: sub.data.id }, tok.lead)).code).toBe(200);
    const tree = await s.get<{ list: { name: string; inScope: boolean }[] }>('/h5/admin/departments/list', {}, tok.lead);
    expect(tree.data.list.filter((d) => d.inScope).map((d) => d.name).sort()).toEqual(['East', 'Sales']);
  });

  it('imports 1,000 CSV rows with errors reported per line', async () => {
    const rows = ['email,name,password,department'];
    for (let i = 0; i < 1000; i++) {
      if (i === 10) rows.push('not-an-address,Bad,pass-word-1,East');
      else if (i === 20) rows.push(`dup${i}@acme.test,Short,123,East`);
      else if (i === 30) rows.push('rep@acme.test,Taken,pass-word-1,East');
      else if (i === 40) rows.push(`u${i}@acme.test,NoDept,pass-word-1,Nowhere`);
      else rows.push(`u${i}@acme.test,"Name, ${i}",pass-word-1,East`);
    }
    const t0 = Date.now();
    const r = await s.post<{ created: number; failed: number; lines: { line: number; ok: boolean; reason?: string }[] }>('/h5/admin/people/import', { csv: rows.join('\n') }, tok.lead);
    console.log(`csv import of 1000 rows: ${Date.now() - t0} ms`);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ created: 996, failed: 4 });
    expect(r.data.lines.filter((l) => !l.ok).map((l) => [l.line, l.reason])).toEqual([
      [12, 'people.csv_email'], [22, 'people.csv_password'], [32, 'people.email_taken'], [42, 'department.not_found'],
    ]);
  }, 600_000);
});

describe('quotas', () => {
  it('warns at 85/90/95 % once per crossing, answers 452 4.2.2 at 100 %, and refuses a local send clearly', async () => {
    const p = withPeopleTables(s.rt.services.db);
    expect((await s.post('/h5/admin/people/update', { id: ids.op, quotaBytes: 20_000 }, tok.boss)).code).toBe(200);
    const body = 'x'.repeat(4_000);
    const notices = async () => (await p.selectFrom('quota_notices').select('level').where('user_id', '=', ids.op).orderBy('id').execute()).map((n) => n.level);
    for (let i = 0; i < 4; i++) await s.send({ from: 'x@example.com', to: 'op@acme.test', subject: `m${i}`, text: body });
    const used = Number((await p.selectFrom('users').select(['used_bytes']).where('id', '=', ids.op).executeTakeFirstOrThrow()).used_bytes);
    expect(used).toBeGreaterThan(17_000);
    expect(used).toBeLessThan(20_000);
    expect(await notices()).toEqual([used >= 19_000 ? 95 : used >= 18_000 ? 90 : 85]);
    // One more: full. The mail itself is still stored (it was accepted before the mailbox filled).
    await s.send({ from: 'x@example.com', to: 'op@acme.test', subject: 'fill', text: body });
    expect((await notices()).at(-1)).toBe(100);
    // The warnings are mailed to the user and to the admins over them (boss: company-wide; not lead, whose Sales does not hold Ops).
    const subjects = async (userId: number) => (await s.rt.services.db.selectFrom('messages').innerJoin('mail_contents', 'mail_contents.id', 'messages.content_id')
      .select('mail_contents.subject').where('messages.user_id', '=', userId).execute()).map((m) => m.subject);
    for (let i = 0; i < 100 && !(await subjects(ids.boss)).some((x) => x.includes('Mailbox full: op@acme.test')); i++) {
      await s.rt.services.quotaNotices.tick();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await subjects(ids.boss)).filter((x) => x.includes('op@acme.test'))).toHaveLength(2);
    expect((await subjects(ids.lead)).filter((x) => x.includes('op@acme.test'))).toHaveLength(0);
    expect((await subjects(ids.op)).filter((x) => x.includes('Mailbox'))).toHaveLength(2);
    const before = (await folderOf(ids.op)).length;
    const err = await s.send({ from: 'x@example.com', to: 'op@acme.test', subject: 'refused', text: body }).catch((e: { responseCode: number; response: string }) => e);
    expect(err).toMatchObject({ responseCode: 452 });
    expect((err as { response: string }).response).toContain('4.2.2');
    expect((await folderOf(ids.op)).length).toBe(before);
    const local = await s.post('/h5/write/send', { to: 'op@acme.test', subject: 'hi', text: 'hello' }, tok.rep);
    expect(local).toMatchObject({ code: 422, reason: 'compose.recipient_full' });
    // The admin sees it; raising the quota re-arms the warnings and mail flows again.
    const sum = await s.get<{ nearFull: { email: string; level: number }[] }>('/h5/admin/quota/summary', {}, tok.boss);
    expect(sum.data.nearFull).toContainEqual(expect.objectContaining({ email: 'op@acme.test', level: 100 }));
    await s.post('/h5/admin/people/update', { id: ids.op, quotaBytes: 10_000_000 }, tok.boss);
    await s.send({ from: 'x@example.com', to: 'op@acme.test', subject: 'fits again', text: body });
    expect((await folderOf(ids.op)).length).toBe(before + 1);
    expect((await notices()).length).toBe(2);
  });

  it('keeps per-user quotas within the company total', async () => {
    const sum = await s.get<{ allocatedBytes: number }>('/h5/admin/quota/summary', {}, tok.boss);
    expect(await s.post('/h5/admin/quota/company', { quotaBytes: sum.data.allocatedBytes - 1 }, tok.boss)).toMatchObject({ code: 422, reason: 'quota.company_exceeded' });
    expect((await s.post('/h5/admin/quota/company', { quotaBytes: sum.data.allocatedBytes + 1000 }, tok.boss)).code).toBe(200);
    expect(await s.post('/h5/admin/people/update', { id: ids.rep, quotaBytes: 6 * 1024 ** 3 }, tok.boss)).toMatchObject({ code: 422, reason: 'quota.company_exceeded' });
    await s.post('/h5/admin/quota/company', { quotaBytes: '' }, tok.boss);
  });
});

describe('aliases and groups over SMTP and local delivery', () => {
  it('an alias delivers to its user Inbox', async () => {
    expect((await s.post('/h5/admin/aliases/create', { address: 'sales-rep@acme.test', userId: ids.rep }, tok.lead)).code).toBe(200);
    expect(await s.post('/h5/admin/aliases/create', { address: 'op@acme.test', userId: ids.rep }, tok.lead)).toMatchObject({ code: 422, reason: 'group.address_taken' });
    const before = (await folderOf(ids.rep)).length;
    await s.send({ from: 'x@example.com', to: 'sales-rep@acme.test', subject: 'via alias', text: 'hi' });
    expect((await folderOf(ids.rep)).slice(before)).toEqual([0]);
  });

  it('a group with user, department and outside members lands in GroupMail and honours who may send', async () => {
    expect(await s.post('/h5/admin/groups/create', { address: 'team@acme.test', name: 'Team' }, tok.lead)).toMatchObject({ code: 403, reason: 'admin.out_of_scope' });
    const g = await s.post<{ id: string }>('/h5/admin/groups/create', { address: 'team@acme.test', name: 'Team' }, tok.boss);
    expect(g.code).toBe(200);
    const up = await s.post('/h5/admin/groups/update', { id: g.data.id, users: String(ids.op), departments: String(ids.sales), outside: 'friend@example.com', senders: 'vip@example.com' }, tok.boss);
    expect(up).toMatchObject({ code: 200, data: { users: [String(ids.op)], departments: [String(ids.sales)], outside: ['friend@example.com'] } });
    const count = async () => ({ op: (await folderOf(ids.op)).length, rep: (await folderOf(ids.rep)).length, lead: (await folderOf(ids.lead)).length });
    let before = await count();
    await s.send({ from: 'x@example.com', to: 'team@acme.test', subject: 'to the team', text: 'hi' });
    expect((await folderOf(ids.rep)).at(-1)).toBe(5);
    expect((await folderOf(ids.op)).at(-1)).toBe(5);
    expect(await count()).toEqual({ op: before.op + 1, rep: before.rep + 1, lead: before.lead + 1 });

    await s.post('/h5/admin/groups/update', { id: g.data.id, sendPolicy: 'members' }, tok.boss);
    const refused = await s.send({ from: 'x@example.com', to: 'team@acme.test', subject: 'no', text: 'hi' }).catch((e: { responseCode: number }) => e);
    expect(refused).toMatchObject({ responseCode: 550 });
    before = await count();
    await s.send({ from: 'friend@example.com', to: 'team@acme.test', subject: 'outside member', text: 'hi' });
    expect((await count()).rep).toBe(before.rep + 1);
    // Local: rep is a member through Sales; the boss is not.
    expect((await s.post('/h5/write/send', { to: 'team@acme.test', subject: 'member', text: 'hi' }, tok.rep)).code).toBe(200);
    expect(await s.post('/h5/write/send', { to: 'team@acme.test', subject: 'boss', text: 'hi' }, tok.boss)).toMatchObject({ code: 422, reason: 'compose.group_closed' });
    expect((await s.post('/h5/admin/groups/update', { id: g.data.id, sendPolicy: 'company' }, tok.boss)).code).toBe(200);
    expect((await s.post('/h5/write/send', { to: 'team@acme.test', subject: 'boss', text: 'hi' }, tok.boss)).code).toBe(200);
    await s.post('/h5/admin/groups/update', { id: g.data.id, sendPolicy: 'listed' }, tok.boss);
    expect(await s.send({ from: 'friend@example.com', to: 'team@acme.test', subject: 'x', text: 'x' }).catch((e: { responseCode: number }) => e)).toMatchObject({ responseCode: 550 });
    expect((await s.send({ from: 'vip@example.com', to: 'team@acme.test', subject: 'x', text: 'x' })).accepted).toEqual(['team@acme.test']);
    expect((await s.post('/h5/admin/groups/delete', { id: g.data.id }, tok.boss)).code).toBe(200);
  });
});
