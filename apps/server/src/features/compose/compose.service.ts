import { randomBytes } from 'node:crypto';
import {
  Code, ComposeMessages, replyRecipients, SystemFolder, type Address, type ComposeData, type ComposeMode, type DraftInput, type RecallResult, type SendInput, type SendResult, type Suggestions,
  type ReasonCode,
} from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import type { NewMessage, StoredAttachment } from '../../db/types.js';
import { deliverBounce } from '../../delivery/bounce.js';
import { dkimSign } from '../../delivery/dkim.js';
import { headerBlock } from '../../delivery/dsn.js';
import * as outbox from '../../delivery/outbox.repository.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { resolveMany } from '../account/account.repository.js';
import { groupAccepts } from '../group/send-policy.js';
import type { AuthContext } from '../auth/auth.service.js';
import { composeMime } from '../message/compose-mime.js';
import { withConversation, type IngestService, type NewMail } from '../message/ingest.service.js';
import { conversationsFor } from '../conversation/conversation.repository.js';
import type { RuledDelivery, RuleRecipient } from '../mail-rule/rule-engine.js';
import type { ParsedContent } from '../message/mail-parse.js';
import * as messages from '../message/message.repository.js';
import type { MessageService } from '../message/message.service.js';
import type { ParsePool } from '../message/parse-pool.js';
import type { AuditContext, AuditPolicy } from './audit-policy.js';
import { prepareOutgoingHtml, htmlToText } from './compose-html.js';
import * as repo from './compose.repository.js';
import { emptyReply } from './own-text.js';
import { quoteFor } from './quote.js';
import { undoSeconds } from '../undo-send/undo-send.repository.js';
import { assertCanSend } from '../company-life/expiry.service.js';
import { answerInTransaction, type IdempotencyClaim } from '../idempotency/idempotency.hook.js';
import type { Part, UploadService } from './upload.service.js';

const SENT = Number(SystemFolder.Sent);
const DRAFTS = Number(SystemFolder.Drafts);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);
// A timed send a little in the past (a slow phone, a clock a bit off) just goes now.
const PAST_SLACK_MS = 60_000;

export interface ComposeDeps {
  db: Db;
  blobs: BlobService;
  parser: ParsePool;
  uploads: UploadService;
  messages: MessageService;
  ingest: IngestService;
  policy: AuditPolicy;
  hostname: string;
  maxTotalBytes: number;
  /** Called after commit when outside recipients were queued, so the delivery worker need not wait for its next poll. */
  onQueued: () => void;
  /** The clock timed sends and the undo window are measured by (tests move it instead of sleeping). */
  now?: () => Date;
}

interface Built { raw: Buffer; content: ParsedContent; sender: repo.SenderProfile }

/** Drafts, sending (now, timed, or held for audit), dispatch to local mailboxes and the queue, and recall. */
export class ComposeService {
  constructor(private readonly d: ComposeDeps) {}

  private now(): Date {
    return this.d.now?.() ?? new Date();
  }

  async saveDraft(me: AuthContext, input: DraftInput): Promise<{ id: string }> {
    const built = await this.build(me, input, true);
    const id = await this.persist(built, 0, async (trx, stored) => {
      const row = stored.row(DRAFTS, input.bcc.filter((a) => !isTyped(a)), null, null);
      const [existing] = input.draftId ? (await messages.lockOwned(trx, me.userId, [Number(input.draftId)])).filter((r) => r.folder_mid === DRAFTS) : [];
      // A draftId that names no draft of the caller's (someone else's, or a sent one) is refused,
      // not quietly turned into a new draft (issue 12, finding 10). Sending tolerates it: see discardDraft.
      if (input.draftId && !existing) throw notFound('Draft');
      if (!existing) return (await messages.insertMessages(trx, [row]))[0]!;
      // Saved in place: the id stays, so the page keeps its draft and its links to the draft's images.
      await repo.replaceContent(trx, existing.id, {
        contentId: row.content_id, blobHash: row.blob_hash, size: row.size, oldSize: existing.size, userId: me.userId,
        urgent: row.urgent ?? false, hasAttach: row.has_attach ?? false, bcc: row.bcc ?? '[]',
      });
      await this.d.messages.dropReferences(trx, [existing]);
      return existing.id;
    });
    return { id: String(id) };
  }

  /**
   * `key`: the request's Idempotency-Key claim, if any. Its answer is stored in the send's
   * own transaction (docs/offline.md): the mail is queued and the key answered together, so
   * a retry after any failure either replays this answer or finds nothing was sent.
   */
  async send(me: AuthContext, input: SendInput, key?: IdempotencyClaim): Promise<SendResult> {
    const now = this.now().getTime();
    // An expired (read-only) or suspended company cannot send (company-life/expiry.service.ts).
    await assertCanSend(this.d.db, me.companyId);
    let sendAt: Date | null = null;
    if (input.sendAt !== undefined) {
      const at = input.sendAt * 1000;
      if (at < now - PAST_SLACK_MS) throw invalid('sendAt', ComposeMessages.sendAtPast, 'compose.send_at_past');
      if (at > now) sendAt = new Date(at);
    }
    if (input.replyTo !== undefined && emptyReply(input.html, input.text)) throw invalid('html', ComposeMessages.emptyReply, 'compose.reply_empty');
    const recipients = dedupe([...input.to, ...input.cc, ...input.bcc]);
    const plan = await this.plan(this.d.db, recipients);
    // At send time an unknown mailbox on one of our own domains is a typo the writer can fix now.
    if (plan.unknown.length > 0) throw refusedRecipients(input, plan.unknown);
    // Issue 17: a full mailbox or a group that does not take mail from this sender is refused now, while the writer can act on it.
    if (plan.full.length > 0) throw invalid('to', `${plan.full[0]}: mailbox full`, 'compose.recipient_full');
    for (const g of plan.groups) if (!(await groupAccepts(this.d.db, g, me.email))) throw invalid('to', `${g}: you may not send to this group`, 'compose.group_closed');
    const built = await this.build(me, input, false);
    // Audit is asked now for timed sends too: a held one waits as 'held', which its time never makes due.
    const verdict = await this.review(this.d.db, built, plan, recipients);
    const hold = verdict.ruleIds.length > 0;
    // Undo send (issue 14): the mail waits as a timed send with no time of its own (send_at
    // stays null on the sent copy), so nothing, local or remote, leaves before the window ends.
    // A mail held for audit has no undo window: it leaves only when an auditor passes it.
    const undoMs = !sendAt && !hold && input.undo ? (await undoSeconds(this.d.db, me.userId)) * 1000 : 0;
    const undoUntil = undoMs > 0 ? new Date(now + undoMs) : null;
    const status: SendResult['status'] = hold ? 'audit_waiting' : sendAt || undoUntil || plan.external.length > 0 ? 'sending' : 'sent';
    const deliverNow = !sendAt && !undoUntil && !hold;
    let delivered: NewMail[] = [];
    let heldItem: number | null = null;
    const ruled = deliverNow ? await this.ruleLocal(this.d.db, built.content, built.raw, built.sender.email, plan) : undefined;
    const answer = (id: number): SendResult => ({ id: String(id), sendAt: sendAt ? unix(sendAt) : null, status, undoUntil: undoUntil ? undoUntil.getTime() : null });
    const id = await this.persist(built, deliverNow ? (ruled?.recipients.length ?? plan.local.size) : 0, async (trx, stored) => {
      const [conv] = await conversationsFor(trx, [{ contentId: stored.sent.content_id, userId: me.userId }]);
      const [sentId] = await messages.insertMessages(trx, [{ ...stored.row(SENT, input.bcc, status, sendAt), ...withConversation(conv ?? null) }]);
      if (hold) {
        await repo.insertDispatch(trx, { messageId: sentId!, userId: me.userId, state: 'held', sendAt: sendAt ?? new Date() });
        heldItem = await this.d.policy.hold(trx, { messageId: sentId!, ctx: this.auditContext(built, plan, recipients), verdict });
      } else if (sendAt) await repo.insertDispatch(trx, { messageId: sentId!, userId: me.userId, state: 'scheduled', sendAt });
      else if (undoUntil) await repo.insertDispatch(trx, { messageId: sentId!, userId: me.userId, state: 'scheduled', sendAt: undoUntil });
      else delivered = await this.deliverNow(trx, { ...stored.sent, id: sentId! }, built.sender, plan, false, ruled);
      if (input.replyTo) await repo.setFlag(trx, me.userId, Number(input.replyTo), 'answered');
      if (input.forwardOf) await repo.setFlag(trx, me.userId, Number(input.forwardOf), 'forwarded');
      await this.discardDraft(trx, me.userId, input.draftId);
      await answerInTransaction(trx, key, answer(sentId!));
      return sentId!;
    }).finally(() => ruled?.release());
    this.d.ingest.announce(delivered);
    await this.afterRules(ruled, plan, built.raw, built.sender);
    if (heldItem !== null) await this.d.policy.notify(heldItem);
    if (status === 'sending' && deliverNow) this.d.onQueued();
    return answer(id);
  }

  /**
   * Undo inside the window: the held mail goes back to Drafts under the same id, nothing
   * having left. Once dispatched (the window is over) it is too late, with its own reason.
   */
  async undo(me: AuthContext, mid: string): Promise<{ id: string }> {
    await this.d.db.transaction().execute(async (trx) => {
      const job = await repo.lockDispatch(trx, Number(mid), me.userId);
      const sent = job ? await repo.sentCopy(trx, job.message_id) : undefined;
      // A timed send (its own send_at) is cancelled with cancel-timed, not undone.
      if (!job || job.state !== 'scheduled' || !sent || sent.send_at !== null) {
        throw invalid('mid', 'The mail has already been sent', 'send.undo_too_late');
      }
      await repo.deleteDispatch(trx, job.message_id);
      await repo.moveToDrafts(trx, job.message_id);
    });
    return { id: mid };
  }

  /** Sends whose time has come, on whichever node locks them first. Returns how many were handled. */
  async dispatchDue(at: Date = this.now()): Promise<number> {
    const bounced: { sent: repo.SentCopy; sender: repo.SenderProfile; addresses: string[] }[] = [];
    let queued = false;
    let delivered: NewMail[] = [];
    let ruledAll: { ruled: RuledDelivery<RuleRecipient>; plan: Plan; sent: repo.SentCopy; sender: repo.SenderProfile }[] = [];
    const n = await this.d.db.transaction().execute(async (trx) => {
      delivered = [];
      ruledAll = [];
      const due = await repo.lockDueDispatches(trx, 20, at);
      for (const job of due) {
        const sent = await repo.sentCopy(trx, job.message_id);
        if (!sent) continue;
        const sender = await repo.senderProfile(trx, job.user_id);
        // Audit decided at send time; a held mail is 'held', not 'scheduled', until audit passes it.
        const recipients = dedupe([...sent.to_list, ...sent.cc_list, ...sent.bcc]);
        await repo.deleteDispatch(trx, sent.id);
        const plan = await this.plan(trx, recipients);
        const ruled = await this.ruleStored(trx, sent, sender, plan);
        if (ruled) ruledAll.push({ ruled, plan, sent, sender });
        await this.d.blobs.addRefs(trx, sent.blob_hash, sent.size, ruled?.recipients.length ?? plan.local.size);
        delivered.push(...(await this.deliverNow(trx, sent, sender, plan, true, ruled)));
        if (plan.unknown.length > 0) bounced.push({ sent, sender, addresses: plan.unknown });
        queued ||= plan.external.length > 0;
      }
      return due.length;
    }).finally(async () => { for (const r of ruledAll) await r.ruled.release(); });
    this.d.ingest.announce(delivered);
    for (const r of ruledAll) await this.afterRules(r.ruled, r.plan, await this.d.blobs.get(r.sent.blob_hash), r.sender);
    for (const b of bounced) await this.bounceUnknown(b.sent, b.sender, b.addresses);
    if (queued) this.d.onQueued();
    return n;
  }

  /** Takes back a timed or held mail before it goes: it returns to Drafts under the same id. */
  async cancelTimed(me: AuthContext, mid: string): Promise<{ id: string }> {
    await this.d.db.transaction().execute(async (trx) => {
      const job = await repo.lockDispatch(trx, Number(mid), me.userId);
      if (!job) throw notFound('Timed mail');
      // Taking back a held mail ends its audit (logged); sending it again is audited again.
      if (job.state === 'held') await this.d.policy.withdraw(trx, job.message_id, me.userId);
      await repo.deleteDispatch(trx, job.message_id);
      await repo.moveToDrafts(trx, job.message_id);
    });
    return { id: mid };
  }

  /**
   * Recall (issue 4): local copies still unread are removed; read ones stay and are
   * reported; outside recipients cannot be recalled. The sent copy becomes recalled.
   */
  async recall(me: AuthContext, mid: string): Promise<RecallResult> {
    const results = await this.d.db.transaction().execute(async (trx) => {
      const [own] = await messages.lockOwned(trx, me.userId, [Number(mid)]);
      if (!own) throw notFound();
      const sent = await repo.sentCopy(trx, own.id);
      if (!sent?.delivery_state || sent.folder_mid === DRAFTS) throw invalid('mid', 'Only mail you have sent can be recalled', 'recall.not_sent');
      const waiting = await repo.lockDispatch(trx, own.id);
      // Recall cannot take a held mail past audit, nor turn a rejected one into "recalled": it never went.
      if (waiting?.state === 'held' || sent.delivery_state === 'audit_rejected') {
        throw invalid('mid', 'This mail is held for audit and has reached no one: take it back to Drafts instead', 'compose.recall_held');
      }
      if (waiting) throw invalid('mid', 'This mail has not gone out yet: cancel the timed send instead', 'recall.timed_pending');
      const recipients = await repo.deliveriesOf(trx, own.id);
      const copies = new Map((await repo.lockCopies(trx, recipients.flatMap((r) => (r.copy_id ? [r.copy_id] : [])))).map((c) => [c.id, c]));
      const unread = [...copies.values()].filter((c) => !c.seen);
      await this.d.messages.removeRows(trx, unread);
      const perRow = recipients.map((r) => {
        if (r.kind === 'external') return { r, result: 'external' as const };
        const copy = r.copy_id ? copies.get(r.copy_id) : undefined;
        return { r, result: copy?.seen ? 'read' as const : 'recalled' as const };
      });
      await repo.markRecalled(trx, perRow.filter((p) => p.result === 'recalled').map((p) => p.r.id));
      await repo.setSentState(trx, own.id, 'recalled');
      // One line per address; a group address counts as read if any member read it.
      const byAddress = new Map<string, RecallResult['results'][number]['result']>();
      for (const p of perRow) {
        const prev = byAddress.get(p.r.address);
        if (!prev || p.result === 'read') byAddress.set(p.r.address, p.result);
      }
      return [...byAddress].map(([address, result]) => ({ address, result }));
    });
    await this.d.blobs.collect();
    return { results };
  }

  /** The compose page's starting point: a draft to continue, or a reply or forward to write. */
  async load(me: AuthContext, mid: string, mode: ComposeMode, opts: { lang?: 'zh' | 'en'; tz?: number }): Promise<ComposeData> {
    const row = await messages.findOne(this.d.db, me.userId, Number(mid));
    if (!row) throw notFound();
    const files = (row.attachments as StoredAttachment[]).filter((a) => !a.inline && a.index >= 0)
      .map((a) => ({ id: `${row.id}.${a.index}`, name: a.name, size: a.size, contentType: a.contentType }));
    if (mode === 'edit') {
      if (row.folder_mid !== DRAFTS) throw invalid('mid', 'Only drafts can be continued', 'draft.not_draft');
      const meta = draftMeta(headerBlock(await this.d.blobs.head(row.blob_hash)));
      const typed = (list: string[]) => list.map((address) => ({ name: '', address }));
      return {
        to: [...row.to_list, ...typed(meta.typed.to)], cc: [...row.cc_list, ...typed(meta.typed.cc)], bcc: [...row.bcc, ...typed(meta.typed.bcc)], subject: row.subject, html: quoteFor.ownHtml(row, me.token), attachments: files,
        urgent: row.urgent, sendAt: meta.sendAt, draftId: String(row.id), replyTo: meta.replyTo, forwardOf: meta.forwardOf,
      };
    }
    const sender = await repo.senderProfile(this.d.db, me.userId);
    const lang = opts.lang ?? sender.language ?? 'zh';
    const quote = quoteFor.build(row, mode, { lang, tz: opts.tz ?? 0, token: me.token });
    if (mode === 'forward') {
      return { to: [], cc: [], bcc: [], subject: quote.subject, html: quote.html, attachments: files, urgent: false, sendAt: null, draftId: null, replyTo: null, forwardOf: String(row.id) };
    }
    // The rule is shared with the client's offline compose (packages/shared compose-prefill.ts).
    const { to, cc } = replyRecipients({ from: { name: row.from_name, address: row.from_address }, replyTo: row.reply_to, to: row.to_list, cc: row.cc_list }, mode, me.email.toLowerCase());
    return { to, cc, bcc: [], subject: quote.subject, html: quote.html, attachments: [], urgent: false, sendAt: null, draftId: null, replyTo: String(row.id), forwardOf: null };
  }

  async suggest(me: AuthContext, q: string): Promise<Suggestions> {
    const { colleagues, recent } = await repo.suggest(this.d.db, me.userId, me.companyId, q, 10);
    const list = dedupe([...colleagues, ...recent]).filter((a) => a.address !== me.email).slice(0, 10);
    return { list };
  }

  // ---- internals ----

  /** MIME from the form (nodemailer's composer), DKIM-signed when it will go out, and parsed like any stored mail. */
  private async build(me: AuthContext, input: DraftInput, draft: boolean): Promise<Built> {
    const sender = await repo.senderProfile(this.d.db, me.userId);
    // Half-typed recipients of a draft travel in a private header, not in To/Cc/Bcc.
    const typed = { to: input.to.filter(isTyped), cc: input.cc.filter(isTyped), bcc: input.bcc.filter(isTyped) };
    const real = (list: DraftInput['to']) => list.filter((a) => !isTyped(a)).map(({ name, address }) => ({ name, address }));
    const files = await this.d.uploads.collect(me.userId, input.attachIds);
    // A draft saved over itself keeps its images' Content-IDs, which the editor's links name.
    const { html, refs } = prepareOutgoingHtml(input.html, draft && input.draftId ? Number(input.draftId) : undefined);
    const inline: Part[] = [];
    for (const ref of refs) {
      if (ref.kind === 'upload') inline.push({ ...(await this.d.uploads.get(me.userId, ref.id)), cid: ref.cid });
      else {
        const part = (await this.d.uploads.partsByCid(me.userId, ref.mailId, [ref.partCid])).get(ref.partCid);
        if (!part) throw notFound('Image');
        inline.push({ ...part, cid: ref.cid });
      }
    }
    const total = [...files, ...inline].reduce((n, p) => n + p.size, 0);
    if (total > this.d.maxTotalBytes) throw invalid('attachIds', ComposeMessages.totalTooLarge, 'compose.total_too_large');
    const threadOf = input.replyTo ?? input.forwardOf;
    const original = threadOf ? await messages.findOne(this.d.db, me.userId, Number(threadOf)) : undefined;
    if (threadOf && !original) throw notFound();
    const references = original ? `${original.references_list} ${original.message_id}`.trim() : undefined;
    let raw = await composeMime({
      from: { name: sender.name, address: sender.email },
      to: real(input.to), cc: real(input.cc), bcc: real(input.bcc),
      subject: input.subject,
      html: html || undefined,
      text: input.text || htmlToText(html),
      attachments: [
        ...files.map((p) => ({ filename: p.filename, content: p.content, contentType: p.contentType })),
        ...inline.map((p) => ({ filename: p.filename, content: p.content, contentType: p.contentType, cid: p.cid, contentDisposition: 'inline' as const })),
      ],
      priority: input.urgent ? 'high' : undefined,
      messageId: `<${randomBytes(16).toString('hex')}@${sender.domain}>`,
      date: new Date(),
      inReplyTo: input.replyTo && original?.message_id ? original.message_id : undefined,
      references: references || undefined,
      // Only a draft remembers what it answers and when it should go; these never leave the server.
      headers: draft ? {
        'X-Mailwing-Draft': `reply=${input.replyTo ?? ''}; forward=${input.forwardOf ?? ''}; send-at=${input.sendAt ?? ''}`,
        ...(typed.to.length + typed.cc.length + typed.bcc.length > 0
          ? { 'X-Mailwing-Draft-Typed': Buffer.from(JSON.stringify({ to: typed.to.map((a) => a.address), cc: typed.cc.map((a) => a.address), bcc: typed.bcc.map((a) => a.address) })).toString('base64') }
          : {}),
      } : undefined,
    });
    if (!draft) raw = await dkimSign(raw, { domain: sender.domain, selector: sender.dkim_selector, privateKey: sender.dkim_private_key });
    return { raw, content: await this.d.parser.parse(raw, sender.email), sender };
  }

  /**
   * Stores the built message's blob and content in one transaction with whatever `fn`
   * adds; `copies` more blob references are taken at once for local recipients.
   */
  private async persist<T>(built: Built, copies: number, fn: (trx: Db, stored: { row: RowMaker; sent: Omit<SentInfo, 'id'> }) => Promise<T>): Promise<T> {
    const staged = await this.d.blobs.store.stage(built.raw);
    try {
      return await this.d.db.transaction().execute(async (trx) => {
        await this.d.blobs.reference(trx, [{ staged, n: 1 + copies }]);
        const [contentId] = await messages.insertContents(trx, [{ hash: staged.hash, content: built.content }]);
        const hasAttach = built.content.attachments.some((a) => !a.inline);
        const sent = { content_id: contentId!, blob_hash: staged.hash, size: built.raw.length, urgent: built.content.urgent, has_attach: hasAttach };
        const row: RowMaker = (folder, bcc, state, sendAt) => ({
          ...sent, user_id: built.sender.id, folder_mid: folder, received_at: new Date(), seen: true, delivery_state: state, bcc: JSON.stringify(bcc), send_at: sendAt,
        });
        return fn(trx, { row, sent });
      });
    } finally {
      await this.d.blobs.store.release(staged);
    }
  }

  /** Sorts recipients into local mailboxes (a direct address wins over a group), outside addresses, and unknown ones of ours. */
  private async plan(db: Db, recipients: Address[]): Promise<Plan> {
    const resolved = await resolveMany(db, recipients.map((r) => r.address));
    const plan: Plan = { local: new Map(), usersOf: new Map(), external: [], unknown: [], full: [], groups: [], viaGroup: [] };
    const members = new Set<string>();
    for (const [address, r] of resolved) {
      if (r.targets.some((t) => t.full)) plan.full.push(address);
      if (r.targets.some((t) => t.via === 'group') || r.outside.length > 0) plan.groups.push(address);
      for (const o of r.outside) if (!resolved.has(o)) members.add(o);
      if (r.targets.length > 0) {
        plan.usersOf.set(address, r.targets.map((t) => t.userId));
        for (const t of r.targets) {
          const folder = Number(t.via === 'group' ? SystemFolder.GroupMail : SystemFolder.Inbox);
          plan.local.set(t.userId, Math.min(plan.local.get(t.userId) ?? folder, folder));
        }
      } else if (r.outside.length > 0) continue;
      else if (r.hosted) plan.unknown.push(address);
      else plan.external.push(address);
    }
    // Issue 17: a group's outside members get the mail through the outbound queue, like
    // any outside recipient (a job each, durable, retried). A member address that is
    // hosted here after all reaches its mailbox in GroupMail. One level only: a group
    // named as a member gives its own users, not its outside members, so two groups
    // listing each other cannot loop. A member address of ours that no longer exists
    // is skipped: the writer cannot fix it, and it must not stop the send.
    if (members.size > 0) {
      for (const [address, r] of await resolveMany(db, [...members])) {
        if (r.targets.length > 0) {
          plan.usersOf.set(address, r.targets.map((t) => t.userId));
          const folder = Number(SystemFolder.GroupMail);
          for (const t of r.targets) plan.local.set(t.userId, Math.min(plan.local.get(t.userId) ?? folder, folder));
        } else if (!r.hosted) {
          plan.external.push(address);
          plan.viaGroup.push(address);
        }
      }
    }
    return plan;
  }

  /**
   * Delivers a sent copy by its plan: local recipients get their own row pointing at
   * the same content and blob (the caller took their blob references), outside ones a
   * queue job each, and hosted addresses that no longer exist a failed job (they bounce).
   * Returns the recipients' new copies (not the sender's own), to announce after commit.
   */
  private async deliverNow(trx: Db, sent: SentInfo, sender: repo.SenderProfile, plan: Plan, setState: boolean, ruled?: RuledDelivery<RuleRecipient>): Promise<NewMail[]> {
    // Mail rules (features/mail-rule) decided each copy's folder and flags; a copy a rule rejected is not made.
    const decided: RuleRecipient[] = ruled?.recipients ?? [...plan.local].map(([userId, folderMid]) => ({ userId, folderMid }));
    const users = [...decided].sort((a, b) => a.userId - b.userId);
    const convs = await conversationsFor(trx, users.map((r) => ({ contentId: sent.content_id, userId: r.userId })));
    const copyIds = await messages.insertMessages(trx, users.map((r, i) => ({
      ...withConversation(convs[i] ?? null),
      user_id: r.userId, folder_mid: r.folderMid, content_id: sent.content_id, blob_hash: sent.blob_hash, size: sent.size,
      received_at: new Date(), urgent: sent.urgent, has_attach: sent.has_attach, delivery_state: null, bcc: '[]', seen: r.seen ?? false, star: r.star ?? false,
    })));
    const copyOf = new Map(users.map((r, i) => [r.userId, copyIds[i]!]));
    await ruled?.record(trx, copyOf);
    const base = { messageId: sent.id, senderId: sender.id, companyId: sender.company_id, blobHash: sent.blob_hash, mailFrom: sender.email };
    const jobs = await outbox.enqueue(trx, [
      ...plan.external.map((rcpt) => ({ ...base, rcpt })),
      ...plan.unknown.map((rcpt) => ({ ...base, rcpt, failure: `550 5.1.1 <${rcpt}>: no such mailbox here` })),
    ]);
    await repo.insertSendRecipients(trx, [
      ...[...plan.usersOf].flatMap(([address, ids]) => ids.map((userId) => ({ sentId: sent.id, address, kind: 'local' as const, copyId: copyOf.get(userId) ?? null, outboxId: null }))),
      ...[...plan.external, ...plan.unknown].map((address) => ({ sentId: sent.id, address, kind: 'external' as const, copyId: null, outboxId: jobs.get(address) ?? null })),
    ]);
    if (setState) await repo.setSentState(trx, sent.id, plan.unknown.length > 0 ? 'send_failed' : plan.external.length > 0 ? 'sending' : 'sent', null);
    return users.flatMap((r, i) => (r.userId === sender.id || r.seen ? [] : [{ userId: r.userId, messageId: copyIds[i]!, folderMid: r.folderMid }]));
  }

  /** Runs the local recipients' mail rules, as ingest does for mail from outside. */
  private async ruleLocal(db: Db, content: ParsedContent, raw: Buffer, from: string, plan: Plan): Promise<RuledDelivery<RuleRecipient> | undefined> {
    const engine = this.d.ingest.ruleEngine;
    if (!engine || plan.local.size === 0) return undefined;
    const recipients = [...plan.local].map(([userId, folderMid]) => ({ userId, folderMid }));
    return engine.decide(db, { content, envelopeFrom: from, size: raw.length, recipients, readRaw: async () => raw });
  }

  /** A timed or released send: its content is parsed again from the stored blob for the rules. */
  private async ruleStored(trx: Db, sent: repo.SentCopy, sender: repo.SenderProfile, plan: Plan): Promise<RuledDelivery<RuleRecipient> | undefined> {
    if (!this.d.ingest.ruleEngine || plan.local.size === 0) return undefined;
    const raw = await this.d.blobs.get(sent.blob_hash, trx);
    return this.ruleLocal(trx, await this.d.parser.parse(raw, sender.email), raw, sender.email, plan);
  }

  /**
   * After the commit: local forwards and auto-replies, and for a rule that rejected the
   * mail a bounce with the rule's message to our own sender (there is no SMTP session to answer 550 in).
   */
  private async afterRules(ruled: RuledDelivery<RuleRecipient> | undefined, plan: Plan, raw: Buffer, sender: repo.SenderProfile): Promise<void> {
    if (!ruled) return;
    await ruled.after();
    for (const [userId, message] of ruled.rejected) {
      const address = [...plan.usersOf].find(([, ids]) => ids.includes(userId))?.[0];
      if (!address) continue;
      await deliverBounce({ db: this.d.db, ingest: this.d.ingest, hostname: this.d.hostname },
        { senderId: sender.id, mailFrom: sender.email, rcpt: address, since: new Date() }, raw, `550 5.7.1 ${message || 'Rejected by the recipient\'s mail rule'}`, '');
    }
  }

  private auditContext(built: Built, plan: Plan, recipients: Address[]): AuditContext {
    const external = new Set([...plan.external, ...plan.unknown]);
    return {
      companyId: built.sender.company_id, senderId: built.sender.id, subject: built.content.subject, text: built.content.text || htmlToText(built.content.html),
      attachmentNames: built.content.attachments.filter((a) => !a.inline).map((a) => a.name), size: built.raw.length,
      recipients: [
        ...recipients.map((r) => ({ address: r.address, external: external.has(r.address.toLowerCase()) })),
        ...plan.viaGroup.map((address) => ({ address, external: true })),
      ],
    };
  }

  private review(db: Db, built: Built, plan: Plan, recipients: Address[]) {
    return this.d.policy.review(db, this.auditContext(built, plan, recipients));
  }

  private async bounceUnknown(sent: repo.SentCopy, sender: repo.SenderProfile, addresses: string[]): Promise<void> {
    const raw = await this.d.blobs.get(sent.blob_hash);
    for (const rcpt of addresses) {
      await deliverBounce({ db: this.d.db, ingest: this.d.ingest, hostname: this.d.hostname },
        { senderId: sender.id, mailFrom: sender.email, rcpt, since: new Date() }, raw, `550 5.1.1 <${rcpt}>: no such mailbox here`, '');
    }
  }

  private async discardDraft(trx: Db, userId: number, draftId: string | undefined): Promise<void> {
    if (!draftId) return;
    // Already gone (sent from another device, or deleted) is fine: there is nothing to discard.
    const rows = (await messages.lockOwned(trx, userId, [Number(draftId)])).filter((r) => r.folder_mid === DRAFTS);
    await this.d.messages.removeRows(trx, rows);
  }
}

/** What dispatching needs of a sent copy. */
type SentInfo = Pick<repo.SentCopy, 'id' | 'content_id' | 'blob_hash' | 'size' | 'urgent' | 'has_attach'>;

interface Plan {
  local: Map<number, number>; usersOf: Map<string, number[]>; external: string[]; unknown: string[]; full: string[]; groups: string[];
  /** Outside addresses reached only as members of a group (also in `external`): audit sees them as outside recipients. */
  viaGroup: string[];
}

type RowMaker = (folder: number, bcc: Address[], state: string | null, sendAt: Date | null) => NewMessage;

/**
 * The refusal for addresses of our own domains with no mailbox: every one named, by the
 * field it was typed in, so the client marks each red and words it itself (reason code).
 */
function refusedRecipients(input: SendInput, unknown: string[]): AppError {
  const fieldOf = (address: string) => (['to', 'cc', 'bcc'] as const).find((f) => input[f].some((a) => a.address === address)) ?? 'to';
  const detail: Record<string, string> = {};
  const reasons: Record<string, ReasonCode> = {};
  for (const address of unknown) {
    const field = fieldOf(address);
    detail[field] ??= `${address}: no such mailbox`;
    reasons[field] = 'send.no_such_mailbox';
  }
  return new AppError(Code.Invalid, detail, {
    reason: 'send.no_such_mailbox', reasons, refused: unknown.map((address) => ({ address, field: fieldOf(address), reason: 'send.no_such_mailbox' })),
  });
}

function dedupe(list: Address[]): Address[] {
  const seen = new Set<string>();
  return list.filter((a) => (seen.has(a.address) ? false : (seen.add(a.address), true)));
}

const isTyped = (a: { typed?: true }) => a.typed === true;

interface TypedLists { to: string[]; cc: string[]; bcc: string[] }

function draftMeta(headers: string): { replyTo: string | null; forwardOf: string | null; sendAt: number | null; typed: TypedLists } {
  const line = /^x-mailwing-draft:\s*(.*)$/im.exec(headers)?.[1] ?? '';
  const get = (k: string) => new RegExp(`${k}=(\\d+)`).exec(line)?.[1] ?? null;
  const sendAt = get('send-at');
  let typed: TypedLists = { to: [], cc: [], bcc: [] };
  const encoded = /^x-mailwing-draft-typed:\s*([A-Za-z0-9+/=]+)/im.exec(headers)?.[1];
  if (encoded) {
    try {
      typed = { ...typed, ...(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Partial<TypedLists>) };
    } catch {
      // A damaged header only loses the half-typed recipients, never the draft.
    }
  }
  return { replyTo: get('reply'), forwardOf: get('forward'), sendAt: sendAt ? Number(sendAt) : null, typed };
}
