import { parse } from 'csv-parse/sync';
import {
  IMPORT_MAX_ROWS, PeopleReasons as R, PersonCreateInput, type Person, type PeopleImportResult, type PersonUpdateInput,
} from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { AppError, forbidden, invalid, notFound } from '../../errors.js';
import { hashPassword } from '../account/password.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { CompanyService } from '../admin/company.service.js';
import type { MessageService } from '../message/message.service.js';
import * as repo from './people.repository.js';

/** What an admin may touch: the company, and the departments of their scope (null = all of it). */
export interface AdminView { me: AuthContext; companyId: number; isDemo: boolean; departments: Set<number> | null; companyWide: boolean }

/**
 * Runs after a user is created (admin screen or CSV import), outside the creating
 * transaction. MERGE POINT: the lead adds H3's `(db, userId) => sendWelcome(db, userId)` here
 * (services.ts), so every path that creates a user sends the welcome mail.
 */
export type UserCreatedHook = (db: Db, userId: number) => Promise<void>;

/** Passwords hashed at once during a CSV import (libuv's default pool has 4 threads). */
const HASH_CONCURRENCY = 4;

function subtree(all: { id: number; parent_id: number | null }[], roots: number[]): Set<number> {
  const out = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const d of all) if (d.parent_id !== null && out.has(d.parent_id) && !out.has(d.id)) { out.add(d.id); grew = true; }
  }
  return out;
}

export class PeopleService {
  /** See UserCreatedHook. */
  readonly onUserCreated: UserCreatedHook[] = [];

  constructor(private readonly db: Db, private readonly companies: CompanyService, private readonly messages: MessageService, private readonly blobs: BlobService) {}

  async view(me: AuthContext): Promise<AdminView> {
    const c = await repo.company(this.db, me.companyId);
    // Scope as the directory has it (an admin manages their own department's subtree; one
    // seated at the root, or at none, is the company-wide postmaster), narrowed or widened
    // by explicit admin_scopes rows when a company-wide admin has set them.
    const roots = await repo.scopeRoots(this.db, me.userId);
    const all = await repo.departments(this.db, me.companyId);
    const own = (await repo.person(this.db, me.companyId, me.userId))?.department_id ?? null;
    const ownIsRoot = own === null || all.find((d) => d.id === own)?.parent_id === null;
    const departments = roots.length > 0 ? subtree(all, roots) : ownIsRoot ? null : subtree(all, [own]);
    return { me, companyId: me.companyId, isDemo: c.is_demo, departments, companyWide: departments === null };
  }

  private inScope(v: AdminView, departmentId: number | null): boolean {
    return v.departments === null || (departmentId !== null && v.departments.has(departmentId));
  }
  private requireDeptScope(v: AdminView, departmentId: number | null): void {
    if (!this.inScope(v, departmentId)) throw forbidden('This department is outside your admin scope', R.outOfScope);
  }
  private noDemo(v: AdminView): void {
    if (v.isDemo) throw forbidden('A demo company cannot add or edit users', R.demo);
  }
  private async requirePerson(v: AdminView, id: number): Promise<repo.PersonRow> {
    const p = await repo.person(this.db, v.companyId, id);
    if (!p) throw notFound('User');
    this.requireDeptScope(v, p.department_id);
    return p;
  }
  private async requireDepartment(v: AdminView, id: number) {
    const all = await repo.departments(this.db, v.companyId);
    const d = all.find((x) => x.id === id);
    if (!d) throw notFound('Department');
    this.requireDeptScope(v, d.id);
    return { d, all };
  }
  private async checkCompanyQuota(v: AdminView, quota: number, exceptUserId = 0): Promise<void> {
    const c = await repo.company(this.db, v.companyId);
    if (c.quota_bytes === null) return;
    if ((await repo.allocated(this.db, v.companyId, exceptUserId)) + quota > Number(c.quota_bytes)) {
      throw invalid('quotaBytes', 'exceeds what is left of the company quota', R.companyQuota);
    }
  }

  async list(v: AdminView, q: { q?: string; department?: string; page: number; size: number }) {
    let departments = v.departments ? [...v.departments] : null;
    if (q.department) {
      const { all } = await this.requireDepartment(v, Number(q.department));
      departments = [...subtree(all, [Number(q.department)])];
    }
    const { rows, total } = await repo.listPeople(this.db, v.companyId, { q: q.q?.trim() || undefined, departments, offset: (q.page - 1) * q.size, limit: q.size });
    const scopes = await repo.scopesOf(this.db, rows.filter((r) => r.role === 'admin').map((r) => r.id));
    return { list: rows.map((r) => toPerson(r, scopes.get(r.id) ?? [])), total, page: q.page, size: q.size };
  }

  async get(v: AdminView, id: number): Promise<Person> {
    const p = await this.requirePerson(v, id);
    return toPerson(p, (await repo.scopesOf(this.db, [id])).get(id) ?? []);
  }

  /** The one way the console makes a user (screen and CSV import). Returns the new id. */
  async createUser(v: AdminView, input: PersonCreateInput, passwordHash?: string): Promise<number> {
    this.noDemo(v);
    const departmentId = input.departmentId ? Number(input.departmentId) : (v.departments ? null : await repo.rootDepartment(this.db, v.companyId));
    if (input.departmentId) await this.requireDepartment(v, departmentId!);
    else this.requireDeptScope(v, departmentId);
    const domainName = input.email.split('@')[1]!;
    const domain = await repo.companyDomain(this.db, v.companyId, domainName);
    if (!domain) throw invalid('email', 'is not on a domain of this company', R.badDomain);
    if (await repo.addressTaken(this.db, input.email)) throw invalid('email', 'is already in use', R.emailTaken);
    if (input.role === 'admin' && !v.companyWide) throw forbidden('Only a company-wide admin can make admins', R.outOfScope);
    if (input.role === 'admin' && departmentId === (await repo.rootDepartment(this.db, v.companyId))) throw invalid('departmentId', 'An admin cannot be assigned to the root department', R.rootScope);
    if (input.quotaBytes !== undefined) await this.checkCompanyQuota(v, input.quotaBytes);
    else await this.checkCompanyQuota(v, 5 * 1024 ** 3);
    const id = await this.companies.createUser({ companyId: v.companyId, domainId: Number(domain.id) }, {
      email: input.email, password: input.password, name: input.name, role: input.role ?? 'user', jobTitle: input.jobTitle, departmentId,
    }, passwordHash);
    await repo.updatePerson(this.db, v.companyId, id, { ...(input.phone ? { phone: input.phone } : {}), ...(input.quotaBytes !== undefined ? { quota_bytes: input.quotaBytes } : {}) });
    for (const hook of this.onUserCreated) await hook(this.db, id);
    return id;
  }

  async update(v: AdminView, input: PersonUpdateInput): Promise<Person> {
    this.noDemo(v);
    const id = Number(input.id);
    const p = await this.requirePerson(v, id);
    const set: Parameters<typeof repo.updatePerson>[3] = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.jobTitle !== undefined) set.job_title = input.jobTitle;
    if (input.phone !== undefined) set.phone = input.phone;
    if (input.departmentId !== undefined) {
      const dept = input.departmentId === '' ? null : Number(input.departmentId);
      if (dept === null) this.requireDeptScope(v, null);
      else await this.requireDepartment(v, dept);
      set.department_id = dept;
    }
    if (input.quotaBytes !== undefined) {
      await this.checkCompanyQuota(v, input.quotaBytes, id);
      set.quota_bytes = input.quotaBytes;
    }
    if (input.status !== undefined || input.role !== undefined) {
      if (id === v.me.userId) throw forbidden('You cannot disable or demote yourself', R.self);
      if (input.role !== undefined && !v.companyWide) throw forbidden('Only a company-wide admin can change roles', R.outOfScope);
      const dept = set.department_id !== undefined ? set.department_id : p.department_id;
      if ((input.role ?? p.role) === 'admin' && dept === (await repo.rootDepartment(this.db, v.companyId))) throw invalid('departmentId', 'An admin cannot be assigned to the root department', R.rootScope);
      if (input.status) set.status = input.status;
      if (input.role) set.role = input.role;
    }
    await this.db.transaction().execute(async (trx) => {
      await repo.updatePerson(trx, v.companyId, id, set);
      // A disabled user is signed out everywhere at once.
      if (set.status === 'disabled' && p.status === 'active') await repo.dropSessions(trx, id);
      if (set.role === 'user') await repo.setScope(trx, id, []);
    });
    return this.get(v, id);
  }

  async resetPassword(v: AdminView, id: number, password: string): Promise<void> {
    this.noDemo(v);
    await this.requirePerson(v, id);
    const hash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      await repo.updatePerson(trx, v.companyId, id, { password_hash: hash, password_changed_at: new Date() });
      await repo.dropSessions(trx, id);
    });
  }

  async remove(v: AdminView, id: number): Promise<void> {
    this.noDemo(v);
    if (id === v.me.userId) throw forbidden('You cannot delete yourself', R.self);
    await this.requirePerson(v, id);
    await this.db.transaction().execute(async (trx) => {
      const held = await repo.deleteUserData(trx, id);
      await this.messages.dropReferences(trx, held.mail);
      await this.blobs.unreference(trx, held.files);
      await repo.deleteUser(trx, id);
    });
  }

  /** Limits an admin to departments (spec §6); never the root department, which would be the whole company. */
  async setScope(v: AdminView, id: number, departments: number[]): Promise<void> {
    if (!v.companyWide) throw forbidden('Only a company-wide admin can set admin scopes', R.outOfScope);
    const p = await this.requirePerson(v, id);
    if (p.role !== 'admin') throw invalid('id', 'is not an admin', 'admin.not_admin');
    const all = await repo.departments(this.db, v.companyId);
    for (const d of departments) {
      const dep = all.find((x) => x.id === d);
      if (!dep) throw notFound('Department');
      if (dep.parent_id === null) throw invalid('departments', 'an admin cannot be assigned to the root department', R.rootScope);
    }
    await repo.setScope(this.db, id, [...new Set(departments)]);
  }

  /** CSV import: header row, then email,name,password[,department][,quotaMb]. Every line is tried; each answers for itself. */
  async importCsv(v: AdminView, csv: string): Promise<PeopleImportResult> {
    this.noDemo(v);
    let records: string[][];
    try {
      records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }) as string[][];
    } catch (err) {
      throw invalid('csv', `could not be read: ${(err as Error).message}`, 'people.csv_unreadable');
    }
    const header = (records.shift() ?? []).map((h) => h.toLowerCase());
    const col = (n: string) => header.indexOf(n);
    if (col('email') < 0 || col('name') < 0 || col('password') < 0) throw invalid('csv', 'needs the columns email, name, password', 'people.csv_header');
    if (records.length > IMPORT_MAX_ROWS) throw invalid('csv', `has more than ${IMPORT_MAX_ROWS} rows`, 'people.csv_too_long');
    const depts = await repo.departments(this.db, v.companyId);
    const byName = new Map(depts.map((d) => [d.name.toLowerCase(), d.id]));
    const lines: PeopleImportResult['lines'] = [];
    const good: { line: number; input: PersonCreateInput }[] = [];
    for (const [i, r] of records.entries()) {
      const line = i + 2;
      const at = (n: string) => (col(n) >= 0 ? r[col(n)] ?? '' : '');
      const deptName = at('department');
      const quotaMb = at('quotamb') || at('quota_mb');
      const parsed = PersonCreateInput.safeParse({
        email: at('email'), name: at('name'), password: at('password'),
        departmentId: deptName ? String(byName.get(deptName.toLowerCase()) ?? 'missing') : undefined,
        quotaBytes: quotaMb ? Number(quotaMb) * 1024 * 1024 : undefined,
      });
      if (parsed.success) {
        good.push({ line, input: parsed.data });
        continue;
      }
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? 'line');
      lines.push({ line, email: at('email'), ok: false, reason: field === 'departmentId' ? 'department.not_found' : `people.csv_${field}`, error: `${field} ${issue.message}` });
    }
    // scrypt is most of the cost of a row: hash a few at once on libuv's pool, then insert in line order.
    const hashes = new Array<string>(good.length);
    let next = 0;
    await Promise.all(Array.from({ length: HASH_CONCURRENCY }, async () => {
      while (next < good.length) {
        const k = next++;
        hashes[k] = await hashPassword(good[k]!.input.password);
      }
    }));
    for (const [k, g] of good.entries()) {
      try {
        await this.createUser(v, g.input, hashes[k]);
        lines.push({ line: g.line, email: g.input.email, ok: true });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        lines.push({ line: g.line, email: g.input.email, ok: false, reason: err.reason, error: err.message });
      }
    }
    lines.sort((a, b) => a.line - b.line);
    const created = lines.filter((l) => l.ok).length;
    return { created, failed: lines.length - created, lines };
  }

  async departments(v: AdminView) {
    const all = await repo.departments(this.db, v.companyId);
    return { list: all.map((d) => ({ id: String(d.id), parentId: d.parent_id === null ? null : String(d.parent_id), name: d.name, people: d.people, inScope: this.inScope(v, d.id) })) };
  }
  async createDepartment(v: AdminView, parentId: number, name: string): Promise<{ id: string }> {
    await this.requireDepartment(v, parentId);
    return { id: String(await repo.insertDepartment(this.db, v.companyId, parentId, name)) };
  }
  async renameDepartment(v: AdminView, id: number, name: string): Promise<void> {
    await this.requireDepartment(v, id);
    await repo.updateDepartment(this.db, v.companyId, id, { name });
  }
  async moveDepartment(v: AdminView, id: number, parentId: number): Promise<void> {
    const { d, all } = await this.requireDepartment(v, id);
    if (d.parent_id === null) throw invalid('id', 'the root department cannot move', R.deptRoot);
    await this.requireDepartment(v, parentId);
    if (subtree(all, [id]).has(parentId)) throw invalid('parentId', 'is inside the department being moved', R.deptCycle);
    await repo.updateDepartment(this.db, v.companyId, id, { parent_id: parentId });
  }
  async deleteDepartment(v: AdminView, id: number): Promise<void> {
    const { d } = await this.requireDepartment(v, id);
    if (d.parent_id === null) throw invalid('id', 'the root department cannot be deleted', R.deptRoot);
    // Refused rather than cascading: deleting a department must never take people or sub-departments with it.
    if (await repo.departmentHasContent(this.db, id)) throw invalid('id', 'still has people or departments', R.deptNotEmpty);
    await repo.deleteDepartment(this.db, v.companyId, id);
  }

  async quotaSummary(v: AdminView) {
    const c = await repo.company(this.db, v.companyId);
    const s = await repo.quotaSummary(this.db, v.companyId);
    return {
      companyQuotaBytes: c.quota_bytes === null ? null : Number(c.quota_bytes), allocatedBytes: s.allocated, usedBytes: s.used, people: s.people,
      nearFull: s.near.map((u) => ({ id: String(u.id), email: u.email, quotaBytes: Number(u.quota_bytes), usedBytes: Number(u.used_bytes) + Number(u.disk_bytes), level: Number(u.quota_level) })),
    };
  }
  async setCompanyQuota(v: AdminView, bytes: number | null) {
    if (!v.companyWide) throw forbidden('Only a company-wide admin can set the company quota', R.outOfScope);
    if (bytes !== null && bytes < (await repo.allocated(this.db, v.companyId))) throw invalid('quotaBytes', 'is less than the quotas already given to users', R.companyQuota);
    await repo.setCompanyQuota(this.db, v.companyId, bytes);
    return this.quotaSummary(v);
  }
}

function toPerson(r: repo.PersonRow, scope: number[]): Person {
  return {
    id: String(r.id), email: r.email, name: r.name, jobTitle: r.job_title, phone: r.phone, role: r.role, status: r.status,
    departmentId: r.department_id === null ? null : String(r.department_id), quotaBytes: Number(r.quota_bytes),
    usedBytes: Number(r.used_bytes) + Number(r.disk_bytes), scope: scope.map(String),
  };
}
