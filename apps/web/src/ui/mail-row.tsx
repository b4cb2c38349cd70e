import { formatMailTime, SystemFolder, type MailSummary } from '@mailwing/shared';
import { LinkOutline, StarFill } from 'antd-mobile-icons';
import { timeWords, useT } from '../i18n';
import { RowStatus } from './mail-status';

/** One mail in a list: unread rows are bold and carry a dot. */
export function MailRow({ mail, onOpen }: { mail: MailSummary; onOpen: (id: string) => void }) {
  const m = useT();
  // In Sent and Drafts the sender is always the user; who it went to says more.
  const outgoing = mail.mid === SystemFolder.Sent || mail.mid === SystemFolder.Drafts;
  const sender = outgoing && mail.to.length > 0
    ? `${m.to}: ${mail.to.map((a) => a.name || a.address).join(', ')}`
    : mail.from.name || mail.from.address || m.noSender;
  return (
    <div
      className={mail.read ? 'mw-mail-row' : 'mw-mail-row is-unread'}
      role="button"
      tabIndex={0}
      data-id={mail.id}
      onClick={() => onOpen(mail.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onOpen(mail.id);
      }}
    >
      <span className="mw-mail-dot" aria-label={mail.read ? undefined : m.unread} />
      <div className="mw-mail-main">
        <div className="mw-mail-line">
          <span className="mw-mail-from">{sender}</span>
          <span className="mw-mail-time">{formatMailTime(mail.date, new Date(), timeWords(m))}</span>
        </div>
        <div className="mw-mail-line">
          <span className="mw-mail-subject">
            {mail.urgent && <span className="mw-urgent">{m.urgent}</span>}
            <RowStatus status={mail.status} sendAt={mail.sendAt} />
            {mail.subject || m.noSubject}
          </span>
          <span className="mw-mail-marks">
            {mail.hasAttach && <LinkOutline aria-label={m.attachment} />}
            {mail.star && <StarFill className="mw-star" aria-label={m.starred} />}
          </span>
        </div>
        <div className="mw-mail-snippet">{mail.snippet}</div>
      </div>
    </div>
  );
}
