// How mail is threaded into conversations (issue 14, scope 2). The same rules run in SQL
// at delivery (conversation.repository.ts `conversationsFor`) and here, in memory, for
// the one-time pass over existing mail (migration 025) and for tests.
//
// 1. Header links: the mail's own Message-ID (the same mail delivered twice, or a copy
//    sent to oneself), then In-Reply-To, then References from the newest back. The
//    first one found in the mailbox names the conversation.
// 2. Only without such a link: the same subject (reply and forward prefixes removed,
//    shared/validators threadSubject) between the same set of people (people-key.ts),
//    dated within SUBJECT_WINDOW_DAYS of it; the newest such mail by date names the
//    conversation. Same subject alone never joins two mails.

/** How far apart two mails may be dated and still be joined by subject alone. */
export const SUBJECT_WINDOW_DAYS = 7;
const WINDOW_MS = SUBJECT_WINDOW_DAYS * 86_400_000;
/** References kept per mail: the newest ones, the rest cannot change the answer in practice. */
export const MAX_REFERENCES = 30;

/** The Message-IDs a mail links to, the strongest first. */
export function linkIds(m: { messageId: string; inReplyTo: string; references: string }): string[] {
  const refs = m.references.split(/\s+/).filter(Boolean).slice(-MAX_REFERENCES).reverse();
  return [...new Set([m.messageId, m.inReplyTo, ...refs].map((s) => s.trim()).filter(Boolean))];
}

export interface ThreadKey { messageId: string; subjectKey: string; peopleKey: string; date: Date }

/** One mailbox's threading state, in the order its mail came. */
export class Threader {
  private readonly byId = new Map<string, number>();
  private readonly bySubject = new Map<string, { conv: number; at: number }>();

  constructor(readonly userId: number) {}

  /** The conversation a mail joins, or null when it starts one. */
  assign(m: ThreadKey & { inReplyTo: string; references: string }): number | null {
    for (const id of linkIds(m)) {
      const conv = this.byId.get(id);
      if (conv !== undefined) return conv;
    }
    if (!m.subjectKey) return null;
    const hit = this.bySubject.get(`${m.subjectKey}\n${m.peopleKey}`);
    return hit && Math.abs(hit.at - m.date.getTime()) <= WINDOW_MS ? hit.conv : null;
  }

  remember(m: ThreadKey, conv: number): void {
    if (m.messageId && !this.byId.has(m.messageId)) this.byId.set(m.messageId, conv);
    if (m.subjectKey) this.bySubject.set(`${m.subjectKey}\n${m.peopleKey}`, { conv, at: m.date.getTime() });
  }
}
