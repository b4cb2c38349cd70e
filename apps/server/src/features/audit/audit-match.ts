import type { AuditRuleKind, AuditRuleParams } from './tables.js';

/** What a rule can look at in an outgoing mail. */
export interface AuditSubject {
  senderId: number;
  /** The sender's department and every department above it: a rule on a department covers its sub-departments. */
  departmentIds: number[];
  subject: string;
  text: string;
  attachmentNames: string[];
  size: number;
  recipients: { address: string; external: boolean }[];
}

export interface MatchableRule { id: number; kind: AuditRuleKind; params: AuditRuleParams }

const domainOf = (a: string) => a.slice(a.lastIndexOf('@') + 1).toLowerCase();
const norm = (d: string) => d.trim().toLowerCase().replace(/^\*?@/, '').replace(/^\*\./, '').replace(/\.$/, '');

/** True when this rule holds the mail. Pure, so each kind is tested without a database. */
export function ruleMatches(rule: MatchableRule, m: AuditSubject): boolean {
  const p = rule.params;
  switch (rule.kind) {
    case 'all': return true;
    case 'external': return m.recipients.some((r) => r.external);
    case 'member': return (p.userIds ?? []).map(Number).includes(m.senderId);
    case 'department': {
      const mine = new Set(m.departmentIds);
      return (p.departmentIds ?? []).some((d) => mine.has(Number(d)));
    }
    case 'size': return p.minBytes !== undefined && m.size >= p.minBytes;
    case 'domain': {
      // A listed domain covers its subdomains too (example.com holds mail to mail.example.com).
      const wanted = (p.domains ?? []).map(norm).filter(Boolean);
      return m.recipients.some((r) => {
        const d = domainOf(r.address);
        return wanted.some((w) => d === w || d.endsWith(`.${w}`));
      });
    }
    case 'keyword': {
      const words = (p.keywords ?? []).map((k) => k.toLowerCase()).filter(Boolean);
      if (words.length === 0) return false;
      const fields = p.fields && p.fields.length > 0 ? p.fields : ['subject', 'body', 'attachment'];
      // Case-insensitive substring: CJK text has no word boundaries, so "合同" must match inside "销售合同草稿".
      const hay = [
        fields.includes('subject') ? m.subject : '',
        fields.includes('body') ? m.text : '',
        fields.includes('attachment') ? m.attachmentNames.join('\n') : '',
      ].join('\n').toLowerCase();
      return words.some((w) => hay.includes(w));
    }
    default: return false;
  }
}

export function matchingRules<R extends MatchableRule>(rules: R[], m: AuditSubject): R[] {
  return rules.filter((r) => ruleMatches(r, m));
}
