import { PeopleReasons as R, type GroupUpdateInput, type MailGroup } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import * as people from '../people/people.repository.js';
import type { AdminView } from '../people/people.service.js';
import type { SendPolicy } from '../people/tables.js';
import * as repo from './group.repository.js';

/**
 * Aliases (another address of one user) and mail groups. A department-scoped admin
 * manages aliases of people in scope; groups span the company, so only a company-wide
 * admin edits them. Delivery reads them in account.repository (resolveLocal/resolveMany)
 * and the "who may send" rule in send-policy.ts.
 */
export class GroupService {
  constructor(private readonly db: Db) {}

  private inScope(v: AdminView, dept: number | null) {
    return v.departments === null || (dept !== null && v.departments.has(dept));
  }
  private companyWide(v: AdminView) {
    if (!v.companyWide) throw forbidden('Only a company-wide admin can manage mail groups', R.outOfScope);
  }
  private async ownAddress(v: AdminView, address: string): Promise<void> {
    if (!(await people.companyDomain(this.db, v.companyId, address.split('@')[1]!))) throw invalid('address', 'is not on a domain of this company', R.badDomain);
    if (await people.addressTaken(this.db, address)) throw invalid('address', 'is already in use', R.addressTaken);
  }

  async aliases(v: AdminView) {
    const rows = await repo.aliases(this.db, v.companyId, v.departments ? [...v.departments] : null);
    return { list: rows.map((a) => ({ id: String(a.id), address: a.address, userId: String(a.user_id), userEmail: a.email })) };
  }
  async createAlias(v: AdminView, address: string, userId: number) {
    const [u] = await repo.companyUsers(this.db, v.companyId, [userId]);
    if (!u) throw notFound('User');
    if (!this.inScope(v, u.department_id)) throw forbidden('This user is outside your admin scope', R.outOfScope);
    await this.ownAddress(v, address);
    return { id: String(await repo.insertAlias(this.db, v.companyId, address, userId)) };
  }
  async deleteAlias(v: AdminView, id: number) {
    const a = await repo.alias(this.db, v.companyId, id);
    if (!a) throw notFound('Alias');
    if (!this.inScope(v, a.department_id)) throw forbidden('This alias is outside your admin scope', R.outOfScope);
    await repo.deleteAlias(this.db, v.companyId, id);
  }

  async groups(v: AdminView) {
    return { list: (await repo.groups(this.db, v.companyId)).map(toGroup) };
  }
  async createGroup(v: AdminView, input: { address: string; name: string; sendPolicy?: SendPolicy }) {
    this.companyWide(v);
    await this.ownAddress(v, input.address);
    const id = await repo.insertGroup(this.db, v.companyId, { address: input.address, name: input.name, sendPolicy: input.sendPolicy ?? 'anyone' });
    return this.group(v, id);
  }
  async group(v: AdminView, id: number): Promise<MailGroup> {
    const [g] = await repo.groups(this.db, v.companyId, id);
    if (!g) throw notFound('Group');
    return toGroup(g);
  }
  async updateGroup(v: AdminView, input: GroupUpdateInput) {
    this.companyWide(v);
    const id = Number(input.id);
    await this.group(v, id);
    const users = input.users?.map(Number);
    const depts = input.departments?.map(Number);
    if (users && (await repo.companyUsers(this.db, v.companyId, users)).length !== new Set(users).size) throw notFound('User');
    if (depts && (await repo.companyDepartments(this.db, v.companyId, depts)).length !== new Set(depts).size) throw notFound('Department');
    await this.db.transaction().execute(async (trx) => {
      await repo.updateGroup(trx, v.companyId, id, { ...(input.name ? { name: input.name } : {}), ...(input.sendPolicy ? { send_policy: input.sendPolicy } : {}) });
      if (users) await repo.replaceMembers(trx, id, 'users', [...new Set(users)]);
      if (depts) await repo.replaceMembers(trx, id, 'departments', [...new Set(depts)]);
      if (input.outside) await repo.replaceMembers(trx, id, 'outside', [...new Set(input.outside)]);
      if (input.senders) await repo.replaceMembers(trx, id, 'senders', [...new Set(input.senders)]);
    });
    return this.group(v, id);
  }
  async deleteGroup(v: AdminView, id: number) {
    this.companyWide(v);
    await this.group(v, id);
    await repo.deleteGroup(this.db, v.companyId, id);
  }
}

function toGroup(g: Awaited<ReturnType<typeof repo.groups>>[number]): MailGroup {
  return { id: String(g.id), address: g.address, name: g.name, sendPolicy: g.send_policy, users: g.users, departments: g.departments, outside: g.outside, senders: g.senders };
}
