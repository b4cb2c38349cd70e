import { SystemFolder } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { BlobService } from '../../blob/blob.service.js';
import type { StagedBlob } from '../../blob/blob-store.js';
import type { Db } from '../../db/connect.js';
import * as outbox from '../../delivery/outbox.repository.js';
import { resolveMany } from '../account/account.repository.js';
import type { IngestService } from '../message/ingest.service.js';
import type { ParsedContent } from '../message/mail-parse.js';
import { AutoReplyPlanner } from './autoreply.service.js';
import * as repo from './mail-rule.repository.js';
import { FORWARDED_HEADER, resendAsIs, type Mailbox } from './rule-mail.js';
import { BODY_CHARS, compile, evaluate, type CompiledRule, type RuleMail } from './rule-evaluator.js';

const SPAM = Number(SystemFolder.Spam);
const DELETED = Number(SystemFolder.Deleted);

/** A mailbox's copy as delivery paths hand it over; `listed` says what its block/allow list made of the sender. */
export interface RuleRecipient { userId: number; folderMid: number; seen?: boolean; star?: boolean; listed?: 'blocked' | 'allowed' }

export interface RuleEngineDeps {
  db: Db;
  blobs: BlobService;
  hostname: string;
  now: () => Date;
  onQueued: () => void;
  log?: Logger;
  /** How long a node trusts its copy of a mailbox's rules (default 5 s): see `invalidate`. */
  cacheMs?: number;
}

export function ruleMailOf(content: ParsedContent, size: number): RuleMail {
  return {
    from: content.from, recipients: [...content.to, ...content.cc].map((a) => a.address), subject: content.subject,
    body: content.text.slice(0, BODY_CHARS), size, hasAttach: content.attachments.some((a) => !a.inline), headers: content.headers,
  };
}

/**
 * A mailbox's enabled rules, and which of the folders they move mail to exist: a rule may
 * name a folder deleted since, and a row in a missing folder would fail the delivery.
 */
interface Cached { rules: CompiledRule[]; folders: Set<number>; expires: number }

interface Forward { userId: number; ruleId: number; to: string; raw: Buffer; staged: StagedBlob | null; localTargets: number[]; box: Mailbox }

/**
 * One delivery's rule decisions: what each copy becomes (`apply`), the rows written in
 * the delivery's own transaction (`record`: tags, forwards with their once-only
 * effect rows and queue jobs), and what follows the commit (`after`: local forwards, auto-replies).
 */
export class RuledDelivery<R extends RuleRecipient> {
  constructor(
    readonly recipients: R[],
    /** Users whose rule rejected the mail, with the rule's message. */
    readonly rejected: Map<number, string>,
    private readonly tags: Map<number, number[]>,
    private readonly forwards: Forward[],
    private readonly replies: (() => Promise<void>)[],
    private readonly engine: RuleEngine,
  ) {}

  /** Every recipient rejected: the SMTP path answers 550 with this text. */
  get rejectAll(): string | null {
    if (this.recipients.length > 0 || this.rejected.size === 0) return null;
    return [...this.rejected.values()][0] || 'Rejected by the recipient\'s mail rule';
  }

  /** Whether `record` has rows to write (tags or forwards); without, the delivery need not open a transaction for it. */
  get writesRows(): boolean {
    return this.tags.size > 0 || this.forwards.length > 0;
  }

  async record(trx: Db, messageOf: Map<number, number>): Promise<void> {
    await repo.tagRows(trx, [...this.tags].flatMap(([userId, tagIds]) => {
      const messageId = messageOf.get(userId);
      return messageId ? [{ messageId, userId, tagIds }] : [];
    }));
    const wanted = this.forwards.flatMap((f) => {
      const messageId = messageOf.get(f.userId);
      return messageId ? [{ f, messageId }] : [];
    });
    const fresh = await repo.claimEffects(trx, wanted.map((w) => ({ ruleId: w.f.ruleId, messageId: w.messageId, kind: `forward:${w.f.to}` })), this.engine.d.now());
    const go = wanted.filter((w) => fresh.some((e) => e.ruleId === w.f.ruleId && e.messageId === w.messageId && e.kind === `forward:${w.f.to}`));
    await this.engine.queueForwards(trx, go.map((w) => ({ ...w.f, messageId: w.messageId })));
    this.forwards.splice(0, this.forwards.length, ...go.map((w) => w.f));
  }

  /** After the commit: forwards to our own mailboxes and auto-replies. Failures are logged; the mail is stored either way. */
  async after(): Promise<void> {
    if (this.forwards.some((f) => f.staged)) this.engine.d.onQueued();
    for (const f of this.forwards) {
      if (f.localTargets.length === 0) continue;
      await this.engine.deliverLocal(f.raw, f.box.email, f.localTargets).catch((err: unknown) => this.engine.d.log?.warn({ err }, 'a rule forward to a local mailbox failed'));
    }
    for (const reply of this.replies) await reply().catch((err: unknown) => this.engine.d.log?.warn({ err }, 'an auto-reply failed'));
  }

  async release(): Promise<void> {
    for (const f of this.forwards) if (f.staged) await this.engine.d.blobs.store.release(f.staged);
  }
}

/**
 * The one rule engine every delivery path calls (SMTP and other ingest deliveries,
 * compose's local delivery). Rules are read per delivery for all its recipients in
 * one query unless this node read them within `cacheMs`; nothing lives only here.
 */
export class RuleEngine {
  private readonly cache = new Map<number, Cached>();
  private ingest: IngestService | undefined;
  readonly autoReply: AutoReplyPlanner;

  constructor(readonly d: RuleEngineDeps) {
    this.autoReply = new AutoReplyPlanner(this);
  }

  /** Set once at wiring: ingest delivers local forwards and replies, and calls back into this engine. */
  attach(ingest: IngestService): void {
    this.ingest = ingest;
  }

  /** Drops this node's copy after an edit here; other nodes see it when their `cacheMs` runs out. */
  invalidate(userId: number): void {
    this.cache.delete(userId);
  }

  async rulesOf(db: Db, userIds: number[]): Promise<Map<number, Cached>> {
    const at = Date.now();
    const out = new Map<number, Cached>();
    const missing: number[] = [];
    for (const u of userIds) {
      const hit = this.cache.get(u);
      if (hit && hit.expires > at) out.set(u, hit);
      else missing.push(u);
    }
    if (missing.length > 0) {
      const loaded = await repo.enabledRules(db, missing);
      for (const [u, rules] of loaded) {
        const targets = [...new Set(rules.flatMap((r) => r.actions.flatMap((a) => (a.type === 'move' ? [Number(a.folder)] : []))))];
        const entry = { rules: rules.map(compile), folders: await repo.existingFolders(db, u, targets), expires: at + (this.d.cacheMs ?? 5_000) };
        this.cache.set(u, entry);
        out.set(u, entry);
      }
    }
    return out;
  }

  /**
   * Runs each recipient's rules. A sender on the recipient's block list keeps the block
   * list's verdict (Spam) and no rule touches the mail; for a sender on the allow list
   * the rules run, but none may put the mail in Spam.
   */
  async decide<R extends RuleRecipient>(db: Db, input: { content: ParsedContent; envelopeFrom: string; size: number; recipients: R[]; readRaw: () => Promise<Buffer> }): Promise<RuledDelivery<R>> {
    const mail = ruleMailOf(input.content, input.size);
    // Mail already in Spam (blocked sender, or quarantined by DMARC in smtp/inbound-auth.ts) stays there untouched.
    const open = input.recipients.filter((r) => r.listed !== 'blocked' && r.folderMid !== SPAM);
    const [rules, replies] = await Promise.all([
      this.rulesOf(db, open.map((r) => r.userId)),
      this.autoReply.plan(db, input.content, mail, input.envelopeFrom, open),
    ]);
    const kept: R[] = [];
    const rejected = new Map<number, string>();
    const tags = new Map<number, number[]>();
    const wanted: { userId: number; ruleId: number; to: string }[] = [];
    for (const r of input.recipients) {
      const mine = open.includes(r) ? rules.get(r.userId) : undefined;
      const list = mine?.rules;
      if (!mine || !list || list.length === 0) {
        kept.push(r);
        continue;
      }
      const o = evaluate(list, mail);
      if (o.reject !== null) {
        rejected.set(r.userId, o.reject);
        continue;
      }
      let folder = o.deleted ? DELETED : o.folder;
      if (folder === SPAM && r.listed === 'allowed') folder = null;
      // Deleted (4) always exists; a folder deleted within the cache's lifetime fails this mail's commit alone (451, retried).
      if (folder !== null && folder !== DELETED && !mine.folders.has(folder)) folder = null;
      kept.push({ ...r, folderMid: folder ?? r.folderMid, seen: r.seen || o.read, star: r.star || o.star });
      if (o.tags.length > 0) tags.set(r.userId, o.tags);
      if (mail.headers[FORWARDED_HEADER] === undefined) for (const f of o.forwards) wanted.push({ userId: r.userId, ...f });
    }
    const forwards = wanted.length > 0 ? await this.prepareForwards(db, wanted, await input.readRaw()) : [];
    return new RuledDelivery(kept, rejected, tags, forwards, replies.filter((p) => !rejected.has(p.userId)).map((p) => p.send), this);
  }

  private async prepareForwards(db: Db, wanted: { userId: number; ruleId: number; to: string }[], raw: Buffer): Promise<Forward[]> {
    const boxes = new Map((await repo.mailboxes(db, [...new Set(wanted.map((w) => w.userId))])).map((b) => [b.id, b]));
    const targets = await resolveMany(db, wanted.map((w) => w.to));
    const out: Forward[] = [];
    for (const w of wanted) {
      const box = boxes.get(w.userId);
      const target = targets.get(w.to);
      if (!box || !target || (target.hosted && target.targets.length === 0)) continue;
      const resent = await resendAsIs(raw, box, w.to, this.d.now());
      const local = target.targets.map((t) => t.userId).filter((u) => u !== w.userId);
      if (target.targets.length > 0 && local.length === 0) continue;
      out.push({ ...w, raw: resent, box, localTargets: local, staged: local.length > 0 ? null : await this.d.blobs.store.stage(resent) });
    }
    return out;
  }

  async queueForwards(trx: Db, list: (Forward & { messageId: number })[]): Promise<void> {
    const external = list.filter((f) => f.staged);
    if (external.length === 0) return;
    await this.d.blobs.reference(trx, external.map((f) => ({ staged: f.staged!, n: 0 })));
    await outbox.enqueue(trx, external.map((f) => ({
      // No sent copy: the forwarding mailbox hears of a failure through a bounce (sender_id).
      messageId: null, senderId: f.userId, companyId: f.box.companyId, blobHash: f.staged!.hash, mailFrom: f.box.email, rcpt: f.to,
      idempotencyKey: `rule:${f.ruleId}:${f.messageId}:${f.to}`,
    })));
  }

  async deliverLocal(raw: Buffer, from: string, userIds: number[]): Promise<void> {
    if (!this.ingest) throw new Error('the rule engine is not attached to ingest');
    await this.ingest.deliver(raw, from, userIds.map((userId) => ({ userId, folderMid: Number(SystemFolder.Inbox) })));
  }
}
