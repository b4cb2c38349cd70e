import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { User } from '../../db/types.js';
import { withPeopleTables } from '../people/tables.js';
import { preparedAs } from '../../db/prepared.js';

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function companyName(db: Db, companyId: number): Promise<string> {
  const row = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst();
  return row?.name ?? '';
}

export interface LocalTarget {
  userId: number;
  /** 'direct' for a user or alias; 'group' when reached through a group or department address. */
  via: 'direct' | 'group';
  /** The mailbox is at 100 % of its quota (users.quota_level, kept by migration 018's trigger): new mail waits (452 4.2.2). */
  full?: boolean;
  /** The mailbox's company status, for a user reached directly (read in the same query; company-life decides what it means). */
  companyStatus?: string;
}

// A group reaches its listed users and every active user of its departments' subtrees
// (and of its own department, for a department address). Shared by both resolvers.
const GROUP_MEMBERS = `
  SELECT a.addr, u.id AS user_id, u.quota_level >= 100 AS full FROM a
    JOIN mail_groups g ON g.address = a.addr
    JOIN LATERAL (
      WITH RECURSIVE d(id) AS (
        SELECT department_id FROM mail_group_departments WHERE group_id = g.id
        UNION SELECT g.department_id WHERE g.department_id IS NOT NULL
        UNION SELECT dd.id FROM departments dd JOIN d ON dd.parent_id = d.id)
      SELECT gm.user_id AS id FROM mail_group_members gm WHERE gm.group_id = g.id
      UNION SELECT du.id FROM users du WHERE du.company_id = g.company_id AND du.department_id IN (SELECT id FROM d)
    ) m ON true
    JOIN users u ON u.id = m.id AND u.status = 'active'`;

/** Resolves one address to the local mailboxes it reaches; empty when not hosted here. */
export async function resolveLocal(db: Db, address: string): Promise<LocalTarget[]> {
  const addr = address.toLowerCase();
  const p = withPeopleTables(db);
  // Every RCPT not kept by its connection asks this (recipient-cache.ts): planned once per connection (db/prepared.ts).
  const user = (await sql<{ id: number; quota_level: number; company_status: string }>`${preparedAs('rcpt_user')}SELECT u.id, u.quota_level, c.status AS company_status
    FROM users u JOIN companies c ON c.id = u.company_id WHERE u.email = ${addr} AND u.status = 'active'`.execute(db)).rows[0];
  if (user) return [{ userId: Number(user.id), via: 'direct', full: user.quota_level >= 100, companyStatus: user.company_status }];
  const alias = await p.selectFrom('aliases').innerJoin('users', 'users.id', 'aliases.user_id')
    .select(['users.id', 'users.quota_level']).where('aliases.address', '=', addr).where('users.status', '=', 'active').executeTakeFirst();
  if (alias) return [{ userId: alias.id, via: 'direct', full: alias.quota_level >= 100 }];
  const members = await sql<{ user_id: number; full: boolean }>`WITH a(addr) AS (SELECT ${addr}::text) ${sql.raw(GROUP_MEMBERS)}`.execute(db);
  return members.rows.map((m) => ({ userId: Number(m.user_id), via: 'group' as const, full: m.full }));
}

export async function isHostedDomain(db: Db, domain: string): Promise<boolean> {
  const row = await db.selectFrom('domains').select('id').where('name', '=', domain.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** A hosted domain with its DKIM key, for mail the system sends in the domain's name. */
export async function domainKey(db: Db, domain: string) {
  return db.selectFrom('domains').select(['company_id', 'name', 'dkim_selector', 'dkim_private_key'])
    .where('name', '=', domain.toLowerCase()).executeTakeFirst();
}

export async function insertCompany(db: Db, v: { name: string; isDemo: boolean; customerId?: number | null }): Promise<number> {
  const row = await db.insertInto('companies').values({ name: v.name, is_demo: v.isDemo, customer_id: v.customerId ?? null }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertDomain(db: Db, v: { companyId: number; name: string; selector: string; privateKey: string; publicKey: string }): Promise<number> {
  const row = await db.insertInto('domains').values({
    company_id: v.companyId, name: v.name.toLowerCase(), dkim_selector: v.selector, dkim_private_key: v.privateKey, dkim_public_key: v.publicKey,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertDepartment(db: Db, v: { companyId: number; parentId: number | null; name: string }): Promise<number> {
  const row = await db.insertInto('departments').values({ company_id: v.companyId, parent_id: v.parentId, name: v.name }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function insertUser(db: Db, v: {
  companyId: number; domainId: number; departmentId: number | null; email: string; passwordHash: string; name: string; role: 'user' | 'admin'; jobTitle?: string;
}): Promise<number> {
  const row = await db.insertInto('users').values({
    company_id: v.companyId, domain_id: v.domainId, department_id: v.departmentId, email: v.email.toLowerCase(),
    password_hash: v.passwordHash, name: v.name, role: v.role, job_title: v.jobTitle ?? '', language: null,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ResolvedAddress {
  /** Local mailboxes the address reaches (empty when it is not ours). */
  targets: LocalTarget[];
  /** The address's domain is hosted here, whether or not the mailbox exists. */
  hosted: boolean;
  /** For a group address: its outside members (addresses typed by the admin), which the outbound queue reaches. */
  outside: string[];
}

/**
 * resolveLocal for a whole recipient list in one round trip. A user or alias
 * address wins over a group of the same name, as in resolveLocal.
 */
export async function resolveMany(db: Db, addresses: string[]): Promise<Map<string, ResolvedAddress>> {
  const list = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const out = new Map<string, ResolvedAddress>(list.map((a) => [a, { targets: [], hosted: false, outside: [] }]));
  if (list.length === 0) return out;
  const rows = await sql<{ addr: string; user_id: number | null; via: 'direct' | 'group' | 'domain'; full: boolean | null }>`
    WITH a(addr) AS (SELECT unnest(${list}::text[]))
    SELECT a.addr, u.id AS user_id, 'direct' AS via, u.quota_level >= 100 AS full FROM a JOIN users u ON u.email = a.addr AND u.status = 'active'
    UNION ALL
    SELECT a.addr, u.id, 'direct', u.quota_level >= 100 FROM a JOIN aliases al ON al.address = a.addr JOIN users u ON u.id = al.user_id AND u.status = 'active'
    UNION ALL
    SELECT gm.addr, gm.user_id, 'group', gm.full FROM (${sql.raw(GROUP_MEMBERS)}) gm
    UNION ALL
    SELECT a.addr, NULL, 'domain', NULL FROM a JOIN domains d ON d.name = split_part(a.addr, '@', 2)`.execute(db);
  for (const r of rows.rows) {
    const entry = out.get(r.addr)!;
    if (r.via === 'domain') entry.hosted = true;
    else entry.targets.push({ userId: Number(r.user_id), via: r.via, full: r.full === true });
  }
  const outside = await outsideMembers(db, list);
  for (const [addr, entry] of out) {
    if (entry.targets.some((t) => t.via === 'direct')) entry.targets = entry.targets.filter((t) => t.via === 'direct');
    else entry.outside = outside.get(addr) ?? [];
  }
  return out;
}

/**
 * Outside members of the groups among `addresses` (group address → member addresses).
 * Only groups: a user or alias of the same address wins, as in resolveLocal.
 */
export async function outsideMembers(db: Db, addresses: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const list = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (list.length === 0) return out;
  const rows = await withPeopleTables(db).selectFrom('mail_groups').innerJoin('mail_group_outside', 'mail_group_outside.group_id', 'mail_groups.id')
    .select(['mail_groups.address as group', 'mail_group_outside.address'])
    .where('mail_groups.address', 'in', list)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('users').select('users.id').whereRef('users.email', '=', 'mail_groups.address'))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('aliases').select('aliases.id').whereRef('aliases.address', '=', 'mail_groups.address'))))
    .orderBy('mail_group_outside.address').execute();
  for (const r of rows) out.set(r.group, [...(out.get(r.group) ?? []), r.address]);
  return out;
}
