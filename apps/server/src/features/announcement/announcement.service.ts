import type { AdminAnnouncementList, AnnouncementList } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { PeopleReasons } from '@mailwing/shared';
import { forbidden, invalid, notFound } from '../../errors.js';
import * as repo from './announcement.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Whether a notice to `departments` (none = everyone) is within an admin's scope (null = the whole company). */
const within = (scope: Set<number> | null, departments: number[]) => scope === null || (departments.length > 0 && departments.every((d) => scope.has(d)));

/** Company notices (spec §1): the admin publishes to everyone or to departments; each user reads and marks them. */
export class AnnouncementService {
  constructor(private readonly db: Db) {}

  async publish(companyId: number, authorId: number, v: { title: string; body: string; departments: string }, scope: Set<number> | null = null): Promise<string> {
    const departments = v.departments ? [...new Set(v.departments.split(',').map(Number))] : [];
    // A department admin (scope = their subtree) cannot address everyone, nor a department outside it.
    if (!within(scope, departments)) throw forbidden('This notice reaches people outside your admin scope', PeopleReasons.outOfScope);
    if (!(await repo.departmentsExist(this.db, companyId, departments))) throw invalid('departments', 'No such department', 'announcement.department');
    return String(await repo.insert(this.db, { companyId, authorId, title: v.title, body: v.body, departments }));
  }

  async adminList(companyId: number, scope: Set<number> | null = null): Promise<AdminAnnouncementList> {
    const rows = (await repo.listForAdmin(this.db, companyId)).filter((r) => within(scope, r.department_ids.map(Number)));
    return { list: rows.map((r) => ({ id: String(r.id), title: r.title, body: r.body, createdAt: iso(r.created_at), departments: r.department_ids.map(String), audience: r.audience, reads: r.reads })) };
  }

  async remove(companyId: number, id: string, scope: Set<number> | null = null): Promise<void> {
    const row = (await repo.listForAdmin(this.db, companyId)).find((r) => Number(r.id) === Number(id));
    if (!row) throw notFound('Announcement');
    if (!within(scope, row.department_ids.map(Number))) throw forbidden('This notice is outside your admin scope', PeopleReasons.outOfScope);
    if ((await repo.remove(this.db, companyId, Number(id))) === 0) throw notFound('Announcement');
  }

  async list(companyId: number, userId: number): Promise<AnnouncementList> {
    const rows = await repo.listForUser(this.db, companyId, userId);
    return { list: rows.map((r) => ({ id: String(r.id), title: r.title, body: r.body, createdAt: iso(r.created_at), read: r.read })), unread: rows.filter((r) => !r.read).length };
  }

  /** Only a notice addressed to this user can be marked; any other id is 404, as if it did not exist. */
  async markRead(companyId: number, userId: number, id: string): Promise<void> {
    const mine = await repo.listForUser(this.db, companyId, userId);
    if (!mine.some((r) => Number(r.id) === Number(id))) throw notFound('Announcement');
    await repo.markRead(this.db, Number(id), userId);
  }
}
