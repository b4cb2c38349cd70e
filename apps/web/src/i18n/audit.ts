import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enAudit } from './en-audit';
import { zh } from './zh';
import { zhAudit } from './zh-audit';

export type AuditMessages = Messages & typeof enAudit;

// The audit and list pages load on demand, and so do their strings (first-screen budget).
const catalogues: Record<Language, AuditMessages> = {
  en: { ...en, ...enAudit },
  zh: { ...zh, ...zhAudit },
};

export function useAuditT(): AuditMessages {
  return catalogues[useLanguage()];
}

/** The user's text for a refusal, by its reason code; the server's words when the code is not ours. */
export function auditReason(m: AuditMessages, err: { reason?: string; message: string }): string {
  return (err.reason && m.auditReasons[err.reason]) || err.message;
}
