import { SystemFolder } from '@mailwing/shared';
import type { LocalTarget } from '../account/account.repository.js';
import type { LocalRecipient } from '../message/ingest.service.js';
import type { CompanyListService } from './company-list.service.js';

const SPAM = Number(SystemFolder.Spam);
const domainOf = (a: string) => a.slice(a.lastIndexOf('@') + 1).toLowerCase();

/**
 * The company lists applied after DATA, once the header From is known and sender
 * authentication has run (a DMARC p=reject failure was refused before this; no list is
 * asked). Per recipient company: a block sends the copies to Spam, or refuses the mail
 * when every recipient's company blocks it; an allow marks the copies 'allowed' (mail
 * rules then never put them in Spam) unless DMARC failed: an allow list names senders,
 * and a failed DMARC says the sender is not who the From claims.
 * The mailbox's own lists run later, in ingest (a personal block still sends an allowed
 * sender's mail to that person's Spam). Precedence: docs/company-lists.md.
 */
export async function screenCompanyLists(
  lists: CompanyListService, byRcpt: Map<string, LocalTarget[]>, recipients: LocalRecipient[], sender: { addresses: string[]; ip: string | null },
): Promise<LocalRecipient[] | 'refuse'> {
  const blocked = new Set<number>();
  const allowed = new Set<number>();
  for (const [rcpt, targets] of byRcpt) {
    const hit = await lists.judge(domainOf(rcpt), sender);
    if (!hit) continue;
    for (const t of targets) (hit.kind === 'block' ? blocked : allowed).add(t.userId);
  }
  if (blocked.size === 0 && allowed.size === 0) return recipients;
  if (recipients.every((r) => blocked.has(r.userId))) return 'refuse';
  return recipients.map((r) => {
    if (blocked.has(r.userId)) return { ...r, folderMid: SPAM, listed: 'blocked' as const };
    if (allowed.has(r.userId) && r.auth?.dmarc !== 'fail') return { ...r, listed: 'allowed' as const };
    return r;
  });
}
