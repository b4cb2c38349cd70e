import type { AdminAnnouncementList, AnnouncementList } from '@mailwing/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDepartment } from '../src/features/account/account.repository.js';
import { startDemo, type TestServer } from './harness.js';

// Announcements (issue 17, scope 5): to everyone or to departments (and those under
// them), read marks, read counts for the admin, and who may do what.

let s: TestServer;
let admin: string;
let alice: string;
let bob: string;
let carol: string;
let otherAdmin: string;
const dept = async (name: string) => (await s.rt.services.db.selectFrom('departments').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
const userList = async (token: string) => (await s.get<AnnouncementList>('/h5/announcement/list', {}, token)).data;
const adminList = async () => (await s.get<AdminAnnouncementList>('/h5/admin/announcement/list', {}, admin)).data.list;

beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
  admin = await s.login('admin@demo.test');
  const sv = s.rt.services;
  // Carol sits in a team under Sales: a notice to Sales reaches her too.
  const company = await sv.db.selectFrom('companies').select('id').where('name', '=', 'Demo Co').executeTakeFirstOrThrow();
  const domain = await sv.db.selectFrom('domains').select('id').where('name', '=', 'demo.test').executeTakeFirstOrThrow();
  const team = await insertDepartment(sv.db, { companyId: company.id, parentId: await dept('Sales'), name: 'Sales East' });
  await sv.companies.createUser({ companyId: company.id, domainId: domain.id }, { email: 'carol@demo.test', password: 'carol-pass-1', name: 'Carol', departmentId: team });
  carol = await s.login('carol@demo.test', 'carol-pass-1');
  const other = await sv.companies.createCompany({ name: 'Other Co', domain: 'other-notice.test' });
  await sv.companies.createUser(other, { email: 'boss@other-notice.test', password: 'other-pass-1', name: 'Boss', role: 'admin', departmentId: other.rootDepartmentId });
  otherAdmin = await s.login('boss@other-notice.test', 'other-pass-1');
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

describe('announcements', () => {
  it('a notice to everyone reaches everyone; reading it counts once', async () => {
    const r = await s.post<{ id: string }>('/h5/admin/announcement/publish', { title: 'Office closed Friday', body: 'The office is closed on Friday.' }, admin);
    expect(r.code).toBe(200);
    for (const t of [alice, bob, carol, admin]) {
      const l = await userList(t);
      expect(l.list[0]).toMatchObject({ id: r.data.id, title: 'Office closed Friday', read: false });
      expect(l.unread).toBe(1);
    }
    expect((await s.post('/h5/announcement/read', { id: r.data.id }, alice)).code).toBe(200);
    expect((await s.post('/h5/announcement/read', { id: r.data.id }, alice)).code).toBe(200);
    expect(await userList(alice)).toMatchObject({ unread: 0, list: [{ read: true }] });
    expect((await adminList())[0]).toMatchObject({ id: r.data.id, reads: 1, audience: 4, departments: [] });
    // Another company sees none of it.
    expect((await userList(otherAdmin)).list).toEqual([]);
  });

  it('a notice to a department reaches it and the departments under it, and no one else', async () => {
    const sales = String(await dept('Sales'));
    const r = await s.post<{ id: string }>('/h5/admin/announcement/publish', { title: 'Sales meeting', body: 'Monday 9:00.', departments: sales }, admin);
    expect(r.code).toBe(200);
    expect((await userList(alice)).list.map((a) => a.title)).toContain('Sales meeting');
    expect((await userList(carol)).list.map((a) => a.title)).toContain('Sales meeting');
    expect((await userList(bob)).list.map((a) => a.title)).not.toContain('Sales meeting');
    // Bob cannot mark what was not sent to him: it does not exist for him.
    expect((await s.post('/h5/announcement/read', { id: r.data.id }, bob)).code).toBe(404);
    await s.post('/h5/announcement/read', { id: r.data.id }, carol);
    expect((await adminList()).find((a) => a.id === r.data.id)).toMatchObject({ audience: 2, reads: 1, departments: [sales] });
  });

  it('refuses a department of another company, ordinary users (403), and another company\'s admin (404)', async () => {
    const otherDept = (await s.rt.services.db.selectFrom('departments').select('id').where('name', '=', 'Other Co').executeTakeFirstOrThrow()).id;
    const bad = await s.post('/h5/admin/announcement/publish', { title: 'x', body: 'y', departments: String(otherDept) }, admin);
    expect(bad.code).toBe(422);
    expect(JSON.stringify(bad)).toContain('announcement.department');
    const id = (await adminList())[0]!.id;
    for (const [route, body] of [['/h5/admin/announcement/publish', { title: 'x', body: 'y' }], ['/h5/admin/announcement/delete', { id }]] as const) {
      const r = await s.post(route, body as Record<string, string>, alice);
      expect(r.code, route).toBe(403);
      expect(JSON.stringify(r)).toContain('admin.required');
    }
    expect((await s.get('/h5/admin/announcement/list', {}, alice)).code).toBe(403);
    expect((await s.post('/h5/admin/announcement/delete', { id }, otherAdmin)).code).toBe(404);
    expect((await s.get<AdminAnnouncementList>('/h5/admin/announcement/list', {}, otherAdmin)).data.list).toEqual([]);
    expect((await s.post('/h5/announcement/read', { id }, otherAdmin)).code).toBe(404);
    expect((await s.post('/h5/admin/announcement/delete', { id }, admin)).code).toBe(200);
    expect((await adminList()).some((a) => a.id === id)).toBe(false);
  });
});
