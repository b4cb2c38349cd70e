import { createHash, randomBytes } from 'node:crypto';
import { AUDIT_LINK_TTL_S, PeopleReasons, type AuditRuleInput, type AuditRule, type HeldMail, type HeldPreview, type SentAudit } from '@mailwing/shared';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import type { AdminView } from '../people/people.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { AuditContext, AuditPolicy, AuditVerdict } from '../compose/audit-policy.js';
import type { MessageService } from '../message/message.service.js';
import { matchingRules } from './audit-match.js';
import * as repo from './audit.repository.js';
import type { AuditItemState } from './tables.js';

export interface AuditMailer { send(mail: { to: string; domain: string; subject: string; text: string }): Promise<unknown> }

export interface AuditDeps {
  db: Db;
  messages: MessageService;
  mailer: AuditMailer;
  /** Where the web client lives, for the links in auditors' mail. */
  webBase: string;
  /** Wakes the timed-send worker after a pass, so approved mail goes at once. */
  onReleased: () => void;
  now?: () => Date;
  log?: Logger;
}

type Action = 'pass' | 'reject';
type Via = 'app' | 'link' | 'timeout';
const OPEN = new Set<AuditItemState>(['waiting', 'auditing']);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const hashToken = (t: string) => createHash('sha256').update(t).digest();

/**
 * Outgoing-mail audit (issue 17, scope 4; spec §4: waiting → auditing → passed / rejected).
 * The one owner of "is this mail held": compose asks `review` for every send (timed ones
 * too) and keeps a held mail as a 'held' dispatch, which nothing but a decision here
 * changes. A pass turns it into a due dispatch, delivered by the durable timed-send worker;
 * a reject drops it and tells the sender. Every decision is written to audit_log, which
 * the database itself keeps append-only (migration 019).
 */
export class AuditService implements AuditPolicy {
  private readonly now: () => Date;

  constructor(private readonly d: AuditDeps) {
    this.now = d.now ?? (() => new Date());
  }

  // ---- the policy compose calls ----

  async review(db: Db, ctx: AuditContext): Promise<AuditVerdict> {
    const rules = await repo.enabledRules(db, ctx.companyId);
    // The common case (a company with no rules) costs this one indexed query.
    if (rules.length === 0) return { ruleIds: [] };
    const needsDepartments = rules.some((r) => r.kind === 'department');
    const departmentIds = needsDepartments ? await repo.departmentChain(db, ctx.senderId) : [];
    return { ruleIds: matchingRules(rules, { ...ctx, departmentIds }).map((r) => r.id) };
  }

  async hold(trx: Db, v: { messageId: number; ctx: AuditContext; verdict: AuditVerdict }): Promise<number> {
    const rules = (await repo.enabledRules(trx, v.ctx.companyId)).filter((r) => v.verdict.ruleIds.includes(r.id));
    // Several rules: every auditor of each may decide; the shortest timeout wins, and on a tie a reject beats a pass.
    const first = [...rules].sort((a, b) => a.timeout_min - b.timeout_min || (a.on_timeout === 'reject' ? -1 : 1))[0]!;
    const auditors = [...new Set(rules.flatMap((r) => r.auditors.map(Number)))];
    const now = this.now();
    const id = await repo.insertItem(trx, {
      companyId: v.ctx.companyId, messageId: v.messageId, senderId: v.ctx.senderId, ruleIds: rules.map((r) => r.id), auditors,
      dueAt: new Date(now.getTime() + first.timeout_min * 60_000), onTimeout: first.on_timeout,
    });
    await repo.log(trx, { companyId: v.ctx.companyId, itemId: id, messageId: v.messageId, action: 'held', actorId: v.ctx.senderId, via: 'send', at: now });
    return id;
  }

  async notify(itemId: number): Promise<void> {
    try {
      const item = await repo.itemById(this.d.db, itemId);
      if (!item) return;
      const auditors = await repo.companyUsers(this.d.db, item.company_id, item.auditors.map(Number));
      const expiresAt = new Date(this.now().getTime() + AUDIT_LINK_TTL_S * 1000);
      const domain = item.from_address.split('@')[1] ?? '';
      for (const a of auditors) {
        const pass = randomBytes(32).toString('base64url');
        const reject = randomBytes(32).toString('base64url');
        await repo.insertLinks(this.d.db, [
          { itemId, auditorId: a.id, action: 'pass', hash: hashToken(pass), expiresAt },
          { itemId, auditorId: a.id, action: 'reject', hash: hashToken(reject), expiresAt },
        ]);
        const link = (t: string) => `${this.d.webBase}/#/pages/audit/link/index?token=${t}`;
        await this.d.mailer.send({
          to: a.email, domain,
          subject: `待审核邮件 / Mail waiting for your audit: ${item.subject}`,
          text: [
            `${item.from_name} <${item.from_address}> → ${recipientsOf(item).join(', ')}`,
            `主题 / Subject: ${item.subject}`,
            '',
            item.text.slice(0, 2000),
            '',
            `通过 / Approve: ${link(pass)}`,
            `拒绝 / Reject: ${link(reject)}`,
            '',
            `每个链接只能用一次，${AUDIT_LINK_TTL_S / 3600} 小时后失效。/ Each link works once and expires in ${AUDIT_LINK_TTL_S / 3600} hours.`,
            `超时 / If nobody decides by ${item.due_at.toISOString()}: ${item.on_timeout === 'pass' ? '自动通过 / it is sent' : '自动拒绝 / it is rejected'}.`,
          ].join('\n'),
        });
      }
    } catch (err) {
      // The held mail waits either way; the auditor still sees it in the app.
      this.d.log?.warn({ err, item: itemId }, 'audit notification not sent');
    }
  }

  async withdraw(trx: Db, messageId: number, userId: number): Promise<void> {
    const item = await repo.lockItemOfMessage(trx, messageId);
    if (!item || !OPEN.has(item.state)) return;
    const at = this.now();
    await repo.setState(trx, item.id, { state: 'withdrawn', decidedBy: userId, decidedAt: at });
    await repo.log(trx, { companyId: item.company_id, itemId: item.id, messageId, action: 'withdrawn', actorId: userId, via: 'sender', at });
  }

  // ---- auditors ----

  async held(me: AuthContext, open: boolean, page: number, size: number) {
    const { rows, total } = await repo.itemsFor(this.d.db, viewer(me), open, (page - 1) * size, size);
    const names = await this.ruleNames(me.companyId);
    return { list: rows.map((r) => toHeld(r, names)), total, page, size };
  }

  /** The held mail as the read page shows it (the same sanitised HTML); the first look marks it "auditing". */
  async preview(me: AuthContext, id: number): Promise<HeldPreview> {
    const row = await repo.itemFor(this.d.db, viewer(me), id);
    if (!row) throw notFound('Held mail');
    if (row.state === 'waiting') {
      await this.d.db.transaction().execute(async (trx) => {
        const item = await repo.lockItem(trx, id);
        if (item?.state !== 'waiting') return;
        await repo.setState(trx, id, { state: 'auditing' });
        await repo.setSentState(trx, item.message_id, 'auditing');
        await repo.log(trx, { companyId: item.company_id, itemId: id, messageId: item.message_id, action: 'opened', actorId: me.userId, via: 'app', at: this.now() });
      });
      row.state = 'auditing';
    }
    const mail = await this.d.messages.read(row.sender_id, String(row.message_id), { images: false, token: me.token });
    return { item: toHeld(row, await this.ruleNames(me.companyId)), mail };
  }

  async decide(me: AuthContext, id: number, action: Action, reason: string): Promise<AuditItemState> {
    if (!(await repo.itemFor(this.d.db, viewer(me), id))) throw notFound('Held mail');
    return this.decideAs(id, me.userId, action, reason, 'app');
  }

  // ---- links in the notification mail ----

  async linkView(token: string) {
    const link = await repo.linkByHash(this.d.db, hashToken(token), false);
    this.checkLink(link);
    const row = (await repo.itemById(this.d.db, link!.item_id))!;
    return { action: link!.action, item: toHeld(row, await this.ruleNames(row.company_id)), text: row.text.slice(0, 20_000) };
  }

  async linkDecide(token: string, reason: string): Promise<AuditItemState> {
    const link = await this.d.db.transaction().execute(async (trx) => {
      const l = await repo.linkByHash(trx, hashToken(token), true);
      this.checkLink(l);
      await repo.spendLink(trx, l!.id, this.now());
      return l!;
    });
    return this.decideAs(link.item_id, link.auditor_id, link.action, reason, 'link');
  }

  private checkLink(link: Awaited<ReturnType<typeof repo.linkByHash>>): void {
    if (!link) throw notFound('Audit link');
    if (link.used_at) throw invalid('token', 'This link has already been used', 'audit.link_used');
    if (link.expires_at.getTime() <= this.now().getTime()) throw invalid('token', 'This link has expired', 'audit.link_expired');
  }

  // ---- timeouts ----

  /** Open items past their rule's timeout get the rule's verdict. The worker calls this every few seconds. */
  async timeoutDue(limit = 50): Promise<number> {
    const done: { item: Awaited<ReturnType<typeof repo.lockItem>> & object; action: Action }[] = [];
    await this.d.db.transaction().execute(async (trx) => {
      for (const item of await repo.lockDue(trx, this.now(), limit)) {
        await this.apply(trx, item, item.on_timeout, null, item.on_timeout === 'reject' ? 'Not audited in time' : null, 'timeout');
        done.push({ item, action: item.on_timeout });
      }
    });
    await this.after(done.map((d) => ({ itemId: d.item.id, action: d.action })));
    return done.length;
  }

  // ---- the sender ----

  async ofSent(me: AuthContext, mid: number): Promise<SentAudit> {
    const row = await repo.itemOfSent(this.d.db, me.userId, mid);
    if (!row) throw notFound('Audit');
    return { state: row.state, reason: row.reason, decidedAt: row.decided_at ? unix(row.decided_at) : null, dueAt: unix(row.due_at) };
  }

  // ---- rules (admin) ----

  /**
   * Spec §6 for rules: a company-wide admin manages every rule. A department admin
   * manages a member or department rule whose people are all in their subtree; rules
   * about the whole company's mail (keywords, size, domains, outside, all) are not theirs.
   */
  private async inScope(v: AdminView, kind: string, params: { userIds?: (number | string)[]; departmentIds?: (number | string)[] }): Promise<boolean> {
    if (v.departments === null) return true;
    const scope = v.departments;
    if (kind === 'department') return (params.departmentIds ?? []).every((d) => scope.has(Number(d)));
    if (kind !== 'member') return false;
    const ids = (params.userIds ?? []).map(Number);
    const rows = await repo.userDepartments(this.d.db, v.companyId, ids);
    return rows.length === new Set(ids).size && rows.every((r) => r.department_id !== null && scope.has(r.department_id));
  }

  async rules(v: AdminView): Promise<{ list: AuditRule[] }> {
    const me = v.me;
    const all = await repo.listRules(this.d.db, me.companyId);
    const rows = [];
    for (const r of all) if (await this.inScope(v, r.kind, r.params)) rows.push(r);
    const people = new Map((await repo.companyUsers(this.d.db, me.companyId, [...new Set(rows.flatMap((r) => r.auditors.map(Number)))])).map((u) => [u.id, u]));
    return {
      list: rows.map((r) => ({
        id: String(r.id), name: r.name, kind: r.kind,
        params: { ...r.params, userIds: r.params.userIds?.map(String), departmentIds: r.params.departmentIds?.map(String) }, timeoutMin: r.timeout_min, onTimeout: r.on_timeout, enabled: r.enabled,
        auditors: r.auditors.map(Number).flatMap((a) => { const u = people.get(a); return u ? [{ id: String(u.id), email: u.email, name: u.name }] : []; }),
      })),
    };
  }

  async saveRule(v: AdminView, input: AuditRuleInput): Promise<{ id: string }> {
    const me = v.me;
    if (input.id) {
      const old = (await repo.listRules(this.d.db, me.companyId)).find((r) => r.id === Number(input.id));
      if (!old) throw notFound('Audit rule');
      if (!(await this.inScope(v, old.kind, old.params))) throw forbidden('This rule is outside your admin scope', PeopleReasons.outOfScope);
    }
    const auditors = [...new Set(input.auditors.map(Number))];
    const found = await repo.companyUsers(this.d.db, me.companyId, auditors);
    if (found.length !== auditors.length) throw invalid('auditors', 'Every auditor must be a member of this company', 'audit.auditor_unknown');
    const p = input.params;
    const need: Record<string, boolean> = {
      member: (p.userIds?.length ?? 0) > 0, department: (p.departmentIds?.length ?? 0) > 0, keyword: (p.keywords?.length ?? 0) > 0,
      size: p.minBytes !== undefined, domain: (p.domains?.length ?? 0) > 0, external: true, all: true,
    };
    if (!need[input.kind]) throw invalid('params', `A ${input.kind} rule needs its condition`, 'audit.rule_condition_missing');
    if (input.kind === 'member' && (await repo.companyUsers(this.d.db, me.companyId, p.userIds!.map(Number))).length !== new Set(p.userIds).size) {
      throw invalid('params', 'Every member must be in this company', 'audit.member_unknown');
    }
    if (!(await this.inScope(v, input.kind, p))) throw forbidden('This rule reaches people outside your admin scope', PeopleReasons.outOfScope);
    const values: repo.RuleValues = {
      name: input.name, kind: input.kind, auditors, timeoutMin: input.timeoutMin, onTimeout: input.onTimeout, enabled: input.enabled,
      params: { userIds: p.userIds?.map(Number), departmentIds: p.departmentIds?.map(Number), keywords: p.keywords, fields: p.fields, minBytes: p.minBytes, domains: p.domains },
    };
    if (input.id) {
      if (!(await repo.updateRule(this.d.db, me.companyId, Number(input.id), values))) throw notFound('Audit rule');
      return { id: input.id };
    }
    return { id: String(await repo.insertRule(this.d.db, me.companyId, values)) };
  }

  async deleteRule(v: AdminView, id: number): Promise<void> {
    const old = (await repo.listRules(this.d.db, v.companyId)).find((r) => r.id === id);
    if (!old) throw notFound('Audit rule');
    if (!(await this.inScope(v, old.kind, old.params))) throw forbidden('This rule is outside your admin scope', PeopleReasons.outOfScope);
    if (!(await repo.deleteRule(this.d.db, v.companyId, id))) throw notFound('Audit rule');
  }

  async log(me: AuthContext) {
    const rows = await repo.logOf(this.d.db, me.companyId, 200);
    return { list: rows.map((r) => ({ id: String(r.id), itemId: String(r.item_id), action: r.action, actor: r.actor ?? null, via: r.via, reason: r.reason, at: unix(new Date(r.at)), subject: r.subject ?? '' })) };
  }

  // ---- internals ----

  private async decideAs(id: number, actorId: number, action: Action, reason: string, via: Via): Promise<AuditItemState> {
    if (action === 'reject' && !reason.trim()) throw invalid('reason', 'Give the sender a reason', 'audit.reason_required');
    const state = await this.d.db.transaction().execute(async (trx) => {
      const item = await repo.lockItem(trx, id);
      if (!item) throw notFound('Held mail');
      if (!OPEN.has(item.state)) throw invalid('id', 'This mail has already been decided', 'audit.already_decided');
      return this.apply(trx, item, action, actorId, reason || null, via);
    });
    await this.after([{ itemId: id, action }]);
    return state;
  }

  /** The decision, in the caller's transaction with the item locked. */
  private async apply(trx: Db, item: { id: number; company_id: number; message_id: number }, action: Action, actorId: number | null, reason: string | null, via: Via | 'timeout'): Promise<AuditItemState> {
    const at = this.now();
    const state: AuditItemState = action === 'pass' ? 'passed' : 'rejected';
    await repo.setState(trx, item.id, { state, reason, decidedBy: actorId, decidedAt: at });
    if (action === 'pass') {
      await repo.releaseDispatch(trx, item.message_id);
      await repo.setSentState(trx, item.message_id, 'audit_passed');
    } else {
      await repo.dropDispatch(trx, item.message_id);
      await repo.setSentState(trx, item.message_id, 'audit_rejected');
    }
    await repo.log(trx, { companyId: item.company_id, itemId: item.id, messageId: item.message_id, action: state, actorId, via, reason, at });
    return state;
  }

  /** After the commit: passed mail goes now; the sender of rejected mail is told why. */
  private async after(decided: { itemId: number; action: Action }[]): Promise<void> {
    if (decided.some((d) => d.action === 'pass')) this.d.onReleased();
    for (const d of decided.filter((x) => x.action === 'reject')) {
      try {
        const item = await repo.itemById(this.d.db, d.itemId);
        if (!item) continue;
        await this.d.mailer.send({
          to: item.from_address, domain: item.from_address.split('@')[1] ?? '',
          subject: `邮件未通过审核 / Your mail was not approved: ${item.subject}`,
          text: [
            `你的邮件「${item.subject}」未通过审核，没有发给任何收件人。`,
            `Your mail "${item.subject}" was not approved and went to no one.`,
            '',
            `原因 / Reason: ${item.reason ?? ''}`,
          ].join('\n'),
        });
      } catch (err) {
        // The Sent copy shows the state and reason either way.
        this.d.log?.warn({ err, item: d.itemId }, 'audit rejection notice not sent');
      }
    }
  }

  private async ruleNames(companyId: number): Promise<Map<number, string>> {
    return new Map((await repo.listRules(this.d.db, companyId)).map((r) => [r.id, r.name]));
  }
}

function viewer(me: AuthContext): repo.Viewer {
  return { userId: me.userId, companyId: me.companyId, admin: me.role === 'admin' };
}

type Row = NonNullable<Awaited<ReturnType<typeof repo.itemById>>>;

function recipientsOf(r: Row): string[] {
  return [...r.to_list, ...r.cc_list, ...(r.bcc as { address: string }[])].map((a) => a.address);
}

function toHeld(r: Row, names: Map<number, string>): HeldMail {
  return {
    id: String(r.id), mid: String(r.message_id), state: r.state, subject: r.subject, from: { name: r.from_name, address: r.from_address },
    to: recipientsOf(r), size: r.size, heldAt: unix(new Date(r.created_at)), dueAt: unix(r.due_at), onTimeout: r.on_timeout,
    rules: r.rule_ids.map((id) => names.get(Number(id)) ?? `#${id}`), reason: r.reason, decidedAt: r.decided_at ? unix(r.decided_at) : null,
  };
}
