import type { AdminAnnouncementList, AnnouncementList } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import * as repo from './announcement.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Company notices (spec §1): the admin publishes to everyone or to departments; each user reads and marks them. */
export class AnnouncementService {
  constructor(private readonly db: Db) {}

  async publish(companyId: number, authorId: number, v: { title: string; body: string; departments: string }): Promise<string> {
    const departments = v.departments ? [...new Set(v.departments.split(',').map(Number))] : [];
    if (!(await repo.departmentsExist(this.db, companyId, departments))) throw invalid('departments', 'No such department', 'announcement.department');
    return String(await repo.insert(this.db, { companyId, authorId, title: v.title, body: v.body, departments }));
  }

  async adminList(companyId: number): Promise<AdminAnnouncementList> {
    const rows = await repo.listForAdmin(this.db, companyId);
    return { list: rows.map((r) => ({ id: String(r.id), title: r.title, body: r.body, createdAt: iso(r.created_at), departments: r.department_ids.map(String), audience: r.audience, reads: r.reads })) };
  }

  async remove(companyId: number, id: string): Promise<void> {
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
