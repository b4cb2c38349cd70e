import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';

/**
 * Whether `sender` may write to the group at `groupAddress` under its "who may send"
 * setting: anyone; company (an active user of the group's company); members (a listed
 * user, a user of a member department's subtree, or a listed outside address); listed
 * (the group's sender list). One query, run only for group addresses. True when the
 * address is not a group.
 */
export async function groupAccepts(db: Db, groupAddress: string, sender: string): Promise<boolean> {
  const from = sender.toLowerCase();
  const r = await sql<{ ok: boolean }>`
    WITH RECURSIVE g AS (SELECT id, company_id, department_id, send_policy FROM mail_groups WHERE address = ${groupAddress.toLowerCase()}),
    d(id) AS (
      SELECT department_id FROM mail_group_departments WHERE group_id IN (SELECT id FROM g)
      UNION SELECT department_id FROM g WHERE department_id IS NOT NULL
      UNION SELECT dd.id FROM departments dd JOIN d ON dd.parent_id = d.id),
    s AS (SELECT id, company_id FROM users WHERE email = ${from} AND status = 'active')
    SELECT CASE g.send_policy
      WHEN 'anyone' THEN true
      WHEN 'company' THEN EXISTS (SELECT 1 FROM s WHERE s.company_id = g.company_id)
      WHEN 'members' THEN EXISTS (SELECT 1 FROM s JOIN mail_group_members m ON m.user_id = s.id AND m.group_id = g.id)
        OR EXISTS (SELECT 1 FROM s JOIN users u ON u.id = s.id WHERE u.company_id = g.company_id AND u.department_id IN (SELECT id FROM d))
        OR EXISTS (SELECT 1 FROM mail_group_outside o WHERE o.group_id = g.id AND o.address = ${from})
      ELSE EXISTS (SELECT 1 FROM mail_group_senders x WHERE x.group_id = g.id AND x.address = ${from})
    END AS ok FROM g`.execute(db);
  return r.rows[0]?.ok ?? true;
}
