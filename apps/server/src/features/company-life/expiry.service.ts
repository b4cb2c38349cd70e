import type { Db } from '../../db/connect.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import type { SystemMailer } from '../../delivery/system-mailer.js';
import * as life from './company-life.repository.js';
import type { CompanyStatus } from './company-life.repository.js';
import * as notices from './notice.repository.js';

// What expiry means (issue 19 §6), decided here and enforced at three doors:
//
//   active    everything works.
//   readonly  from the expiry until 15 days after: users log in, read, search, organise and export
//             their mail; new mail still arrives (SMTP 250), so nothing is lost while the customer
//             renews. What they cannot do is send: /h5/write/send answers 403 company.read_only.
//   suspended 15 days after the expiry: login answers 403 login.company_suspended and live sessions
//             stop working; inbound SMTP gets 450 4.2.1 at RCPT, a temporary refusal, so the sending
//             server keeps the mail and retries (for days, RFC 5321 §4.5.4.1) and a renewal in that
//             time still receives it, or its sender gets a bounce from their own server — never a
//             silent drop. Stored mail is kept until the customer cancels.
//
// A renewal that moves the expiry past now makes the company active at once.

export const DAY_MS = 86_400_000;
/** Read-only lasts this long after the expiry, then the company is suspended. */
export const GRACE_MS = 15 * DAY_MS;
/** Reminder mails go this many days before the expiry. */
export const REMINDER_DAYS = [30, 7, 1] as const;
const NOTICE_LEASE_MS = 60_000;

/** The status a sold company's expiry gives it at `now` (companies without an expiry are always active). */
export function statusAt(expiresAt: Date | null, now: Date): CompanyStatus {
  if (!expiresAt || expiresAt.getTime() > now.getTime()) return 'active';
  return now.getTime() - expiresAt.getTime() >= GRACE_MS ? 'suspended' : 'readonly';
}

/** Adds whole years in UTC (29 February goes to 1 March in a common year, as Date does). */
function addYears(d: Date, years: number): Date {
  const r = new Date(d.getTime());
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}

/** The pro-rata price of `addSeats` seats for the time left until the expiry, rounded up to whole fen. */
export function proRataCents(seatPerYearCents: number, addSeats: number, expiresAt: Date, now: Date): number {
  const left = Math.max(0, expiresAt.getTime() - now.getTime());
  return Math.ceil((seatPerYearCents * addSeats * left) / (365 * DAY_MS));
}

export interface Extended { companyId: number; expiresAt: Date; seats: number; status: CompanyStatus }

/**
 * Inside the caller's transaction (the one that debits the balance): renews by whole years from the
 * later of now and the current expiry, and/or adds seats. The company row is locked, so two renewals
 * at once add up. `customerId` scopes it: another customer's company answers 404.
 */
export async function extendCompany(trx: Db, companyId: number, v: { years?: number; addSeats?: number; customerId?: number }, now: Date = new Date()): Promise<Extended> {
  const years = v.years ?? 0;
  const addSeats = v.addSeats ?? 0;
  if (!Number.isInteger(years) || years < 0 || years > 10) throw invalid('years', 'must be a whole number from 0 to 10', 'renew.years_invalid');
  if (!Number.isInteger(addSeats) || addSeats < 0 || addSeats > 10_000) throw invalid('addSeats', 'must be a whole number from 0 to 10000', 'renew.seats_invalid');
  if (years === 0 && addSeats === 0) throw invalid('years', 'nothing to extend', 'renew.nothing');
  const c = await life.lockCompany(trx, companyId);
  if (!c || c.customer_id === null || (v.customerId !== undefined && c.customer_id !== v.customerId)) throw notFound('Company');
  if (addSeats > 0 && years === 0 && c.status === 'suspended') throw forbidden('Renew the company before adding seats', 'renew.suspended');
  const from = c.expires_at && c.expires_at.getTime() > now.getTime() ? c.expires_at : now;
  const expiresAt = years > 0 ? addYears(from, years) : (c.expires_at ?? addYears(now, 1));
  const seats = c.seats + addSeats;
  const status = statusAt(expiresAt, now);
  await life.updateCompany(trx, companyId, { seats, expiresAt, status });
  return { companyId, expiresAt, seats, status };
}

/** Refuses sending for a company that is not active (the rule above). */
export async function assertCanSend(db: Db, companyId: number): Promise<void> {
  const status = await life.statusOfCompany(db, companyId);
  if (status !== 'active') throw forbidden('This company\'s subscription has expired: mail can be read but not sent until it is renewed', 'company.read_only');
}

/** The SMTP reply for a recipient domain whose company is suspended, or null to go on (the rule above). */
export async function inboundRefusal(db: Db, domain: string): Promise<{ code: number; text: string } | null> {
  return refusalForStatus(await life.statusOfDomain(db, domain));
}

/** The same, from a company status already at hand (a recipient lookup reads it with the mailbox, issue 13). */
export function refusalForStatus(status: string | null): { code: number; text: string } | null {
  if (status !== 'suspended') return null;
  return { code: 450, text: '4.2.1 Mailbox temporarily unavailable (subscription suspended), try again later' };
}

export interface ExpiryDeps { db: Db; mailer: SystemMailer; now: () => Date; log?: { warn(obj: object, msg: string): void } }

/**
 * One round of expiry work: statuses follow the clock, reminders are planned and sent.
 * Each reminder is a row keyed (company, expiry, days before), leased while it is sent and
 * marked sent after; the mails carry a key made from the row, so a retry never mails twice.
 */
export async function runExpiry(d: ExpiryDeps): Promise<number> {
  const now = d.now();
  let work = await life.applyExpiry(d.db, now, GRACE_MS);
  await notices.plan(d.db, now, REMINDER_DAYS);
  const due = await notices.claim(d.db, now, new Date(now.getTime() + NOTICE_LEASE_MS), 20);
  for (const n of due) {
    try {
      await sendNotice(d, n);
      await notices.markSent(d.db, n, now);
      work += 1;
    } catch (err) {
      d.log?.warn({ err, company: n.company_id }, 'expiry reminder not sent; the lease runs out and it is tried again');
    }
  }
  return work;
}

async function sendNotice(d: ExpiryDeps, n: notices.ClaimedNotice): Promise<void> {
  const domain = await life.firstDomain(d.db, n.company_id);
  if (!domain) return;
  const to = new Set<string>(await life.adminAddresses(d.db, n.company_id));
  if (n.customer_id !== null) {
    const email = await life.customerEmail(d.db, n.customer_id);
    if (email) to.add(email.toLowerCase());
  }
  const date = n.expires_at.toISOString().slice(0, 10);
  for (const rcpt of to) {
    await d.mailer.send({
      to: rcpt, domain, key: `expiry-${n.company_id}-${Math.floor(n.expires_at.getTime() / 1000)}-${n.days_before}`,
      subject: `企业邮箱将于 ${n.days_before} 天后到期 ${domain} expires in ${n.days_before} day${n.days_before === 1 ? '' : 's'}`,
      text: `${n.name} (${domain})\n\n到期日 Expires on: ${date} (UTC)\n`
        + '到期后邮箱只读（可收信、不可发信），15 天后暂停。请在网站个人中心续费。\n'
        + 'After that date the mailboxes are read-only (mail still arrives but cannot be sent), and 15 days later they are suspended. Renew in your personal centre.\n',
    });
  }
}
