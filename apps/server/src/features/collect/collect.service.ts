import { readFileSync } from 'node:fs';
import { Code, COLLECT_MAX_ACCOUNTS, COLLECT_PAUSE_AFTER_AUTH_FAILURES, type CollectAccount, type CollectList } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { CollectConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError, invalid, notFound } from '../../errors.js';
import type { AddressPolicy } from '../../net/ssrf.js';
import type { IngestService } from '../message/ingest.service.js';
import { classify, type CollectError } from './collect-error.js';
import * as repo from './collect.repository.js';
import { resolveRemote, type RemoteEndpoint } from './dial.js';
import { runImap, testImap } from './imap-run.js';
import { runPop3, testPop3 } from './pop3-run.js';
import type { SecretBox } from './secret-box.js';
import { storeOnce } from './store-once.js';
import type { Mark, RunResult, Sink } from './sink.js';

export interface CollectDeps {
  db: Db;
  ingest: IngestService;
  box: SecretBox;
  policy: AddressPolicy;
  cfg: CollectConfig;
  maxMessageBytes: number;
  /** Tells a user their account was paused (a mail into their Inbox). */
  notifyPaused: (userId: number, account: repo.AccountRow) => Promise<void>;
  now?: () => Date;
  random?: () => number;
  log?: Logger;
}

export interface Settings { protocol: 'pop3' | 'imap'; host: string; port: number; tls: 'tls' | 'starttls' | 'none'; username: string; leaveCopy: boolean; folder: string; interval: number }

const CHECK_WAIT_MS = 20_000;

/** The row's owner and login name the ciphertext belongs to (secret-box.ts). */
const context = (userId: number) => `collect:${userId}`;
/** One remote mailbox, however it is reached (POP3 or IMAP, any port). */
const sourceOf = (host: string, username: string) => `${host.toLowerCase()}|${username.toLowerCase()}`;

/** Other mailboxes a user collects mail from, and the runs that fetch it. */
export class CollectService {
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly ca: Buffer | undefined;

  constructor(private readonly d: CollectDeps) {
    this.now = d.now ?? (() => new Date());
    this.random = d.random ?? Math.random;
    this.ca = d.cfg.caFile ? readFileSync(d.cfg.caFile) : undefined;
  }

  async list(userId: number): Promise<CollectList> {
    const rows = await repo.listAccounts(this.d.db, userId);
    return { list: rows.map((r) => this.view(r)) };
  }

  async get(userId: number, id: string): Promise<CollectAccount> {
    return this.view(await this.require(userId, id));
  }

  /** Saves a new account after a successful login to it. */
  async create(userId: number, s: Settings, password: string): Promise<CollectAccount> {
    if (await repo.countAccounts(this.d.db, userId) >= COLLECT_MAX_ACCOUNTS) throw invalid('host', `At most ${COLLECT_MAX_ACCOUNTS} mailboxes`, 'collect.too_many');
    await this.checkFolder(userId, s.folder);
    await this.test(s, password);
    const row = await repo.insertAccount(this.d.db, {
      user_id: userId, protocol: s.protocol, host: s.host.toLowerCase(), port: s.port, tls: s.tls, username: s.username,
      secret: await this.d.box.seal(password, context(userId)), leave_copy: s.leaveCopy, folder_mid: Number(s.folder),
      interval_min: s.interval, next_run_at: this.now(),
    });
    return this.view(row);
  }

  /** Changes an account; connection settings or a new password are tested first. A new password resumes a paused account. */
  async update(userId: number, id: string, s: Settings, password?: string): Promise<CollectAccount> {
    const row = await this.require(userId, id);
    await this.checkFolder(userId, s.folder);
    const pass = password || await this.d.box.open(row.secret, context(userId));
    await this.test(s, pass);
    await repo.updateAccount(this.d.db, userId, row.id, {
      protocol: s.protocol, host: s.host.toLowerCase(), port: s.port, tls: s.tls, username: s.username, leave_copy: s.leaveCopy,
      folder_mid: Number(s.folder), interval_min: s.interval,
      ...(password ? { secret: await this.d.box.seal(password, context(userId)) } : {}),
      // It just logged in, so whatever paused it is fixed.
      paused: false, auth_failures: 0, next_run_at: row.paused ? this.now() : row.next_run_at,
    });
    return this.get(userId, id);
  }

  async remove(userId: number, id: string): Promise<void> {
    if ((await repo.deleteAccount(this.d.db, userId, Number(id))) === 0) throw notFound('Account');
  }

  async resume(userId: number, id: string): Promise<CollectAccount> {
    const row = await this.require(userId, id);
    await repo.updateAccount(this.d.db, userId, row.id, { paused: false, auth_failures: 0, next_run_at: this.now() });
    return this.get(userId, id);
  }

  /** The connection test: log in and run one harmless command. A failure is a refusal naming its category. */
  async test(s: Settings, password: string, existing?: { userId: number; id: string }): Promise<number> {
    const pass = password || (existing ? await this.d.box.open((await this.require(existing.userId, existing.id)).secret, context(existing.userId)) : '');
    try {
      const l = await this.login(s, pass);
      return s.protocol === 'pop3' ? await testPop3(l) : await testImap(l);
    } catch (err) {
      const e = classify(err);
      throw new AppError(Code.Invalid, { host: e.reply }, { reason: `collect.${e.kind}`, reasons: { host: `collect.${e.kind}` } });
    }
  }

  /** "Check now": runs this account at once, unless a run of it is under way. */
  async checkNow(userId: number, id: string): Promise<CollectAccount> {
    const row = await this.require(userId, id);
    const [claimed] = await repo.claim(this.d.db, this.now(), this.d.cfg.leaseMs, 1, { userId, id: row.id });
    if (!claimed) throw new AppError(Code.Invalid, 'A check of this mailbox is already running', { reason: 'collect.busy' });
    // A big mailbox can take minutes: the answer comes after the run or after CHECK_WAIT_MS, whichever is
    // first, and the run goes on under its lease (the list shows it as running).
    let timer: NodeJS.Timeout | undefined;
    const running = this.run(claimed).catch((err: unknown) => this.d.log?.error({ err, account: claimed.id }, 'collection run failed to finish'));
    await Promise.race([running, new Promise((resolve) => { timer = setTimeout(resolve, CHECK_WAIT_MS); })]);
    clearTimeout(timer);
    return this.get(userId, id);
  }

  /** Runs the due accounts this node could claim; returns how many ran. */
  async runDue(limit = 4): Promise<number> {
    const claimed = await repo.claim(this.d.db, this.now(), this.d.cfg.leaseMs, limit);
    await Promise.all(claimed.map((a) => this.run(a)));
    return claimed.length;
  }

  /** One run of a claimed account; never throws: the outcome goes into the account's status. */
  async run(a: repo.AccountRow): Promise<void> {
    const started = this.now();
    let result: RunResult = { count: 0, bytes: 0 };
    let error: CollectError | null = null;
    try {
      const l = await this.login(a, await this.d.box.open(a.secret, context(a.user_id)));
      const sink = this.sink(a, await this.folderFor(a));
      result = a.protocol === 'pop3' ? await runPop3(l, a.leave_copy, sink) : await runImap(l, a.leave_copy, sink);
    } catch (err) {
      error = classify(err);
      this.d.log?.warn({ account: a.id, kind: error.kind, reply: error.reply }, 'collection run failed');
    }
    // Spread runs over the interval (±10 %), so accounts added together do not all run at once.
    const every = a.interval_min * 60_000;
    const nextRunAt = new Date(this.now().getTime() + every * (0.9 + 0.2 * this.random()));
    const paused = await repo.finishRun(this.d.db, a.id, {
      at: started, count: result.count, bytes: result.bytes, nextRunAt, error: error && { kind: error.kind, reply: error.reply },
      authFailed: error?.kind === 'auth', pauseAfter: COLLECT_PAUSE_AFTER_AUTH_FAILURES,
    });
    if (paused && !a.paused && error?.kind === 'auth') {
      await this.d.notifyPaused(a.user_id, a).catch((err: unknown) => this.d.log?.error({ err }, 'pause notice failed'));
    }
  }

  private sink(a: repo.AccountRow, folderMid: number): Sink {
    const db = this.d.db;
    const base = { accountId: a.id, userId: a.user_id, source: sourceOf(a.host, a.username) };
    const fetched = (fingerprint: string, mark: Mark): repo.Fetched => ({ ...base, fingerprint, uidl: mark.uidl });
    return {
      knownUidls: () => repo.knownUidls(db, a.id),
      forgetUidls: (keep) => repo.forgetUidls(db, a.id, keep),
      seen: (fps) => repo.seenFingerprints(db, a.user_id, base.source, fps),
      imapState: (folder) => repo.imapState(db, a.id, folder),
      advance: (folder, uidvalidity, uid) => repo.setImapState(db, a.id, folder, uidvalidity, uid),
      skip: (fp, mark) => repo.recordFetched(db, fetched(fp, mark)),
      store: (raw, mark) => storeOnce({ db, ingest: this.d.ingest, ...base }, folderMid, raw, mark),
    };
  }

  private async login(s: { host: string; port: number; tls: RemoteEndpoint['tls']; username: string }, pass: string) {
    const ep: RemoteEndpoint = { host: s.host, port: s.port, tls: s.tls };
    const o = { policy: this.d.policy, timeoutMs: this.d.cfg.timeoutMs, ca: this.ca, maxMessageBytes: this.d.maxMessageBytes };
    return { address: await resolveRemote(s.host, this.d.policy), ep, user: s.username, pass, o };
  }

  /** The chosen folder, or the Inbox when that folder was deleted since. */
  private async folderFor(a: repo.AccountRow): Promise<number> {
    return (await repo.folderExists(this.d.db, a.user_id, a.folder_mid)) ? a.folder_mid : 0;
  }

  private async checkFolder(userId: number, folder: string): Promise<void> {
    if (!(await repo.folderExists(this.d.db, userId, Number(folder)))) throw invalid('folder', 'No such folder', 'collect.folder');
  }

  private async require(userId: number, id: string): Promise<repo.AccountRow> {
    const row = await repo.findAccount(this.d.db, userId, Number(id));
    if (!row) throw notFound('Account');
    return row;
  }

  private view(r: repo.AccountRow): CollectAccount {
    return {
      id: String(r.id), protocol: r.protocol, host: r.host, port: r.port, tls: r.tls, username: r.username, leaveCopy: r.leave_copy,
      folder: String(r.folder_mid), interval: r.interval_min,
      status: {
        lastRunAt: r.last_run_at ? new Date(r.last_run_at).toISOString() : null, lastCount: r.last_count, lastBytes: Number(r.last_bytes),
        totalCount: Number(r.total_count), errorKind: r.error_kind as CollectAccount['status']['errorKind'], errorReply: r.error_reply,
        paused: r.paused, authFailures: r.auth_failures, running: !!r.lease_until && new Date(r.lease_until) > this.now(),
      },
    };
  }
}
