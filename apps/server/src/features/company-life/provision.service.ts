import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { invalid } from '../../errors.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import { hashPassword } from '../account/password.js';
import { checkNewDomain, generateDkimKey, insertCompanyRows, insertUserRows } from '../admin/company.service.js';
import * as life from './company-life.repository.js';
import * as jobs from './job.repository.js';
import type { JobRow } from './job.repository.js';

export interface ProvisionOrder {
  /** The storefront's order id: one order is provisioned once, however often this is called. */
  orderId: number;
  customerId: number;
  companyName: string;
  domain: string;
  plan: string;
  seats: number;
  expiresAt: Date;
  /** The administrator is `<adminLocalPart>@<domain>`. */
  adminLocalPart: string;
  /** scrypt hash (account/password.ts) of a password the customer chose; without it a one-time password is made. */
  adminPasswordHash?: string;
}

export interface ProvisionStatus {
  state: 'pending' | 'done' | 'failed';
  attempts: number;
  /** The last attempt's error ('' when none); a failed job keeps the one that stopped it. */
  lastError: string;
  /** When the next attempt is due (pending only), unix seconds. */
  nextAttemptAt: number | null;
  companyId: number | null;
  adminEmail: string;
}

/** Steps a test can fail once to prove a retry completes: after the rows commit, before the customer is told. */
export type ProvisionStep = 'rows' | 'notice';

export interface ProvisionDeps {
  db: Db;
  mailer: SystemMailer;
  log?: { warn(obj: object, msg: string): void };
  /** Test hook: runs at each step and may throw to fail the attempt there. */
  onStep?: (step: ProvisionStep, jobId: number) => Promise<void>;
}

const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

/**
 * Inside the caller's transaction (the one that debits the balance and writes the order): records
 * the provisioning job. Checks what can be checked now, so a bad order fails at purchase, not later.
 * Without `adminPasswordHash` a one-time password is made: it is returned here (to show once) and
 * mailed to the customer with the "ready" notice, then dropped from the job.
 */
export async function enqueueProvision(trx: Db, o: ProvisionOrder, now: Date = new Date()): Promise<{ jobId: number; created: boolean; adminEmail: string; oneTimePassword?: string }> {
  const domain = await checkNewDomain(trx, o.domain);
  const local = o.adminLocalPart.trim().toLowerCase();
  if (!LOCAL_PART.test(local)) throw invalid('adminLocalPart', 'is not a valid mailbox name', 'provision.admin_invalid');
  if (!Number.isInteger(o.seats) || o.seats < 1) throw invalid('seats', 'must be a whole number of at least 1', 'provision.seats_invalid');
  if (!o.companyName.trim()) throw invalid('companyName', 'is required', 'provision.name_required');
  const oneTimePassword = o.adminPasswordHash ? undefined : randomBytes(9).toString('base64url');
  const passwordHash = o.adminPasswordHash ?? (await hashPassword(oneTimePassword!));
  const payload = {
    companyName: o.companyName.trim(), domain, plan: o.plan, seats: o.seats, expiresAt: o.expiresAt.toISOString(), adminEmail: `${local}@${domain}`,
    passwordHash, ...(oneTimePassword ? { oneTimePassword } : {}),
  };
  const r = await jobs.insertProvisionOnce(trx, { customerId: o.customerId, orderId: o.orderId, payload, runAt: now });
  return { jobId: r.id, created: r.created, adminEmail: payload.adminEmail, ...(r.created && oneTimePassword ? { oneTimePassword } : {}) };
}

/** What the personal centre shows for an order's provisioning; null when the order has none. */
export async function provisionStatus(db: Db, orderId: number): Promise<ProvisionStatus | null> {
  const row = await jobs.provisionOfOrder(db, orderId);
  if (!row) return null;
  const job = await jobs.findJob(db, row.id);
  return {
    state: row.state === 'cancelled' ? 'failed' : row.state,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.state === 'pending' ? Math.floor(new Date(row.run_at).getTime() / 1000) : null,
    companyId: row.company_id === null ? null : Number(row.company_id),
    adminEmail: String(job?.payload.adminEmail ?? ''),
  };
}

interface Payload { companyName: string; domain: string; plan: string; seats: number; expiresAt: string; adminEmail: string; passwordHash: string; oneTimePassword?: string }

/**
 * Runs one claimed provision job. Two steps, each safe to repeat:
 * 1. the company, its domain and DKIM key, the root department and the administrator, in ONE
 *    transaction that also stores the company id on the job (locked FOR UPDATE): a second run
 *    finds the id and creates nothing; a crash inside leaves nothing behind;
 * 2. the "ready" notice to the customer, keyed by the job, so a retry never mails twice; then done.
 */
export async function runProvision(d: ProvisionDeps, claimed: JobRow, now: Date): Promise<void> {
  const p = claimed.payload as unknown as Payload;
  // Made outside the transaction (it takes a moment), and only when the rows are still to be made.
  const key = claimed.company_id === null ? generateDkimKey() : null;
  const companyId = await d.db.transaction().execute(async (trx) => {
    const job = await jobs.lockJob(trx, claimed.id);
    if (!job || job.state !== 'pending') return null;
    if (job.company_id !== null) return job.company_id;
    const created = await insertCompanyRows(trx, { name: p.companyName, domain: await checkNewDomain(trx, p.domain), customerId: job.customer_id }, key ?? generateDkimKey());
    await life.setTerms(trx, created.companyId, { plan: p.plan, seats: p.seats, expiresAt: new Date(p.expiresAt) });
    await insertUserRows(trx, created, { email: p.adminEmail, name: 'Administrator', role: 'admin', departmentId: created.rootDepartmentId }, p.passwordHash);
    await jobs.setCompany(trx, job.id, created.companyId);
    await d.onStep?.('rows', job.id);
    return created.companyId;
  });
  if (companyId === null) return;
  await d.onStep?.('notice', claimed.id);
  const to = await life.customerEmail(d.db, claimed.customer_id);
  if (to) {
    const password = p.oneTimePassword
      ? `\n一次性密码 One-time password: ${p.oneTimePassword}\n请登录后立即修改。Please change it after you log in.\n`
      : '\n密码为您下单时设置的密码。The password is the one you chose when ordering.\n';
    await d.mailer.send({
      to, domain: p.domain, key: `provision-${claimed.id}`,
      subject: `企业邮箱已开通 Your enterprise mailbox ${p.domain} is ready`,
      text: `${p.companyName}\n\n管理员 Administrator: ${p.adminEmail}\n${password}\n登录邮件客户端即可使用。Log in to the mail client to start.\n`,
    });
  }
  const { oneTimePassword: _dropped, ...kept } = p;
  await jobs.finish(d.db, claimed.id, now, { companyId, adminEmail: p.adminEmail }, kept as unknown as Record<string, unknown>);
}
