import { randomBytes } from 'node:crypto';
import type { CheckedRecord, DomainStatus } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import { generateDkimKey } from '../admin/company.service.js';
import { checkDomain, type Lookup } from './dns-check.js';
import * as repo from './domain-check.repository.js';

/** After a change (domain added, key rotated, "check now") the records are checked this often, for this long. */
export const RECHECK_EVERY_MS = 10 * 60_000;
export const RECHECK_FOR_MS = 24 * 3600_000;
/** The runner looks for due checks this often; a check is never later than this past its time. */
export const DOMAIN_CHECK_POLL_MS = 60_000;
const LEASE_MS = 2 * 60_000;

export interface DomainCheckDeps {
  db: Db;
  lookup: Lookup;
  mailHost: string;
  sendingIps: string[];
  now?: () => Date;
  log?: Logger;
}

/** The next selector after `mw1` is `mw2`; anything else gets a date-free counter too. */
export function nextSelector(current: string | null): string {
  const m = /^(.*?)(\d+)$/.exec(current ?? '');
  return m ? `${m[1]}${Number(m[2]) + 1}` : 'mw1';
}

/**
 * Domains of the company console (issue 17, scope 1): add one (hosted only once its
 * ownership TXT verifies), check its records on demand and every 10 minutes for 24 h after
 * a change (durable jobs in domain_checks, claimed with SKIP LOCKED), and rotate its DKIM
 * key: the new key waits in dkim_next_* and signs only once its record is seen.
 */
export class DomainCheckService {
  private readonly now: () => Date;

  constructor(private readonly d: DomainCheckDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async list(companyId: number): Promise<DomainStatus[]> {
    await repo.ensureRows(this.d.db, companyId);
    return (await repo.listRows(this.d.db, companyId)).map((r) => this.status(r));
  }

  async add(companyId: number, name: string): Promise<DomainStatus> {
    if (await repo.hostedElsewhere(this.d.db, name)) throw invalid('domain', 'is already hosted here', 'domain.taken');
    if (await repo.findRow(this.d.db, companyId, name)) throw invalid('domain', 'is already added', 'domain.exists');
    const key = generateDkimKey();
    const now = this.now();
    await repo.insertPending(this.d.db, {
      companyId, name, token: randomBytes(16).toString('hex'), selector: 'mw1', privateKey: key.privateKey, publicKey: key.publicKey,
      now, until: new Date(now.getTime() + RECHECK_FOR_MS),
    });
    return this.checkNow(companyId, name);
  }

  /** On demand: checks at once, and counts as a change (the admin just edited DNS), so rechecks run for the next 24 h. */
  async checkNow(companyId: number, name: string): Promise<DomainStatus> {
    await repo.ensureRows(this.d.db, companyId);
    const row = await repo.findRow(this.d.db, companyId, name);
    if (!row) throw notFound('Domain');
    const now = this.now();
    await repo.scheduleRechecks(this.d.db, row.id, now, new Date(now.getTime() + RECHECK_FOR_MS));
    await this.checkOne(row.id);
    return this.status((await repo.byId(this.d.db, row.id))!);
  }

  async rotateDkim(companyId: number, name: string): Promise<DomainStatus> {
    const row = await repo.findRow(this.d.db, companyId, name);
    if (!row) throw notFound('Domain');
    if (row.domain_id === null) throw invalid('domain', 'is not verified yet', 'domain.not_verified');
    if (row.dkim_next_selector) throw invalid('domain', 'already has a new key waiting for its record', 'domain.rotation_pending');
    const key = generateDkimKey();
    await repo.setNextKey(this.d.db, row.id, { selector: nextSelector(row.dkim_selector), privateKey: key.privateKey, publicKey: key.publicKey });
    return this.checkNow(companyId, name);
  }

  async remove(companyId: number, name: string): Promise<void> {
    // Only a pending domain: a hosted one has mailboxes, and removing it is the operator's decision.
    if (!(await repo.deletePending(this.d.db, companyId, name))) {
      if (await repo.findRow(this.d.db, companyId, name)) throw invalid('domain', 'is hosted and has mailboxes', 'domain.hosted');
      throw notFound('Domain');
    }
  }

  /** One round of the durable rechecks; returns how many were checked (the runner loops while > 0). */
  async runDue(limit = 10): Promise<number> {
    const now = this.now();
    const ids = await repo.claimDue(this.d.db, now, new Date(now.getTime() + LEASE_MS), limit);
    for (const id of ids) {
      try {
        await this.checkOne(id);
      } catch (err) {
        // The lease runs out and the next round tries again.
        this.d.log?.warn({ err, domainCheck: id }, 'domain check failed');
      }
    }
    return ids.length;
  }

  private async checkOne(id: number): Promise<void> {
    const row = await repo.byId(this.d.db, id);
    if (!row) return;
    const pending = row.domain_id === null;
    const key = pending ? { selector: row.dkim_next_selector!, publicKey: row.dkim_next_public_key! } : { selector: row.dkim_selector!, publicKey: row.dkim_public_key! };
    const started = performance.now();
    const records = await checkDomain(this.d.lookup, {
      domain: row.name, mailHost: this.d.mailHost, sendingIps: this.d.sendingIps, verifyToken: row.verify_token, dkim: key,
      dkimNext: !pending && row.dkim_next_selector ? { selector: row.dkim_next_selector, publicKey: row.dkim_next_public_key! } : null,
    });
    const ms = Math.round(performance.now() - started);
    const now = this.now();
    const owned = records.find((r) => r.kind === 'ownership')?.state === 'ok';
    const next = new Date(now.getTime() + RECHECK_EVERY_MS);
    const nextAt = row.recheck_until && next <= row.recheck_until ? next : null;
    await this.d.db.transaction().execute(async (trx) => {
      await repo.saveResult(trx, id, { result: records, checkedAt: now, ms, nextAt, verified: owned || row.verified_at !== null });
      if (pending && owned) {
        // Another company may have verified the same name first: then this one stays pending.
        if (!(await repo.hostedElsewhere(trx, row.name))) await repo.hostPending(trx, row);
      } else if (!pending && records.find((r) => r.kind === 'dkim-next')?.state === 'ok') {
        await repo.promoteNextKey(trx, row);
      }
    });
  }

  private status(r: repo.CheckRow): DomainStatus {
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    const records = Array.isArray(r.result) ? (r.result as CheckedRecord[]) : [];
    return {
      domain: r.name, verified: r.domain_id !== null, checkedAt: iso(r.checked_at), checkMs: r.check_ms, nextCheckAt: iso(r.next_at),
      selector: r.dkim_selector ?? r.dkim_next_selector ?? '', nextSelector: r.domain_id !== null ? r.dkim_next_selector : null, records,
    };
  }
}
