import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactList, ImportResult, MemberList } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

// Issue 15 (a client that feels finished), the server's part of its traps: pinyin
// initials find Chinese names, and a contacts import that took nothing is refused.

let s: TestServer;
let alice: string;

beforeAll(async () => {
  ({ s, alice } = await startDemo());
});
afterAll(async () => {
  await s.stop();
});

const contacts = async (token: string, q = '') => (await s.get<ContactList>('/h5/contact/list', { q }, token)).data.list.map((c) => c.name).sort();

async function importFile(token: string, name: string, body: string | Uint8Array): Promise<Envelope<ImportResult> & { reason?: string; errors?: unknown }> {
  const form = new FormData();
  form.append('file', new Blob([body]), name);
  return (await (await fetch(`${s.base}/h5/contact/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })).json()) as Envelope<ImportResult> & { reason?: string };
}

describe('pinyin search', () => {
  it('finds contacts by pinyin initials and by full pinyin', async () => {
    for (const [name, email] of [['张伟', 'zw@partner.test'], ['王小明', 'wxm@partner.test'], ['Zack Wolf', 'zack@partner.test']]) {
      expect((await s.post('/h5/contact/save', { name: name!, email: email! }, alice)).code).toBe(200);
    }
    expect(await contacts(alice, 'zw')).toEqual(['Zack Wolf', '张伟']);
    expect(await contacts(alice, 'ZW')).toEqual(['Zack Wolf', '张伟']);
    expect(await contacts(alice, 'wxm')).toEqual(['王小明']);
    expect(await contacts(alice, 'xm')).toEqual(['王小明']);
    expect(await contacts(alice, 'zhangwei')).toEqual(['张伟']);
    expect(await contacts(alice, 'zhang wei')).toEqual(['张伟']);
    expect(await contacts(alice, 'qq')).toEqual([]);
  });

  it('finds directory members by pinyin initials and by full pinyin', async () => {
    const svc = s.rt.services;
    const acme = await svc.companies.createCompany({ name: 'Acme', domain: 'acme.test' });
    await svc.companies.createUser(acme, { email: 'zhang@acme.test', password: 'zhang-pass-1', name: '张伟', departmentId: acme.rootDepartmentId });
    await svc.companies.createUser(acme, { email: 'li@acme.test', password: 'li-pass-1', name: '李雷', departmentId: acme.rootDepartmentId });
    const zhang = await s.login('zhang@acme.test', 'zhang-pass-1');
    const find = async (q: string) => (await s.get<MemberList>('/h5/directory/members', { q }, zhang)).data.list.map((m) => m.name).sort();
    expect(await find('zw')).toEqual(['张伟']);
    expect(await find('ll')).toEqual(['李雷']);
    expect(await find('lilei')).toEqual(['李雷']);
    expect(await find('li')).toEqual(['李雷']);
    expect(await find('xyz')).toEqual([]);
    // Other companies' Chinese names are not searched.
    expect((await s.get<MemberList>('/h5/directory/members', { q: 'zw' }, alice)).data.list).toEqual([]);
  });
});

describe('contacts import that takes nothing', () => {
  it('refuses a garbage file with a reason code instead of "0 imported"', async () => {
    const before = await contacts(alice);
    const garbage = await importFile(alice, 'photo.vcf', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]));
    expect(garbage).toMatchObject({ code: 422, reason: 'contact.import_empty' });
    expect((await importFile(alice, 'empty.vcf', '')).reason).toBe('contact.import_empty');
    expect((await importFile(alice, 'notes.csv', 'just,some\ntext,here')).reason).toBe('contact.import_none_valid');
    const nameless = await importFile(alice, 'x.vcf', 'BEGIN:VCARD\r\nVERSION:3.0\r\nEMAIL:a@b.test\r\nEND:VCARD\r\n');
    expect(nameless).toMatchObject({ code: 422, reason: 'contact.import_none_valid', errors: [{ line: 1, message: 'Contact name is required' }] });
    expect(await contacts(alice)).toEqual(before);
    // A file with one good card still imports, reporting the bad one.
    const mixed = await importFile(alice, 'y.vcf', 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:好人\r\nEMAIL:good@partner.test\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:无邮箱\r\nEND:VCARD\r\n');
    expect(mixed).toMatchObject({ code: 200, data: { imported: 1, updated: 0, errors: [{ line: 6 }] } });
  });
});

describe('not logged in (spec §8)', () => {
  it('tells a call without a session from one whose session ended', async () => {
    expect(await (await fetch(`${s.base}/h5/mbox/index`)).json()).toMatchObject({ code: 401, reason: 'session.missing' });
    expect(await (await fetch(`${s.base}/h5/mbox/index?t=no-such-token`)).json()).toMatchObject({ code: 401, reason: 'session.expired' });
  });
});
