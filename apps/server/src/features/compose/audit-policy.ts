/**
 * The audit seam (issue 4): every outgoing mail passes a policy before it is
 * delivered. A held mail waits in audit_waiting until released. The company
 * admin's real rules (keywords, recipients, attachments) come with the admin
 * console; until then a company either audits all outgoing mail or none.
 */
export interface AuditContext {
  companyId: number;
  auditOutgoing: boolean;
  sender: string;
  recipients: string[];
  subject: string;
}

export interface AuditPolicy {
  review(ctx: AuditContext): Promise<'pass' | 'hold'>;
}

export const companyAuditPolicy: AuditPolicy = {
  review: async (ctx) => (ctx.auditOutgoing ? 'hold' : 'pass'),
};
