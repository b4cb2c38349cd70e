import { ExclamationShieldFill, GlobalOutline } from 'antd-mobile-icons';
import type { MailAuth } from '@mailwing/shared';
import { useOrganiseT } from '../../i18n/organise';

export type SenderNoticeKind = 'forged' | 'external';

/**
 * Which notice a mail gets: failed authentication outranks "external" (it is both).
 * Mail between our own users has no `auth`, so it never gets one.
 */
export function senderNoticeKind(auth: MailAuth | undefined): SenderNoticeKind | null {
  if (!auth) return null;
  if (auth.verdict === 'fail') return 'forged';
  return auth.external ? 'external' : null;
}

/** The banner under the read page's header for mail from outside or with a forged-looking sender. */
export function SenderNotice({ auth }: { auth: MailAuth | undefined }) {
  const m = useOrganiseT();
  const kind = senderNoticeKind(auth);
  if (!kind) return null;
  return (
    <div className={`mw-sender-notice is-${kind}`} role={kind === 'forged' ? 'alert' : 'note'} data-sender-notice={kind}>
      {kind === 'forged' ? <ExclamationShieldFill /> : <GlobalOutline />}
      <span>{kind === 'forged' ? m.senderForged : m.senderExternal}</span>
    </div>
  );
}

/** "SPF pass · DKIM pass · DMARC pass", for the header's details. */
export function authSummary(auth: MailAuth, words: Record<string, string>): string {
  const word = (v: string) => words[v] ?? v;
  return `SPF ${word(auth.spf)} · DKIM ${word(auth.dkim)} · DMARC ${word(auth.dmarc)}`;
}
