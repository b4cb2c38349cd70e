import { RULE_LIMITS, SystemFolder, type DryRun, type Rule, type RuleInput, type RuleJob, type RuleList } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import { headerBlock } from '../../delivery/dsn.js';
import * as repo from './mail-rule.repository.js';
import * as jobs from './rule-job.repository.js';
import type { RuleEngine } from './rule-engine.js';
import { compile, evaluate, type CompiledRule, type RuleMail } from './rule-evaluator.js';
import { applyToStored, type JobAfter } from './rule-job.js';

const toApi = (r: repo.RuleRow): Rule => ({
  id: String(r.id), position: r.position, name: r.name, enabled: r.enabled, match: r.matchAll ? 'all' : 'any', conditions: r.conditions, actions: r.actions, stop: r.stop,
});
const values = (v: RuleInput): repo.RuleValues => ({ name: v.name, enabled: v.enabled, matchAll: v.match === 'all', conditions: v.conditions, actions: v.actions, stop: v.stop });

/** A header block's fields, for a dry run or job over stored mail with a header condition. */
export function headersOf(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = field.indexOf(':');
    const key = field.slice(0, i).trim().toLowerCase();
    if (i > 0 && /^[a-z0-9-]+$/.test(key) && !Object.hasOwn(out, key)) out[key] = field.slice(i + 1).trim().slice(0, 500);
  }
  return out;
}

/** A stored mail as rules see it; headers are read from the blob only when a rule tests one. */
export async function storedRuleMail(engine: RuleEngine, m: repo.StoredMail, needHeaders: boolean, db: Db = engine.d.db): Promise<RuleMail> {
  return {
    from: { name: m.from_name, address: m.from_address }, recipients: [...m.to_list, ...m.cc_list].map((a) => a.address),
    subject: m.subject, body: m.body, size: m.size, hasAttach: m.has_attach,
    headers: needHeaders ? headersOf(headerBlock(await engine.d.blobs.head(m.blob_hash, undefined, db))) : {},
  };
}

export const testsHeaders = (r: CompiledRule) => r.conditions.some((c) => c.field === 'header');

/** Filter rules: CRUD, order, dry run, and running a saved rule over a folder. */
export class MailRuleService {
  constructor(private readonly engine: RuleEngine) {}

  private get db(): Db {
    return this.engine.d.db;
  }

  async list(userId: number): Promise<RuleList> {
    return { list: (await repo.listRules(this.db, userId)).map(toApi) };
  }

  async create(userId: number, input: RuleInput): Promise<Rule> {
    await this.check(userId, input);
    if ((await repo.countRules(this.db, userId)) >= RULE_LIMITS.rules) throw invalid('name', `At most ${RULE_LIMITS.rules} rules`, 'rule.too_many');
    const id = await repo.insertRule(this.db, userId, values(input));
    this.engine.invalidate(userId);
    return toApi((await repo.findRule(this.db, userId, id))!);
  }

  async update(userId: number, id: string, input: RuleInput): Promise<Rule> {
    await this.require(userId, id);
    await this.check(userId, input);
    await repo.updateRule(this.db, userId, Number(id), values(input), this.engine.d.now());
    this.engine.invalidate(userId);
    return toApi((await repo.findRule(this.db, userId, Number(id)))!);
  }

  async remove(userId: number, id: string): Promise<void> {
    await this.require(userId, id);
    await this.db.transaction().execute((trx) => repo.deleteRule(trx, userId, Number(id)));
    this.engine.invalidate(userId);
  }

  /** The new order names every rule of the mailbox exactly once. */
  async reorder(userId: number, ids: string[]): Promise<RuleList> {
    const mine = await repo.listRules(this.db, userId);
    const wanted = ids.map(Number);
    if (new Set(wanted).size !== wanted.length || wanted.some((id) => !mine.some((r) => r.id === id))) throw notFound('Rule');
    if (wanted.length !== mine.length) throw invalid('ids', 'List every rule once', 'rule.order_invalid');
    await this.db.transaction().execute((trx) => repo.setPositions(trx, userId, wanted));
    this.engine.invalidate(userId);
    return this.list(userId);
  }

  /**
   * "Matches N of the last 500 mails": the unsaved rule over the mailbox's latest mail
   * in every folder but Sent and Drafts (what rules act on is received mail).
   */
  async dryRun(userId: number, input: RuleInput): Promise<DryRun> {
    const rule = compile({ id: 0, ...values(input) });
    const mails = await repo.latestMail(this.db, userId, RULE_LIMITS.dryRunMails);
    let matched = 0;
    for (const m of mails) if (rule.test(await storedRuleMail(this.engine, m, testsHeaders(rule)))) matched++;
    return { matched, of: mails.length };
  }

  async run(userId: number, id: string, mid: string): Promise<RuleJob> {
    const rule = await this.require(userId, id);
    const folder = Number(mid);
    if ((await repo.existingFolders(this.db, userId, [folder])).size === 0) throw notFound('Folder');
    const total = await repo.countFolder(this.db, userId, folder);
    const jobId = await jobs.insertJob(this.db, { userId, ruleId: rule.id, folderMid: folder, total, now: this.engine.d.now() });
    return this.job(userId, String(jobId));
  }

  async job(userId: number, id: string): Promise<RuleJob> {
    const j = await jobs.findJob(this.db, userId, Number(id));
    if (!j) throw notFound('Job');
    return { id: String(j.id), ruleId: String(j.rule_id), mid: String(j.folder_mid), state: j.state, total: j.total, scanned: j.scanned, matched: j.matched };
  }

  /** One batch of one open job; the queue runner calls it until there is no work. Returns the mails scanned. */
  async runJobs(batch = 100): Promise<number> {
    const after: JobAfter = { staged: [], local: [], queued: false };
    let n: number;
    try {
      n = await this.db.transaction().execute(async (trx) => {
        const j = await jobs.lockOpenJob(trx);
        if (!j) return 0;
        const rule = await repo.findRule(trx, j.user_id, j.rule_id);
        const mails = rule ? await repo.folderMailAfter(trx, j.user_id, j.folder_mid, j.cursor_id, batch) : [];
        let matched = 0;
        if (rule) {
          const compiled = compile({ ...rule, enabled: true });
          // Forward's loop guards read Auto-Submitted, List-Id and Precedence from the stored head.
          const needHeaders = testsHeaders(compiled) || compiled.actions.some((a) => a.type === 'forward');
          for (const m of mails) {
            const o = evaluate([compiled], await storedRuleMail(this.engine, m, needHeaders, trx));
            if (o.matched.length === 0) continue;
            matched++;
            await applyToStored(this.engine, trx, j.user_id, m, o, after);
          }
        }
        await jobs.advanceJob(trx, j.id, { cursor: mails.at(-1)?.id ?? j.cursor_id, scanned: mails.length, matched, done: mails.length < batch, now: this.engine.d.now() });
        return Math.max(mails.length, 1);
      });
    } finally {
      for (const s of after.staged) await this.engine.d.blobs.store.release(s);
    }
    for (const deliver of after.local) await deliver().catch((err: unknown) => this.engine.d.log?.warn({ err }, 'a rule forward to a local mailbox failed'));
    if (after.queued) this.engine.d.onQueued();
    return n;
  }

  private async require(userId: number, id: string): Promise<repo.RuleRow> {
    const rule = await repo.findRule(this.db, userId, Number(id));
    if (!rule) throw notFound('Rule');
    return rule;
  }

  /** Folders and tags a rule names must be the caller's; a rule never forwards to its own mailbox. */
  private async check(userId: number, input: RuleInput): Promise<void> {
    for (const a of input.actions) {
      if (a.type === 'move') {
        const mid = Number(a.folder);
        if (mid === Number(SystemFolder.Sent) || mid === Number(SystemFolder.Drafts)) throw invalid('actions', 'Mail cannot be filed into Sent or Drafts', 'rule.bad_folder');
        if ((await repo.existingFolders(this.db, userId, [mid])).size === 0) throw notFound('Folder');
      }
      if (a.type === 'tag' && !(await repo.tagExists(this.db, userId, Number(a.tag)))) throw notFound('Tag');
      if (a.type === 'forward') {
        const [me] = await repo.mailboxes(this.db, [userId]);
        if (me?.email.toLowerCase() === a.to) throw invalid('actions', 'A rule cannot forward to your own address', 'rule.forward_self');
      }
    }
  }
}
