import type { RuleAction, RuleCondition } from '@mailwing/shared';

/** What rules look at in a mail; text is compared case-insensitively. */
export interface RuleMail {
  from: { name: string; address: string };
  /** To and Cc addresses. */
  recipients: string[];
  subject: string;
  /** The start of the text body (BODY_CHARS), as the dry run and jobs see it too. */
  body: string;
  size: number;
  hasAttach: boolean;
  /** Lowercase header names to their first value (mail-parse.ts keeps a compact set). */
  headers: Record<string, string>;
}

/** Rules and dry runs look at this much body text: every path sees the same. */
export const BODY_CHARS = 100_000;

export interface StoredRule {
  id: number;
  name: string;
  enabled: boolean;
  matchAll: boolean;
  conditions: RuleCondition[];
  actions: RuleAction[];
  stop: boolean;
}

/** A rule's conditions with their values lowercased once, at load, not per mail. */
export interface CompiledRule extends StoredRule { test: (m: RuleMail) => boolean }

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);
const inDomain = (address: string, domain: string) => {
  const d = domainOf(address);
  return d === domain || d.endsWith(`.${domain}`);
};

// Each text is lowercased once per mail, when a rule first needs it, not once per condition:
// twenty rules that look at a 40 KB body must not lowercase it twenty times.
const lowered = new WeakMap<RuleMail, Partial<Record<'subject' | 'body' | 'name', string>>>();
function low(m: RuleMail, key: 'subject' | 'body' | 'name'): string {
  let l = lowered.get(m);
  if (!l) lowered.set(m, (l = {}));
  return (l[key] ??= (key === 'name' ? m.from.name : m[key]).toLowerCase());
}

function textTest(c: Extract<RuleCondition, { field: 'from' | 'to' | 'subject' | 'body' }>): (m: RuleMail) => boolean {
  const v = c.value.toLowerCase().replace(/^@/, '');
  if (c.field === 'from' || c.field === 'to') {
    const list = (m: RuleMail) => (c.field === 'from' ? [m.from.address] : m.recipients);
    const label = (m: RuleMail, a: string) => (c.field === 'from' ? `${low(m, 'name')} <${a}>` : a);
    switch (c.op) {
      case 'contains': return (m) => list(m).some((a) => label(m, a).includes(v));
      case 'not_contains': return (m) => !list(m).some((a) => label(m, a).includes(v));
      case 'equals': return (m) => list(m).some((a) => a === v || (c.field === 'from' && low(m, 'name') === v));
      case 'domain': return (m) => list(m).some((a) => inDomain(a, v));
    }
  }
  const field = c.field;
  const get = (m: RuleMail) => low(m, field);
  switch (c.op) {
    case 'contains': return (m) => get(m).includes(v);
    case 'not_contains': return (m) => !get(m).includes(v);
    case 'equals': return (m) => get(m).trim() === v;
    // A domain test on text names no address: it looks for "@domain" in it.
    case 'domain': return (m) => get(m).includes(`@${v}`);
  }
}

export function conditionTest(c: RuleCondition): (m: RuleMail) => boolean {
  switch (c.field) {
    case 'size': {
      const bytes = c.value * 1024;
      return c.op === 'over' ? (m) => m.size > bytes : (m) => m.size < bytes;
    }
    case 'attachment': return c.op === 'yes' ? (m) => m.hasAttach : (m) => !m.hasAttach;
    case 'header': {
      const v = c.value.toLowerCase();
      const get = (m: RuleMail) => m.headers[c.name];
      switch (c.op) {
        case 'exists': return (m) => get(m) !== undefined;
        case 'contains': return (m) => (get(m) ?? '').toLowerCase().includes(v);
        case 'not_contains': return (m) => !(get(m) ?? '').toLowerCase().includes(v);
        case 'equals': return (m) => (get(m) ?? '').trim().toLowerCase() === v;
      }
      break;
    }
    default: return textTest(c);
  }
  return () => false;
}

export function compile(rule: StoredRule): CompiledRule {
  const tests = rule.conditions.map(conditionTest);
  const test = rule.matchAll ? (m: RuleMail) => tests.every((t) => t(m)) : (m: RuleMail) => tests.some((t) => t(m));
  return { ...rule, test };
}

/**
 * RFC 3834 §2 and list conventions: mail a program sent (Auto-Submitted other than
 * "no"), list mail (List-Id) and bulk mail (Precedence bulk/list/junk). Forward,
 * reject and auto-reply never act on it, so two robots cannot talk to each other forever.
 */
export function isAutomatic(m: RuleMail): boolean {
  const auto = (m.headers['auto-submitted'] ?? 'no').trim().toLowerCase();
  const precedence = (m.headers.precedence ?? '').trim().toLowerCase();
  return !auto.startsWith('no') || m.headers['list-id'] !== undefined || ['bulk', 'list', 'junk'].includes(precedence);
}

/** What the matching rules decide for one mailbox's copy. */
export interface Outcome {
  /** Rules that matched, in order (a forward is recorded per rule). */
  matched: number[];
  folder: number | null;
  deleted: boolean;
  read: boolean;
  star: boolean;
  tags: number[];
  forwards: { ruleId: number; to: string }[];
  reject: string | null;
}

/**
 * Runs a mailbox's rules in order over one mail. The first rule that moves (or
 * deletes) decides the folder, a later move does not undo it; flags and tags add up;
 * a rule with "stop here" ends the walk after its own actions.
 */
export function evaluate(rules: CompiledRule[], m: RuleMail): Outcome {
  const out: Outcome = { matched: [], folder: null, deleted: false, read: false, star: false, tags: [], forwards: [], reject: null };
  let automatic: boolean | undefined;
  for (const rule of rules) {
    if (!rule.enabled || !rule.test(m)) continue;
    out.matched.push(rule.id);
    for (const a of rule.actions) {
      switch (a.type) {
        case 'move': if (out.folder === null && !out.deleted) out.folder = Number(a.folder); break;
        case 'delete': if (out.folder === null) out.deleted = true; break;
        case 'read': out.read = true; break;
        case 'star': out.star = true; break;
        case 'tag': if (!out.tags.includes(Number(a.tag))) out.tags.push(Number(a.tag)); break;
        case 'forward':
          automatic ??= isAutomatic(m);
          if (!automatic && !out.forwards.some((f) => f.to === a.to)) out.forwards.push({ ruleId: rule.id, to: a.to });
          break;
        case 'reject':
          automatic ??= isAutomatic(m);
          if (!automatic && out.reject === null) out.reject = a.message;
          break;
      }
    }
    if (rule.stop) break;
  }
  return out;
}
