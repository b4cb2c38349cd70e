import type { DepartmentTree, Member, MemberEditInput, MemberList } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { findUserByEmail } from '../account/account.repository.js';
import type { CompanyService } from '../admin/company.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import { matchesPinyin, pinyinQuery } from '../contact/name-index.js';
import * as repo from './directory.repository.js';
import { sendWelcome } from '../welcome/welcome.service.js';

type MemberRow = NonNullable<Awaited<ReturnType<typeof repo.member>>>;
const toMember = (r: MemberRow): Member => ({
  id: String(r.id), name: r.name, email: r.email, departmentId: r.department_id === null ? null : String(r.department_id), department: r.department,
  jobTitle: r.job_title, phone: r.phone, role: r.role,
});

/**
 * The company directory, and member editing under spec §6, enforced here: only
 * admins edit; a demo company's accounts cannot add or edit users; an admin acts
 * only inside their own department's subtree; no admin is placed in the root.
 */
export class DirectoryService {
  constructor(private readonly db: Db, private readonly companies: CompanyService) {}

  async departments(me: AuthContext): Promise<DepartmentTree> {
    const rows = await repo.departments(this.db, me.companyId);
    const root = rows.find((d) => d.parent_id === null);
    return {
      rootId: root ? String(root.id) : '',
      list: rows.map((d) => ({ id: String(d.id), name: d.name, parentId: d.parent_id === null ? null : String(d.parent_id), members: d.members })),
    };
  }

  async members(me: AuthContext, q: { dept?: string; deep: boolean; q: string; page: number; size: number }): Promise<MemberList> {
    let deptIds: number[] | undefined;
    if (q.dept !== undefined) deptIds = q.deep ? await repo.subtree(this.db, me.companyId, Number(q.dept)) : [Number(q.dept)];
    // Pinyin (issue 15): "zw" or "zhangwei" finds 张伟. Names have no pinyin column, so the
    // Chinese ones are matched here and their ids join the SQL search.
    const py = q.q ? pinyinQuery(q.q) : null;
    const alsoIds = py ? (await repo.chineseNamedMembers(this.db, me.companyId)).filter((u) => matchesPinyin(u.name, py)).map((u) => u.id) : undefined;
    const { rows, total } = await repo.members(this.db, me.companyId, { deptIds, q: q.q, alsoIds }, q.size, (q.page - 1) * q.size);
    return { list: rows.map(toMember), total, page: q.page, size: q.size };
  }

  async member(me: AuthContext, id: string): Promise<Member> {
    const row = await repo.member(this.db, me.companyId, Number(id));
    if (!row) throw notFound('Member');
    return toMember(row);
  }

  async edit(me: AuthContext, input: MemberEditInput): Promise<Member> {
    if (me.role !== 'admin') throw forbidden('Only company administrators can edit members', 'admin.required');
    if ((await repo.companyInfo(this.db, me.companyId)).is_demo) throw forbidden('Demo accounts cannot add or edit users', 'admin.demo_read_only');
    const self = await repo.member(this.db, me.companyId, me.userId);
    const root = await repo.rootDepartment(this.db, me.companyId);
    // An admin's reach: their own department and everything below it.
    const scope = new Set(self?.department_id ? await repo.subtree(this.db, me.companyId, self.department_id) : []);
    const dept = Number(input.departmentId);
    if (!(await repo.subtree(this.db, me.companyId, dept)).length) throw notFound('Department');
    if (!scope.has(dept)) throw forbidden('You can only place members in your own departments', 'admin.out_of_scope');
    if (input.role === 'admin' && dept === root) throw invalid('departmentId', 'An admin cannot be assigned to the root department', 'admin.scope_root');

    if (input.id) {
      const target = await repo.member(this.db, me.companyId, Number(input.id));
      if (!target) throw notFound('Member');
      if (target.department_id === null || !scope.has(target.department_id)) throw forbidden('You can only edit members of your own departments', 'admin.out_of_scope');
      await repo.updateMember(this.db, me.companyId, target.id, { name: input.name, department_id: dept, job_title: input.jobTitle, phone: input.phone, role: input.role });
      return this.member(me, String(target.id));
    }
    if (!input.email) throw invalid('email', 'is required', 'input.missing');
    if (!input.password) throw invalid('password', 'is required', 'input.missing');
    const domains = await repo.companyDomain(this.db, me.companyId);
    const domain = domains.find((d) => d.name === input.email!.split('@')[1]);
    if (!domain) throw invalid('email', 'must be on one of the company’s domains', 'people.domain_not_hosted');
    if (await findUserByEmail(this.db, input.email)) throw invalid('email', 'This address is already in use', 'people.email_taken');
    const id = await this.companies.createUser({ companyId: me.companyId, domainId: domain.id },
      { email: input.email, password: input.password, name: input.name, role: input.role, jobTitle: input.jobTitle, departmentId: dept });
    if (input.phone) await repo.updateMember(this.db, me.companyId, id, { name: input.name, department_id: dept, job_title: input.jobTitle, phone: input.phone, role: input.role });
    // Issue 17: the company's welcome mail, mailed by the console runner within a minute.
    await sendWelcome(this.db, id);
    return this.member(me, String(id));
  }
}
