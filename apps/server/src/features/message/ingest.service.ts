import { SystemFolder, type Address } from '@mailwing/shared';
import { SenderRuleCache } from '../contact/sender-rule-cache.js';
import type { Spool, StagedBlob } from '../../blob/blob-store.js';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import type { StoredAuthResults } from '../../db/types.js';
import { GroupCommitter } from '../../db/group-commit.js';
import type { ParsedContent } from './mail-parse.js';
import type { ParsePool } from './parse-pool.js';
import type { AuthPeer, SenderAuthResult } from '../../smtp/sender-auth.js';
import { fileMail, type FilingBatch } from './filing.repository.js';
import type { FilingThread } from './filing-thread.js';
import type { RuledDelivery, RuleEngine } from '../mail-rule/rule-engine.js';

export interface LocalRecipient {
  userId: number;
  folderMid: number;
  seen?: boolean;
  star?: boolean;
  deliveryState?: string | null;
  bcc?: Address[];
  /** Sender authentication of mail that came in through MX (smtp/inbound-auth.ts); absent for local mail. */
  auth?: StoredAuthResults;
  /** What the mailbox's block/allow list made of the sender (set here; mail rules respect it). */
  listed?: 'blocked' | 'allowed';
  /**
   * Filed only while the mailbox's user is active (SMTP: the RCPT answer may be a cached one,
   * features/account/recipient-cache.ts); otherwise the mail fails with a 4xx and is not filed.
   */
  activeOnly?: boolean;
}

/** A mail just committed into someone's mailbox: what notifications (Web Push) start from. */
export interface NewMail { userId: number; messageId: number; folderMid: number }

/**
 * Work that must commit or fail with the mail itself (collection records the remote
 * message as fetched). It runs inside the group-commit transaction, shared with other
 * deliveries, so it must not throw on anything a retry would repeat (use ON CONFLICT).
 */
export interface DeliverOptions {
  inCommit?: (trx: Db, messageIds: number[]) => Promise<void>;
  /** Mail moved in as it was (migration): filed where asked, with no list, rule or auto-reply acting on old mail. */
  asIs?: boolean;
}

/**
 * Work a feature adds to the commit of deliveries (calendar: queue a mail's iTIP part): `run`
 * gets the batch when `wants` takes one of its mails. It must not throw on what a retry repeats.
 */
export interface CommitHook {
  wants: (content: ParsedContent) => boolean;
  run: (trx: Db, filed: { content: ParsedContent; messageIds: number[]; userIds: number[] }[]) => Promise<void>;
}

/**
 * Mails that must wait before a delivery batch goes out while another is in flight (GroupCommitter's
 * `overlapMin`). Blast ingest on PostgreSQL (bench:smtp-ingest SHAPE=blast, 20 connections, interleaved
 * pairs, 4 Dec): 1 -> 4 went up in three pairs of four (+9, +12, +20, -9 %), 4 -> 8 in three of three
 * (+14, +30, +19 %), 8 -> 14 down in three of three, 6 and 10 alike; the machine busier at 8
 * (87-90 % against 79-86 %), as its cores waited less on the commit.
 */
const OVERLAP_MIN = 8;

interface Pending { staged: StagedBlob; size: number; content: ParsedContent; recipients: LocalRecipient[]; receivedAt: Date; inCommit?: DeliverOptions['inCommit']; ruled?: RuledDelivery<LocalRecipient> }

/**
 * Stores one raw message for any number of local mailboxes: one blob, one parsed
 * content row, one messages row per mailbox. `deliver` resolves only once the blob
 * is durable (its file fsynced, or a small one's bytes in its row, BlobService.stage)
 * and the rows are committed (the durability rule of DESIGN.md); the
 * SMTP server acknowledges after that and not before. Concurrent deliveries share
 * transactions through group commit.
 */
export class IngestService {
  private readonly committer: GroupCommitter<Pending, number[]>;
  private readonly listeners: ((mail: NewMail[]) => void)[] = [];
  private rules: RuleEngine | undefined;
  private readonly commitHooks: CommitHook[] = [];

  readonly senderRules: SenderRuleCache;

  /** `filing`: where a batch that needs no transaction of ours is filed (PostgreSQL: filing-thread.ts); else on this thread. */
  constructor(private readonly db: Db, private readonly blobs: BlobService, private readonly parser: ParsePool, private readonly filing?: FilingThread) {
    this.senderRules = new SenderRuleCache(db);
    // One filing statement at work in the database per process: mail that arrives meanwhile waits
    // for the next batch, so batches grow with the load and each commit (a WAL flush) carries more
    // mail. Four in flight over as many pooled connections split the same mail into smaller batches
    // that then waited on each other's folder rows: on a 2-core machine, 20 connections, the peer's
    // 10 KB mail, two interleaved pairs per count, PostgreSQL did 167-235 msg/s at 4 and 216-316 at 1.
    // The filing thread (PostgreSQL) is different: its one connection runs batches one after another,
    // so a second batch only waits in its queue and goes out the moment the first answers. With one,
    // the database sat idle ~40 % of the time (pg_stat_activity sampled every few ms: ClientRead)
    // while an answer crossed back to this thread and the next batch was gathered, posted and built.
    // Two in flight, three interleaved pairs (30 Nov): 409/461/423 -> 444/505/517 msg/s, p99 95-109 ->
    // 83-90 ms; three measured the same as two. On this thread (PGlite) a second batch measured
    // no better (two pairs, +23 % and -15 %), so it stays at one.
    // The second batch goes out early only once OVERLAP_MIN mails wait for it (issue 13, 4 Dec):
    // sent the moment a slot was free, it most often held one mail (blast ingest: 1,073 of ~1,700
    // batches, beside a spike at 18 to 20), the connections falling into a convoy of one big batch
    // and one small, and each statement costs about the same whatever it carries (bench:filing,
    // batches of 1 against 8: ~0.56 ms of database and ~0.45 ms of filing thread CPU per
    // statement, ~0.24 and ~0.05 per mail). Fewer than that wait for the free slot and join what
    // arrives meanwhile, so batches went to ~6 mails.
    this.committer = new GroupCommitter((items) => this.commit(items), { maxBatch: 64, concurrency: filing ? 2 : 1, overlapMin: OVERLAP_MIN });
  }

  /** Stops the filing thread, if any; call once no more mail is taken. */
  async close(): Promise<void> {
    await this.filing?.close();
  }

  /** Mail rules and auto-reply (features/mail-rule) run on every delivery once set. */
  useRules(engine: RuleEngine): void {
    this.rules = engine;
  }

  /** Runs `fn` inside the commit of every delivery this service files. */
  onCommit(fn: CommitHook): void {
    this.commitHooks.push(fn);
  }

  /** The same engine for compose's local delivery, which writes its rows itself. */
  get ruleEngine(): RuleEngine | undefined {
    return this.rules;
  }

  /**
   * Starts parsing a message that came in through MX before it is screened, and has its
   * sender checked in the same worker turn (ParsePool.parseAndCheck): the main thread does
   * neither, and the two overlap. Hand `content` to `deliver`; `checked` goes to
   * InboundAuth.screen, and is absent when the caller must check the sender itself.
   */
  prepare(raw: Buffer, envelopeFrom: string, peer: AuthPeer): { content: Promise<ParsedContent>; checked?: Promise<SenderAuthResult> } {
    const out = this.parser.parseAndCheck(raw, envelopeFrom, peer);
    // Awaited by deliver, unless the mail is refused first.
    out.content.catch(() => undefined);
    return out;
  }

  /**
   * `parsed` is `raw`'s content, or a parse of it under way (`prepare`): added headers (our
   * Authentication-Results) are not part of what is parsed.
   */
  async deliver(raw: Buffer, envelopeFrom: string, recipients: LocalRecipient[], parsed?: ParsedContent | Promise<ParsedContent>, opts: DeliverOptions = {}): Promise<number[]> {
    if (recipients.length === 0) return [];
    // Parsing (a worker thread) and a big blob's fsyncs (the disk) overlap.
    const parsing = parsed ? Promise.resolve(parsed) : this.parser.parse(raw, envelopeFrom);
    // Awaited below; if staging fails first, its failure is the one that counts.
    parsing.catch(() => undefined);
    const staged = await this.blobs.stage(raw);
    let content: ParsedContent;
    try {
      content = await parsing;
    } catch (err) {
      await this.blobs.release(staged);
      throw err;
    }
    return this.file(staged, content, envelopeFrom, recipients, opts);
  }

  /** Scratch space for a message too big to hold in memory while it arrives (smtp-receiver.ts). */
  spool(): Promise<Spool> {
    return this.blobs.store.spool();
  }

  /**
   * `deliver` for a big message: the blob is `head` followed by the spooled bytes,
   * streamed into the store and hashed on the way, and a parse worker reads it back
   * from the store. The spool stays the caller's to discard.
   */
  async deliverSpooled(head: Buffer, body: Spool, envelopeFrom: string, recipients: LocalRecipient[]): Promise<number[]> {
    if (recipients.length === 0) return [];
    const staged = await this.blobs.stageJoined(head, body);
    let content: ParsedContent;
    try {
      const loc = this.blobs.store.locate(staged);
      content = loc ? await this.parser.parseLocated(loc, staged.size, envelopeFrom) : await this.parser.parse(await this.blobs.get(staged.hash), envelopeFrom);
    } catch (err) {
      await this.blobs.store.release(staged);
      throw err;
    }
    return this.file(staged, content, envelopeFrom, recipients);
  }

  /** Files a staged, parsed message into the mailboxes; the staging link goes either way. */
  private async file(staged: StagedBlob, content: ParsedContent, envelopeFrom: string, recipients: LocalRecipient[], opts: DeliverOptions = {}): Promise<number[]> {
    let ordered: LocalRecipient[];
    let ids: number[];
    let ruled: RuledDelivery<LocalRecipient> | undefined;
    try {
      const filed = opts.asIs ? recipients : await this.applySenderRules(recipients, [content.from.address, envelopeFrom.toLowerCase()]);
      ruled = opts.asIs ? undefined : await this.rules?.decide(this.db, { content, envelopeFrom, size: staged.size, recipients: filed, readRaw: () => this.blobs.read(staged) });
      // Every mailbox's rule rejected it: over SMTP (recipients that crossed MX carry `auth`) that is a 550
      // with the rule's text; elsewhere (collection, system mail) the mail is simply not filed.
      const rejectAll = ruled?.rejectAll;
      if (rejectAll) {
        if (recipients.every((r) => r.auth)) throw Object.assign(new Error(`5.7.1 ${rejectAll}`), { responseCode: 550 });
        await this.recordOnly(opts);
        return [];
      }
      // A fixed order of rows keeps concurrent deliveries from deadlocking on folder counters.
      ordered = [...(ruled?.recipients ?? filed)].sort((a, b) => a.userId - b.userId || a.folderMid - b.folderMid);
      if (ordered.length === 0) {
        await this.recordOnly(opts);
        return [];
      }
      ids = await this.committer.submit({ staged, size: staged.size, content, recipients: ordered, receivedAt: new Date(), ruled, inCommit: opts.inCommit });
      // After the commit, before anyone is told; outside the committer, whose retry of a failed batch must never re-file a committed one.
      await this.blobs.ensureReferenced([staged]);
    } finally {
      await this.blobs.release(staged);
      await ruled?.release();
    }
    await ruled?.after();
    this.announce(ordered.flatMap((r, i) => (r.seen ? [] : [{ userId: r.userId, messageId: ids[i]!, folderMid: r.folderMid }])));
    return ids;
  }

  /**
   * A mail that the rules kept out of every mailbox still counts as taken in: the
   * caller's bookkeeping (collection's "already fetched") commits on its own, or the
   * same mail would be fetched and judged again on every run.
   */
  private async recordOnly(opts: DeliverOptions): Promise<void> {
    const inCommit = opts.inCommit;
    if (inCommit) await this.db.transaction().execute((trx) => inCommit(trx, []));
  }

  /**
   * New mail for a mailbox gets here from every path that stores it: this service's
   * own deliveries (SMTP, bounces) and, after their commit, compose's local ones.
   * Listeners run after the commit and must not block or fail the delivery.
   */
  onNewMail(fn: (mail: NewMail[]) => void): void {
    this.listeners.push(fn);
  }

  announce(mail: NewMail[]): void {
    if (mail.length === 0) return;
    for (const fn of this.listeners) {
      try {
        fn(mail);
      } catch {
        // A listener's failure is its own: the mail is stored either way.
      }
    }
  }

  /**
   * Personal block and allow lists (issue 6): mail from a blocked address or domain
   * goes to Spam; an allowed sender is never put there, even if also blocked.
   */
  private async applySenderRules(recipients: LocalRecipient[], senders: string[]): Promise<LocalRecipient[]> {
    const rules = await this.senderRules.matching(recipients.map((r) => r.userId), senders.filter(Boolean));
    if (rules.length === 0) return recipients;
    const blocked = new Set(rules.filter((r) => r.kind === 'block').map((r) => r.user_id));
    const allowed = new Set(rules.filter((r) => r.kind === 'allow').map((r) => r.user_id));
    const spam = Number(SystemFolder.Spam);
    return recipients.map((r) => {
      if (allowed.has(r.userId)) return { ...r, listed: 'allowed' as const };
      return blocked.has(r.userId) ? { ...r, folderMid: spam, listed: 'blocked' as const } : r;
    });
  }

  /**
   * One statement files the whole batch (filing.repository.ts), committed on its own, on the
   * filing thread where there is one; unless something must commit with it (a rule's rows, the
   * caller's `inCommit`, a feature's hook): then it runs here inside a transaction with them.
   */
  private async commit(items: Pending[]): Promise<number[][]> {
    const refs = new Map<string, { staged: StagedBlob; n: number }>();
    for (const it of items) {
      const prev = refs.get(it.staged.hash);
      refs.set(it.staged.hash, { staged: it.staged, n: (prev?.n ?? 0) + it.recipients.length });
    }
    const batch: FilingBatch = {
      blobs: [...refs.values()].map((r) => ({ hash: r.staged.hash, size: r.staged.size, n: r.n, data: r.staged.data })),
      // A plain-text mail's text stays in its blob's row, which this batch fills (or an earlier one did, with the same bytes).
      contents: items.map((it) => keptInRow(it)
        ? { hash: it.staged.hash, content: { ...it.content, text: '' }, textTail: it.content.textTail }
        : { hash: it.staged.hash, content: it.content }),
      rows: items.flatMap((it, i) => {
        const hasAttach = it.content.attachments.some((a) => !a.inline);
        return it.recipients.map((r) => ({
          user_id: r.userId, folder_mid: r.folderMid, content: i + 1, blob_hash: it.staged.hash, size: it.size,
          received_at: it.receivedAt, seen: r.seen ?? false, star: r.star ?? false, urgent: it.content.urgent, has_attach: hasAttach,
          delivery_state: r.deliveryState ?? null, bcc: JSON.stringify(r.bcc ?? []), auth_results: r.auth ? JSON.stringify(r.auth) : null,
          active_only: r.activeOnly ?? false,
        }));
      }),
    };
    const split = (ids: number[]): number[][] => {
      let at = 0;
      return items.map((it) => ids.slice(at, (at += it.recipients.length)));
    };
    const hooks = this.commitHooks.filter((h) => items.some((it) => h.wants(it.content)));
    const alone = hooks.length === 0 && items.every((it) => !it.inCommit && !it.ruled?.writesRows);
    const out = alone ? split(await (this.filing ? this.filing.file(batch) : fileMail(this.db, batch))) : await this.db.transaction().execute(async (trx) => {
      const filed = split(await fileMail(trx, batch));
      for (const [i, it] of items.entries()) await it.ruled?.record(trx, new Map(it.recipients.map((r, k) => [r.userId, filed[i]![k]!])));
      for (const [i, it] of items.entries()) if (it.inCommit) await it.inCommit(trx, filed[i]!);
      for (const hook of hooks) await hook.run(trx, items.map((it, i) => ({ content: it.content, messageIds: filed[i]!, userIds: it.recipients.map((r) => r.userId) })));
      return filed;
    });
    return out;
  }
}

/** Whether a mail's text can be read from its blob's row rather than stored again (migration 043). */
function keptInRow(it: Pending): boolean {
  const tail = it.content.textTail;
  return tail !== undefined && it.staged.data !== undefined && tail > 0 && tail <= it.staged.data.length;
}

/** A row that joins a conversation names it; one that starts a new one leaves the column to its default. */
export function withConversation(conv: number | null): { conv_id?: number } {
  return conv === null ? {} : { conv_id: conv };
}
