import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_CATEGORY_MAX_COUNT, TEMPLATE_MAX_BYTES, type TemplateBook, type TemplateCategory, type TemplateSaved, type TemplateShelf } from '@mailwing/shared';
import { startDemo, type Envelope, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
let bob: string;
let admin: string;
let otherAdmin: string;
let otherUser: string;
beforeAll(async () => {
  ({ s, alice, bob } = await startDemo());
  admin = await s.login('admin@demo.test');
  const companies = s.rt.services.companies;
  const acme = await companies.createCompany({ name: 'Acme', domain: 'acme.test' });
  await companies.createUser(acme, { email: 'boss@acme.test', password: 'acme12345', name: 'Boss', role: 'admin' });
  await companies.createUser(acme, { email: 'joe@acme.test', password: 'acme12345', name: 'Joe' });
  otherAdmin = await s.login('boss@acme.test', 'acme12345');
  otherUser = await s.login('joe@acme.test', 'acme12345');
});
afterAll(async () => s?.stop());

const reason = (r: Envelope<unknown>) => (r as unknown as { reason: string }).reason;
const book = async (token: string) => (await s.get<TemplateBook>('/h5/template/list', {}, token)).data;

describe('personal templates', () => {
  it('keeps templates in the user\'s own categories, sanitised', async () => {
    const sales = (await s.post<TemplateCategory>('/h5/template/category-create', { name: 'Sales' }, alice)).data;
    const t = await s.post<TemplateSaved>('/h5/template/create', {
      name: 'Quote', categoryId: sales.id, subject: 'Quote for {{recipient.name}}',
      html: '<p>Dear {{recipient.name}},<img src="https://track.example/o.gif"><script>x</script></p>',
    }, alice);
    expect(t).toMatchObject({ code: 200, data: { name: 'Quote', categoryId: sales.id, subject: 'Quote for {{recipient.name}}', html: '<p>Dear {{recipient.name}},</p>', removedImages: 1 } });
    await s.post('/h5/template/create', { name: 'Loose', html: '<p>no category</p>' }, alice);
    const b = await book(alice);
    expect(b.personal.categories).toEqual([sales]);
    expect(b.personal.templates.map((x) => [x.name, x.categoryId])).toEqual([['Loose', null], ['Quote', sales.id]]);
    expect((await book(bob)).personal.templates).toEqual([]);

    const u = await s.post<TemplateSaved>('/h5/template/update', { id: t.data.id, categoryId: '', subject: '' }, alice);
    expect(u.data).toMatchObject({ categoryId: null, subject: '', name: 'Quote' });
    await s.post('/h5/template/update', { id: t.data.id, categoryId: sales.id }, alice);
    // Deleting the category keeps its templates, uncategorised.
    expect((await s.post('/h5/template/category-delete', { id: sales.id }, alice)).code).toBe(200);
    expect((await book(alice)).personal.templates.find((x) => x.name === 'Quote')?.categoryId).toBeNull();
    expect((await s.post('/h5/template/delete', { id: t.data.id }, alice)).code).toBe(200);
    expect((await book(alice)).personal.templates.map((x) => x.name)).toEqual(['Loose']);
  });

  it("answers 404 for another user's templates and categories, and for a category of the company", async () => {
    const cat = (await s.post<TemplateCategory>('/h5/template/category-create', { name: 'Bob only' }, bob)).data;
    const t = (await s.post<TemplateSaved>('/h5/template/create', { name: 'Bob T', html: '<p>b</p>' }, bob)).data;
    const companyCat = (await s.post<TemplateCategory>('/h5/admin/templates/category-create', { name: 'Company cat' }, admin)).data;
    const tries: Array<[string, Record<string, string>, string]> = [
      ['/h5/template/update', { id: t.id, name: 'x' }, 'template.not_found'],
      ['/h5/template/delete', { id: t.id }, 'template.not_found'],
      ['/h5/template/create', { name: 'x', html: 'x', categoryId: cat.id }, 'template_category.not_found'],
      ['/h5/template/create', { name: 'x', html: 'x', categoryId: companyCat.id }, 'template_category.not_found'],
      ['/h5/template/category-rename', { id: cat.id, name: 'mine' }, 'template_category.not_found'],
      ['/h5/template/category-delete', { id: cat.id }, 'template_category.not_found'],
    ];
    for (const [route, body, why] of tries) {
      const r = await s.post(route, body, alice);
      expect([r.code, reason(r)], route).toEqual([404, why]);
    }
    expect((await book(bob)).personal).toMatchObject({ categories: [{ name: 'Bob only' }], templates: [{ name: 'Bob T' }] });
  });

  it('refuses bad input with reason codes', async () => {
    const before = await book(alice);
    const nul = await s.post('/h5/template/create', { name: 'N', html: 'a\u0000' }, alice);
    expect([nul.code, (nul as unknown as { reasons: unknown }).reasons]).toEqual([422, { html: 'input.nul_byte' }]);
    const big = await s.post('/h5/template/create', { name: 'B', html: `<p>${'y'.repeat(TEMPLATE_MAX_BYTES)}</p>` }, alice);
    expect([big.code, reason(big)]).toEqual([422, 'template.too_large']);
    expect((await s.post('/h5/template/create', { name: '', html: 'x' }, alice)).code).toBe(422);
    expect((await s.post('/h5/template/create', { name: 'S', html: 'x', subject: 's'.repeat(999) }, alice)).code).toBe(422);
    await s.post('/h5/template/category-create', { name: 'Twice' }, alice);
    const dup = await s.post('/h5/template/category-create', { name: 'twice' }, alice);
    expect([dup.code, reason(dup)]).toEqual([422, 'template_category.name_taken']);
    const after = await book(alice);
    expect(after.personal.templates).toEqual(before.personal.templates);
  });

  it(`stops at ${TEMPLATE_CATEGORY_MAX_COUNT} categories`, async () => {
    const token = await s.login('admin@demo.test');
    const results = await Promise.all(Array.from({ length: TEMPLATE_CATEGORY_MAX_COUNT + 2 }, (_, i) => s.post('/h5/template/category-create', { name: `C${i}` }, token)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(TEMPLATE_CATEGORY_MAX_COUNT);
    expect(results.filter((r) => r.code !== 200).map(reason)).toEqual(['template_category.limit', 'template_category.limit']);
  });
});

describe('company templates', () => {
  it('the admin keeps them; everyone in the company reads them; other companies see none', async () => {
    const cat = (await s.get<TemplateShelf>('/h5/admin/templates/list', {}, admin)).data.categories.find((c) => c.name === 'Company cat')!;
    const t = await s.post<TemplateSaved>('/h5/admin/templates/create', { name: 'Welcome', categoryId: cat.id, html: '<p>Welcome to {{company}}</p>' }, admin);
    expect(t.code).toBe(200);
    for (const token of [alice, bob, admin]) {
      const b = await book(token);
      expect(b.company.templates.map((x) => x.name)).toEqual(['Welcome']);
      expect(b.company.categories.map((x) => x.name)).toEqual(['Company cat']);
    }
    expect((await book(otherUser)).company).toEqual({ categories: [], templates: [] });
    // The admin's own personal shelf is separate from the company's.
    expect((await book(admin)).personal.templates).toEqual([]);
    const renamed = await s.post<TemplateCategory>('/h5/admin/templates/category-rename', { id: cat.id, name: 'Onboarding' }, admin);
    expect(renamed.data).toEqual({ id: cat.id, name: 'Onboarding' });
  });

  it('refuses a non-admin (403) and another company\'s admin (404), changing nothing', async () => {
    const shelf = (await s.get<TemplateShelf>('/h5/admin/templates/list', {}, admin)).data;
    const t = shelf.templates[0]!;
    const cat = shelf.categories[0]!;
    for (const [route, body] of [
      ['/h5/admin/templates/create', { name: 'Hack', html: 'x' }],
      ['/h5/admin/templates/update', { id: t.id, name: 'Hack' }],
      ['/h5/admin/templates/delete', { id: t.id }],
      ['/h5/admin/templates/category-create', { name: 'Hack' }],
      ['/h5/admin/templates/category-rename', { id: cat.id, name: 'Hack' }],
      ['/h5/admin/templates/category-delete', { id: cat.id }],
    ] as const) {
      const r = await s.post(route, body, alice);
      expect([r.code, reason(r)], route).toEqual([403, 'admin.required']);
    }
    expect((await s.get('/h5/admin/templates/list', {}, alice)).code).toBe(403);
    // A user cannot reach a company template through the personal routes either.
    expect((await s.post('/h5/template/delete', { id: t.id }, alice)).code).toBe(404);
    for (const [route, body, why] of [
      ['/h5/admin/templates/update', { id: t.id, name: 'Hack' }, 'template.not_found'],
      ['/h5/admin/templates/delete', { id: t.id }, 'template.not_found'],
      ['/h5/admin/templates/create', { name: 'x', html: 'x', categoryId: cat.id }, 'template_category.not_found'],
      ['/h5/admin/templates/category-delete', { id: cat.id }, 'template_category.not_found'],
    ] as const) {
      const r = await s.post(route, body, otherAdmin);
      expect([r.code, reason(r)], route).toEqual([404, why]);
    }
    expect((await s.get<TemplateShelf>('/h5/admin/templates/list', {}, otherAdmin)).data).toEqual({ categories: [], templates: [] });
    expect((await s.get<TemplateShelf>('/h5/admin/templates/list', {}, admin)).data).toEqual(shelf);
  });

  it('the admin can delete them', async () => {
    const shelf = (await s.get<TemplateShelf>('/h5/admin/templates/list', {}, admin)).data;
    expect((await s.post('/h5/admin/templates/delete', { id: shelf.templates[0]!.id }, admin)).code).toBe(200);
    expect((await book(alice)).company.templates).toEqual([]);
  });
});
