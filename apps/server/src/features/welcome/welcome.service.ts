import type { WelcomePreview, WelcomeTemplate } from '@mailwing/shared';
import { WELCOME_VARIABLES } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { notFound } from '../../errors.js';
import * as repo from './welcome.repository.js';

/** Used until the admin saves a template of their own: on, in both languages (the user's is not known yet). */
export const DEFAULT_WELCOME = {
  enabled: true,
  subject: '欢迎使用 {{company}} 企业邮箱 / Welcome to {{company}} mail',
  body: '{{name}}，您好：\n\n您的企业邮箱 {{email}} 已开通。登录地址：{{loginUrl}}\n\n'
    + 'Hello {{name}},\n\nyour company mailbox {{email}} is ready. Sign in at {{loginUrl}}\n',
};

const LEASE_MS = 5 * 60_000;

/**
 * Queues the welcome mail for a new user. Call it in the transaction that creates the user
 * (pass that transaction as `db`): the row then exists exactly when the user does, and the
 * runner mails it once, with the company's template as it is at sending time.
 */
export async function sendWelcome(db: Db, userId: number): Promise<void> {
  await repo.enqueue(db, userId);
}

export function renderWelcome(text: string, vars: Record<(typeof WELCOME_VARIABLES)[number], string>): string {
  // Unknown {{names}} stay as typed, so a typo shows in the preview instead of vanishing.
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, k: string) => (k in vars ? vars[k as keyof typeof vars] : all));
}

export interface WelcomeDeps {
  db: Db;
  mailer: { send(mail: { to: string; domain: string; subject: string; text: string }): Promise<unknown> };
  /** Where the login page is, for {{loginUrl}}: built from the user's domain. */
  loginUrl: (domain: string) => string;
  now?: () => Date;
  log?: Logger;
}

export class WelcomeService {
  private readonly now: () => Date;

  constructor(private readonly d: WelcomeDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async get(companyId: number): Promise<WelcomeTemplate> {
    const t = (await repo.template(this.d.db, companyId)) ?? DEFAULT_WELCOME;
    return { enabled: t.enabled, subject: t.subject, body: t.body, variables: [...WELCOME_VARIABLES] };
  }

  async save(companyId: number, v: { enabled: boolean; subject: string; body: string }): Promise<WelcomeTemplate> {
    await repo.saveTemplate(this.d.db, companyId, { ...v, now: this.now() });
    return this.get(companyId);
  }

  /** The mail as `userId` (the admin, by default) would get it; unsaved text may be given to see it before saving. */
  async preview(companyId: number, userId: number, draft?: { subject: string; body: string }): Promise<WelcomePreview> {
    const u = await repo.userOfCompany(this.d.db, companyId, userId);
    if (!u) throw notFound('User');
    const t = draft ?? (await this.get(companyId));
    const vars = this.vars(u);
    return { subject: renderWelcome(t.subject, vars), body: renderWelcome(t.body, vars) };
  }

  /** Mails the queued welcomes; returns how many were handled. */
  async runDue(limit = 20): Promise<number> {
    const now = this.now();
    const jobs = await repo.claimPending(this.d.db, now, new Date(now.getTime() + LEASE_MS), limit);
    for (const job of jobs) {
      try {
        const t = await this.get(job.company_id);
        if (!t.enabled) {
          await repo.finish(this.d.db, job.user_id, 'skipped', this.now());
          continue;
        }
        const vars = this.vars(job);
        await this.d.mailer.send({ to: job.email, domain: job.domain, subject: renderWelcome(t.subject, vars), text: renderWelcome(t.body, vars) });
        await repo.finish(this.d.db, job.user_id, 'sent', this.now());
      } catch (err) {
        this.d.log?.warn({ err, user: job.user_id }, 'welcome mail not sent');
      }
    }
    return jobs.length;
  }

  private vars(u: { email: string; name: string; company: string; domain: string }) {
    return { name: u.name || u.email.split('@')[0]!, email: u.email, company: u.company, loginUrl: this.d.loginUrl(u.domain) };
  }
}
