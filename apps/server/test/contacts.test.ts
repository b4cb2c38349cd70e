import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactList, DepartmentTree, ImportResult, MailList, Member, MemberList, SenderRules } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const contacts = async (token: string, q = '') => (await s.get<ContactList>('/h5/contact/list', { q }, token)).data;

async function importFile(token: string, name: string, body: string): Promise<Envelope<ImportResult>> {
  const form = new FormData();
  form.append('file', new Blob([body]), name);
  return (await (await fetch(`${s.base}/h5/contact/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<ImportResult>;
}

describe('personal contacts', () => {
  it('requires name and e-mail (spec §5), indexes Chinese names by pinyin, and finds them by it', async () => {
    expect(await s.post('/h5/contact/save', { email: 'x@y.test' }, alice)).toMatchObject({ code: 422, error: { name: 'Contact name is required' } });
    expect(await s.post('/h5/contact/save', { name: 'X' }, alice)).toMatchObject({ code: 422, error: { email: 'Contact e-mail is required' } });
    expect(await s.post('/h5/contact/save', { name: 'X', email: 'nope' }, alice)).toMatchObject({ code: 422, error: { email: 'is not a valid mailbox address' } });
    for (const [name, email] of [['李雷', 'lilei@partner.test'], ['韩梅梅', 'hmm@partner.test'], ['Zoe Adams', 'zoe@partner.test'], ['曾小贤', 'zeng@partner.test'], ['123 Corp', 'ops@corp.test']]) {
      expect((await s.post('/h5/contact/save', { name: name!, email: email! }, alice)).code).toBe(200);
    }
    expect(await s.post('/h5/contact/save', { name: 'Dup', email: 'LILEI@partner.test' }, alice)).toMatchObject({ code: 422, error: { email: 'A contact with this address already exists' } });
    const all = await contacts(alice);
    expect(all.list.map((c) => [c.name, c.initial])).toEqual([['韩梅梅', 'H'], ['李雷', 'L'], ['曾小贤', 'Z'], ['Zoe Adams', 'Z'], ['123 Corp', '#']]);
    expect((await contacts(alice, 'lilei')).list.map((c) => c.name)).toEqual(['李雷']);
    expect((await contacts(alice, 'li lei')).list.map((c) => c.name)).toEqual(['李雷']);
    expect((await contacts(bob)).list).toEqual([]);
  });

  it('lists important contacts first and marks their mail in the inbox', async () => {
    const zoe = (await contacts(alice)).list.find((c) => c.name === 'Zoe Adams')!;
    expect((await s.post('/h5/contact/important', { id: zoe.id, important: 1 }, bob)).code).toBe(404);
    await s.post('/h5/contact/important', { id: zoe.id, important: 1 }, alice);
    expect((await contacts(alice)).list[0]!.name).toBe('Zoe Adams');
    await s.send({ from: 'Zoe <zoe@partner.test>', to: 'alice@demo.test', subject: 'From an important person', text: 'hi' });
    await s.send({ from: 'nobody@partner.test', to: 'alice@demo.test', subject: 'From someone else', text: 'hi' });
    const inbox = (await s.get<MailList>('/h5/mail/list', { mid: '0' }, alice)).data.list;
    expect(inbox.find((m) => m.subject === 'From an important person')!.fromImportant).toBe(true);
    expect(inbox.find((m) => m.subject === 'From someone else')!.fromImportant).toBe(false);
  });

  it('groups: a name is required, members come and go, foreign ids are refused', async () => {
    expect(await s.post('/h5/contact/group-save', { name: ' ' }, alice)).toMatchObject({ code: 422, error: { name: 'Group name is required' } });
    const g = (await s.post<{ id: string }>('/h5/contact/group-save', { name: '客户' }, alice)).data;
    const list = (await contacts(alice)).list;
    const ids = list.filter((c) => c.email.endsWith('@partner.test')).map((c) => c.id);
    await s.post('/h5/contact/group-members', { id: g.id, add: ids.join(',') }, alice);
    expect((await s.get<ContactList>('/h5/contact/list', { group: g.id }, alice)).data.list).toHaveLength(ids.length);
    await s.post('/h5/contact/group-members', { id: g.id, remove: ids[0]! }, alice);
    expect((await contacts(alice)).groups).toEqual([{ id: g.id, name: '客户', count: ids.length - 1 }]);
    expect((await s.post('/h5/contact/group-members', { id: g.id, add: ids[0]! }, bob)).code).toBe(404);
    const bobContact = (await s.post<{ id: string }>('/h5/contact/save', { name: 'Bob friend', email: 'friend@x.test' }, bob)).data;
    expect((await s.post('/h5/contact/group-members', { id: g.id, add: bobContact.id }, alice)).code).toBe(404);
    await s.post('/h5/contact/group-save', { id: g.id, name: 'Clients' }, alice);
    expect((await contacts(alice)).groups[0]!.name).toBe('Clients');
  });

  it('round-trips vCard and CSV with Chinese names, reporting a broken row by its line', async () => {
    const vcf = await (await fetch(`${s.base}/h5/contact/export?format=vcf&t=${alice}`)).text();
    expect(vcf).toContain('FN:李雷');
    const csvBytes = Buffer.from(await (await fetch(`${s.base}/h5/contact/export?format=csv&t=${alice}`)).arrayBuffer());
    expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = csvBytes.toString('utf8');
    expect(csv).toContain('韩梅梅,hmm@partner.test');

    const carol = await s.login('admin@demo.test');
    const fromVcf = await importFile(carol, 'contacts.vcf', vcf);
    expect(fromVcf.data).toEqual({ imported: 5, updated: 0, errors: [] });
    const imported = await contacts(carol);
    expect(imported.list.map((c) => c.name).sort()).toEqual((await contacts(alice)).list.map((c) => c.name).sort());
    expect(imported.groups.map((g) => g.name)).toEqual(['Clients']);

    const broken = [
      'Name,Email,Phone,Groups',
      '王小明,wxm@partner.test,13800000000,朋友',
      ',nameless@partner.test,,',
      '坏地址,not-an-address,,',
      'Zoe Adams,zoe@partner.test,555,',
      '"unterminated,quote@partner.test',
    ].join('\n');
    const fromCsv = await importFile(carol, 'broken.csv', broken);
    expect(fromCsv.data.imported).toBe(1);
    expect(fromCsv.data.updated).toBe(1);
    expect(fromCsv.data.errors.map((e) => e.line)).toEqual([3, 4, 6]);
    expect(fromCsv.data.errors[0]!.message).toBe('Contact name is required');
    expect((await contacts(carol, '王小明')).list[0]).toMatchObject({ initial: 'W', phone: '13800000000' });

    const badCard = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:好人\r\nEMAIL:good@partner.test\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:无邮箱\r\nEND:VCARD\r\n';
    const fromBad = await importFile(carol, 'x.vcf', badCard);
    expect(fromBad.data).toEqual({ imported: 1, updated: 0, errors: [{ line: 6, message: 'Contact e-mail is required' }] });
  });
});

describe('block and allow lists on SMTP receipt', () => {
  it('files blocked senders in Spam, and an allowed sender never', async () => {
    expect(await s.post('/h5/contact/rule-add', { kind: 'block', pattern: 'not a domain' }, bob)).toMatchObject({ code: 422 });
    await s.post('/h5/contact/rule-add', { kind: 'block', pattern: '@spammy.test' }, bob);
    await s.post('/h5/contact/rule-add', { kind: 'block', pattern: 'pest@other.test' }, bob);
    await s.post('/h5/contact/rule-add', { kind: 'allow', pattern: 'friend@spammy.test' }, bob);
    expect((await s.get<SenderRules>('/h5/contact/rules', {}, bob)).data).toEqual({ block: ['pest@other.test', 'spammy.test'], allow: ['friend@spammy.test'] });
    await s.send({ from: 'ads@spammy.test', to: 'bob@demo.test, alice@demo.test', subject: 'Cheap stuff', text: 'buy' });
    await s.send({ from: 'pest@other.test', to: 'bob@demo.test', subject: 'Pest', text: 'x' });
    await s.send({ from: 'friend@spammy.test', to: 'bob@demo.test', subject: 'From a friend', text: 'x' });
    const subjects = async (token: string, mid: string) => (await s.get<MailList>('/h5/mail/list', { mid, size: 100 }, token)).data.list.map((m) => m.subject);
    expect(await subjects(bob, '3')).toEqual(expect.arrayContaining(['Cheap stuff', 'Pest']));
    expect(await subjects(bob, '0')).toContain('From a friend');
    expect(await subjects(bob, '0')).not.toContain('Cheap stuff');
    // Rules are personal: alice has none, so her copy is in her Inbox.
    expect(await subjects(alice, '0')).toContain('Cheap stuff');
    await s.post('/h5/contact/rule-delete', { kind: 'block', pattern: 'spammy.test' }, bob);
    await s.send({ from: 'ads@spammy.test', to: 'bob@demo.test', subject: 'Cheap again', text: 'buy' });
    expect(await subjects(bob, '0')).toContain('Cheap again');
  });
});

describe('company directory', () => {
  it('shows departments and members to everyone in the company, searchable', async () => {
    const tree = (await s.get<DepartmentTree>('/h5/directory/departments', {}, alice)).data;
    expect(tree.list.map((d) => d.name)).toEqual(expect.arrayContaining(['Demo Co', 'Sales', 'Engineering']));
    const sales = tree.list.find((d) => d.name === 'Sales')!;
    expect((await s.get<MemberList>('/h5/directory/members', { dept: sales.id }, alice)).data.list.map((m) => m.email)).toEqual(['alice@demo.test']);
    const whole = (await s.get<MemberList>('/h5/directory/members', { dept: tree.rootId, deep: 1 }, alice)).data;
    expect(whole.list.map((m) => m.email).sort()).toEqual(['admin@demo.test', 'alice@demo.test', 'bob@demo.test']);
    expect((await s.get<MemberList>('/h5/directory/members', { q: 'engineer' }, alice)).data.list.map((m) => m.email)).toEqual(['bob@demo.test']);
    const bobMember = (await s.get<Member>('/h5/directory/member', { id: whole.list.find((m) => m.email === 'bob@demo.test')!.id }, alice)).data;
    expect(bobMember).toMatchObject({ name: 'Bob Li', department: 'Engineering', jobTitle: 'Engineer' });
  });

  it('enforces spec §6 on the server: users cannot edit, demo accounts cannot, admins only in their departments, no admin in the root', async () => {
    const demoTree = (await s.get<DepartmentTree>('/h5/directory/departments', {}, alice)).data;
    const sales = demoTree.list.find((d) => d.name === 'Sales')!;
    expect(await s.post('/h5/directory/member-edit', { name: 'X', departmentId: sales.id, email: 'x@demo.test', password: 'password1' }, alice)).toMatchObject({ code: 403 });
    const demoAdmin = await s.login('admin@demo.test');
    expect(await s.post('/h5/directory/member-edit', { name: 'X', departmentId: sales.id, email: 'x@demo.test', password: 'password1' }, demoAdmin))
      .toMatchObject({ code: 403, error: 'Demo accounts cannot add or edit users' });

    // A real company: a postmaster at the root, and a department admin for Sales only.
    const svc = s.rt.services;
    const acme = await svc.companies.createCompany({ name: 'Acme', domain: 'acme.test' });
    const { insertDepartment } = await import('../src/features/account/account.repository.js');
    const acmeSales = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Sales' });
    const acmeEast = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acmeSales, name: 'East' });
    const acmeOps = await insertDepartment(svc.db, { companyId: acme.companyId, parentId: acme.rootDepartmentId, name: 'Ops' });
    await svc.companies.createUser(acme, { email: 'boss@acme.test', password: 'boss-pass-1', name: 'Boss', role: 'admin', departmentId: acme.rootDepartmentId });
    await svc.companies.createUser(acme, { email: 'lead@acme.test', password: 'lead-pass-1', name: 'Lead', role: 'admin', departmentId: acmeSales });
    const opsUser = await svc.companies.createUser(acme, { email: 'ops@acme.test', password: 'ops-pass-1', name: 'Ops', departmentId: acmeOps });
    const boss = await s.login('boss@acme.test', 'boss-pass-1');
    const lead = await s.login('lead@acme.test', 'lead-pass-1');

    const created = await s.post<Member>('/h5/directory/member-edit', { email: 'new@acme.test', password: 'new-pass-1', name: '新人', departmentId: String(acmeEast), jobTitle: 'Rep' }, lead);
    expect(created).toMatchObject({ code: 200, data: { email: 'new@acme.test', department: 'East' } });
    expect(await s.login('new@acme.test', 'new-pass-1')).toBeTruthy();
    expect(await s.post('/h5/directory/member-edit', { id: String(opsUser), name: 'Hacked', departmentId: String(acmeEast) }, lead))
      .toMatchObject({ code: 403, error: 'You can only edit members of your own departments' });
    expect(await s.post('/h5/directory/member-edit', { id: created.data.id, name: '新人', departmentId: String(acmeOps) }, lead))
      .toMatchObject({ code: 403, error: 'You can only place members in your own departments' });
    expect(await s.post('/h5/directory/member-edit', { id: created.data.id, name: '新人', departmentId: String(acme.rootDepartmentId), role: 'admin' }, boss))
      .toMatchObject({ code: 422, error: { departmentId: 'An admin cannot be assigned to the root department' } });
    expect((await s.post<Member>('/h5/directory/member-edit', { id: String(opsUser), name: 'Ops Lead', departmentId: String(acmeOps), role: 'admin' }, boss)).data)
      .toMatchObject({ name: 'Ops Lead', role: 'admin' });
    // Other companies' members are not there at all.
    expect((await s.get('/h5/directory/member', { id: String(opsUser) }, alice)).code).toBe(404);
    expect(await s.post('/h5/directory/member-edit', { email: 'x@demo.test', password: 'password1', name: 'X', departmentId: String(acmeEast) }, lead))
      .toMatchObject({ code: 422, error: { email: 'must be on one of the company’s domains' } });
  });
});
