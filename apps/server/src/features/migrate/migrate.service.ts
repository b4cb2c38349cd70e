import { readFileSync } from 'node:fs';
import { Code, MIGRATE_MAX_ROWS, type MigrateAccount, type MigrateDetail, type MigrateImportResult, type MigrateList, type MigrateTestResult, type ReasonCode } from '@mailwing/shared';
import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { CollectConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError, notFound } from '../../errors.js';
import type { AddressPolicy } from '../../net/ssrf.js';
import { classify } from '../collect/collect-error.js';
import * as collectRepo from '../collect/collect.repository.js';
import { resolveRemote, type TlsMode } from '../collect/dial.js';
import { copyFolder, withImap, type ImapLogin } from '../collect/imap-fetch.js';
import type { SecretBox } from '../collect/secret-box.js';
import type { FolderSink } from '../collect/sink.js';
import { storeOnce } from '../collect/store-once.js';
import * as mailboxes from '../mailbox/mailbox.repository.js';
import type { IngestService } from '../message/ingest.service.js';
import { mapFolders, targetLabel, type Target } from './folder-map.js';
import * as repo from './migrate.repository.js';
import { parseAccountsCsv } from './accounts-csv.js';

export interface MigrateDeps {
  db: Db;
  ingest: IngestService;
  box: SecretBox;
  policy: AddressPolicy;
  cfg: CollectConfig;
  maxMessageBytes: number;
  now?: () => Date;
  log?: Logger;
}

export interface Server { host: string; port: number; tls: TlsMode }

/** Ciphertext is bound to the company (secret-box.ts): copied into another company's row it does not decrypt. */
const context = (companyId: number) => `migrate:${companyId}`;
/** The engine's record of what came from where (collect_seen): one remote folder of one remote mailbox. */
const sourceOf = (host: string, username: string, folder: string) => `migrate|${host.toLowerCase()}|${username.toLowerCase()}|${folder}`;

/** SELECT of a folder the server no longer has (RFC 5530 NONEXISTENT, or the usual wording without it). */
function isMissing(err: unknown): boolean {
  const e = err as { serverResponseCode?: string; responseText?: string; message?: string };
  return e.serverResponseCode === 'NONEXISTENT' || /nonexistent|doesn't exist|does not exist|no such/i.test(`${e.responseText ?? ''} ${e.message ?? ''}`);
}

/** A failure of one account, with the reason code the console shows. */
class AccountFailure extends Error {
  constructor(readonly reason: ReasonCode, message: string) { super(message); }
}

/**
 * Mail migration (邮件搬家): every folder of old IMAP mailboxes into the new ones, as
 * queue jobs that survive restarts. A run copies what is not here yet (UIDs past the last
 * one stored, and Message-ID plus size for the rest), so a re-run copies the delta and a
 * killed run resumes without duplicates.
 */
export class MigrateService {
  private readonly now: () => Date;
  private readonly ca: Buffer | undefined;
  private readonly running = new Map<number, AbortController>();

  constructor(private readonly d: MigrateDeps) {
    this.now = d.now ?? (() => new Date());
    this.ca = d.cfg.caFile ? readFileSync(d.cfg.caFile) : undefined;
  }

  /** Logs in to one account and lists its folders with where each would go. */
  async test(s: Server, username: string, password: string): Promise<MigrateTestResult> {
    try {
      return await withImap(await this.login(s, username, password), async (c) => {
        const folders = mapFolders(await c.list());
        const out: MigrateTestResult['folders'] = [];
        for (const f of folders) {
          const st = await c.status(f.path, { messages: true });
          out.push({ name: f.path, target: targetLabel(f.target), messages: st ? st.messages ?? 0 : 0 });
        }
        return { folders: out };
      });
    } catch (err) {
      const e = classify(err);
      throw new AppError(Code.Invalid, { host: e.reply }, { reason: `migrate.${e.kind}`, reasons: { host: `migrate.${e.kind}` } });
    }
  }

  /** Queues the CSV's accounts; a bad line is reported by number and the others still go in. */
  async importCsv(companyId: number, s: Server, csv: string): Promise<MigrateImportResult> {
    const { rows, errors } = parseAccountsCsv(csv, MIGRATE_MAX_ROWS);
    let created = 0;
    for (const r of rows) {
      const userId = await repo.userInCompany(this.d.db, companyId, r.newAddress);
      if (userId === undefined) {
        errors.push({ line: r.line, reason: 'migrate.no_such_mailbox' });
        continue;
      }
      await repo.upsertAccount(this.d.db, {
        company_id: companyId, user_id: userId, host: s.host.toLowerCase(), port: s.port, tls: s.tls, username: r.oldAddress,
        secret: await this.d.box.seal(r.password, context(companyId)),
      });
      created += 1;
    }
    errors.sort((a, b) => a.line - b.line);
    return { created, errors };
  }

  async list(companyId: number): Promise<MigrateList> {
    return { list: (await repo.listAccounts(this.d.db, companyId)).map((r) => this.view(r)) };
  }

  async detail(companyId: number, id: string): Promise<MigrateDetail> {
    const a = await repo.findAccount(this.d.db, companyId, Number(id));
    if (!a) throw notFound('Migration');
    const names = new Map((await mailboxes.listFolders(this.d.db, a.user_id)).map((f) => [Number(f.mid), f.name]));
    const folders = (await repo.listFolders(this.d.db, a.id)).map((f) => ({
      name: f.folder, target: names.get(f.target_mid) ?? String(f.target_mid), state: f.state, copied: f.copied_messages,
      messagesTotal: f.messages_total, bytesTotal: f.bytes_total, messagesDone: f.messages_done, bytesDone: f.bytes_done,
    }));
    return { account: this.view(a), folders };
  }

  /** Queues a delta run of one account or all; `finalise` marks it as the last one, after the MX switch. */
  async rerun(companyId: number, id: string | undefined, finalise: boolean): Promise<number> {
    if (id !== undefined && !(await repo.findAccount(this.d.db, companyId, Number(id)))) throw notFound('Migration');
    return repo.requeue(this.d.db, companyId, id === undefined ? undefined : Number(id), finalise);
  }

  async remove(companyId: number, id: string): Promise<void> {
    if ((await repo.deleteAccount(this.d.db, companyId, Number(id))) === 0) throw notFound('Migration');
  }

  /** Runs the jobs this node could claim; returns how many ran. */
  async runDue(limit = 2): Promise<number> {
    const claimed = await repo.claim(this.d.db, this.now(), this.d.cfg.leaseMs, limit);
    await Promise.all(claimed.map((a) => this.run(a)));
    return claimed.length;
  }

  /** Stops the runs in this process where they stand, as a kill would; their leases run out and another run resumes them. */
  abortAll(): void {
    for (const c of this.running.values()) c.abort();
  }

  /** One run of a claimed account; the outcome goes into its row. */
  async run(a: repo.AccountRow): Promise<void> {
    const abort = new AbortController();
    this.running.set(a.id, abort);
    const lease = setInterval(() => {
      repo.renewLease(this.d.db, a.id, new Date(this.now().getTime() + this.d.cfg.leaseMs)).catch(() => undefined);
    }, Math.max(1_000, this.d.cfg.leaseMs / 3));
    let copied = 0;
    let bytes = 0;
    let error: { reason: string; reply: string } | null = null;
    try {
      const l = await this.login(a, a.username, await this.d.box.open(a.secret, context(a.company_id)));
      const r = await withImap(l, (c) => this.copyAll(c, a, abort.signal));
      copied = r.copied;
      bytes = r.bytes;
      // Thrown out here: inside withImap any error would be classified as a protocol failure.
      if (r.missing.length > 0) throw new AccountFailure('migrate.folder_missing', `Folder missing on the old server: ${r.missing.join(', ')}`);
    } catch (err) {
      // Aborted: left running under its lease, as a killed process would leave it.
      if (abort.signal.aborted) return;
      error = err instanceof AccountFailure ? { reason: err.reason, reply: err.message } : (() => {
        const e = classify(err);
        return { reason: `migrate.${e.kind}`, reply: e.reply };
      })();
      this.d.log?.warn({ migration: a.id, ...error }, 'migration run failed');
    } finally {
      clearInterval(lease);
      this.running.delete(a.id);
    }
    await repo.finishRun(this.d.db, a.id, { at: this.now(), copied, bytes, error, finalise: a.finalise });
  }

  private async copyAll(c: ImapFlow, a: repo.AccountRow, signal: AbortSignal): Promise<{ copied: number; bytes: number; missing: string[] }> {
    const listed = await c.list();
    const folders = mapFolders(listed);
    const known = await repo.listFolders(this.d.db, a.id);
    let copied = 0;
    let bytes = 0;
    const failed: string[] = [];
    for (const f of folders) {
      const target = await this.targetMid(a.user_id, f.target, known.find((k) => k.folder === f.path)?.target_mid);
      await repo.startFolder(this.d.db, a.id, f.path, target);
      try {
        const r = await copyFolder(c, f.path, {
          leaveCopy: true, maxMessageBytes: this.d.maxMessageBytes, signal,
          onPlan: (messages, size) => repo.setFolder(this.d.db, a.id, f.path, { messages_total: messages, bytes_total: size }),
          onProgress: (p) => repo.setFolder(this.d.db, a.id, f.path, { messages_done: p.processed, bytes_done: p.processedBytes, copied_messages: p.count }),
        }, this.sink(a, f.path, target));
        copied += r.count;
        bytes += r.bytes;
        await repo.setFolder(this.d.db, a.id, f.path, { state: 'done' });
      } catch (err) {
        if (signal.aborted) throw err;
        await repo.setFolder(this.d.db, a.id, f.path, { state: 'failed' });
        // A folder that is listed but will not open counts as missing; anything else ends the account's run.
        if (!isMissing(err)) throw err;
        failed.push(f.path);
      }
    }
    // A folder copied before and gone now: the account fails loudly (in run) rather than finishing with mail silently left behind.
    for (const k of known) {
      if (!folders.some((f) => f.path === k.folder)) {
        await repo.setFolder(this.d.db, a.id, k.folder, { state: 'failed' });
        failed.push(k.folder);
      }
    }
    return { copied, bytes, missing: failed };
  }

  private sink(a: repo.AccountRow, folder: string, targetMid: number): FolderSink {
    const db = this.d.db;
    const from = { db, ingest: this.d.ingest, accountId: a.id, userId: a.user_id, source: sourceOf(a.host, a.username, folder) };
    return {
      seen: (fps) => collectRepo.seenFingerprints(db, a.user_id, from.source, fps),
      imapState: (f) => repo.folderState(db, a.id, f),
      advance: (f, uidvalidity, uid) => repo.advanceFolder(db, a.id, f, uidvalidity, uid),
      skip: (fingerprint) => collectRepo.recordFetched(db, { ...from, fingerprint }),
      store: (raw, mark) => storeOnce(from, targetMid, raw, mark, true),
    };
  }

  /** Our folder for a remote one: the one used before if it still exists, else a system folder or a custom one by name. */
  private async targetMid(userId: number, t: Target, before: number | undefined): Promise<number> {
    const mine = await mailboxes.listFolders(this.d.db, userId);
    if (before !== undefined && mine.some((f) => Number(f.mid) === before)) return before;
    if ('system' in t) return t.system;
    const name = t.custom.slice(0, 64);
    const same = mine.find((f) => f.parent_mid === null && f.name.toLowerCase() === name.toLowerCase() && Number(f.mid) >= 100);
    if (same) return Number(same.mid);
    return Number((await mailboxes.insertFolder(this.d.db, { userId, parentMid: null, name, depth: 1 })).mid);
  }

  private async login(s: Server, username: string, pass: string): Promise<ImapLogin> {
    const ep = { host: s.host, port: s.port, tls: s.tls };
    const o = { policy: this.d.policy, timeoutMs: this.d.cfg.timeoutMs, ca: this.ca, maxMessageBytes: this.d.maxMessageBytes };
    return { address: await resolveRemote(s.host, this.d.policy), ep, user: username, pass, o };
  }

  private view(r: repo.AccountView): MigrateAccount {
    return {
      id: String(r.id), oldAddress: r.username, newAddress: r.new_address, host: r.host, state: r.state, reason: r.reason, reply: r.error_reply,
      finalise: r.finalise, finalisedAt: r.finalised_at ? new Date(r.finalised_at).toISOString() : null, runs: r.runs,
      copiedMessages: Number(r.copied_messages), copiedBytes: Number(r.copied_bytes),
      messagesTotal: r.messages_total, bytesTotal: r.bytes_total, messagesDone: r.messages_done, bytesDone: r.bytes_done,
    };
  }
}
