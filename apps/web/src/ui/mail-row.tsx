import type { ReactNode } from 'react';
import { formatMailTime, SystemFolder, type MailSummary } from '@mailwing/shared';
import { CheckOutline, StarFill } from 'antd-mobile-icons';
import { timeWords, useT } from '../i18n';
import { Avatar } from './avatar';
import { PaperclipIcon } from './icons';
import { useLongPress } from './long-press';
import { RowStatus } from './mail-status';
import { TagChips } from './tag-chips';

const plain = (text: string): ReactNode => text;

function avatarOf(mail: MailSummary, outgoing: boolean): { name: string; address: string; src: string | null } {
  const who = outgoing ? mail.to[0] : mail.from;
  return { name: who?.name || who?.address || '?', address: who?.address ?? '', src: outgoing ? null : mail.fromAvatar };
}

interface MailRowProps {
  mail: MailSummary;
  onOpen: (id: string) => void;
  /** Batch mode: a checkbox shows, and a tap toggles it instead of opening. */
  selecting?: boolean;
  selected?: boolean;
  onToggle?: (id: string) => void;
  /** A long press (enters batch mode with this row). */
  onLongPress?: (id: string) => void;
  /** Renders the sender, subject and snippet, e.g. with search matches marked. */
  renderText?: (text: string) => ReactNode;
}

/** One mail in a list: unread rows are bold and carry a dot; tags show as coloured chips. */
export function MailRow({ mail, onOpen, selecting = false, selected = false, onToggle, onLongPress, renderText = plain }: MailRowProps) {
  const m = useT();
  const press = useLongPress(onLongPress && !selecting ? () => onLongPress(mail.id) : undefined);
  // In Sent and Drafts the sender is always the user; who it went to says more.
  const outgoing = mail.mid === SystemFolder.Sent || mail.mid === SystemFolder.Drafts;
  const conv = mail.conv && mail.conv.count > 1 ? mail.conv : undefined;
  // A conversation row names who wrote in it (issue 14), by name, else address.
  const sender = conv
    ? conv.participants.map((a) => a.name || a.address).join(', ')
    : outgoing && mail.to.length > 0
      ? `${m.to}: ${mail.to.map((a) => a.name || a.address).join(', ')}`
      : mail.from.name || mail.from.address || m.noSender;
  const activate = () => {
    if (selecting) onToggle?.(mail.id);
    else onOpen(mail.id);
  };
  const className = ['mw-mail-row', mail.read ? '' : 'is-unread', selecting ? 'is-selecting' : '', selected ? 'is-selected' : ''].filter(Boolean).join(' ');
  return (
    <div
      className={className}
      role={selecting ? 'checkbox' : 'button'}
      aria-checked={selecting ? selected : undefined}
      tabIndex={0}
      data-id={mail.id}
      onPointerDown={press.onPointerDown}
      onPointerMove={press.onPointerMove}
      onPointerUp={press.onPointerUp}
      onPointerCancel={press.onPointerCancel}
      onPointerLeave={press.onPointerLeave}
      onContextMenu={press.onContextMenu}
      onClick={() => {
        if (!press.consumeLongPress()) activate();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || (selecting && e.key === ' ')) {
          e.preventDefault();
          activate();
        }
      }}
    >
      {selecting ? (
        <span className={selected ? 'mw-check-box is-on' : 'mw-check-box'} aria-hidden="true">{selected && <CheckOutline />}</span>
      ) : (
        <span className="mw-mail-dot" aria-label={mail.read ? undefined : m.unread} />
      )}
      {/* The sender's photo or initial (issue 14); Sent and Drafts show the first recipient's. */}
      <Avatar className="mw-row-avatar" {...avatarOf(mail, outgoing)} />
      <div className="mw-mail-main">
        <div className="mw-mail-line">
          <span className="mw-mail-from">
            {/* The sender is an important contact (issue 6); Sent and Drafts rows name the recipients instead. */}
            {mail.fromImportant && !outgoing && (
              <StarFill className="mw-from-important" aria-label={m.importantSender} style={{ color: '#f0883e', fontSize: 13, marginRight: 4, verticalAlign: -1 }} />
            )}
            {renderText(sender)}
            {conv && <span className="mw-count">{conv.count}</span>}
          </span>
          <span className="mw-mail-time">{formatMailTime(mail.date, new Date(), timeWords(m))}</span>
        </div>
        <div className="mw-mail-line">
          <span className="mw-mail-subject">
            {mail.urgent && <span className="mw-urgent">{m.urgent}</span>}
            <RowStatus status={mail.status} sendAt={mail.sendAt} />
            {mail.subject ? renderText(mail.subject) : m.noSubject}
          </span>
          <span className="mw-mail-marks">
            {mail.hasAttach && <PaperclipIcon label={m.attachment} />}
            {mail.star && <StarFill className="mw-star" aria-label={m.starred} />}
          </span>
        </div>
        {(mail.tags.length > 0 || mail.snippet) && (
          <div className="mw-mail-line mw-mail-third">
            <TagChips names={mail.tags} max={2} />
            <span className="mw-mail-snippet">{renderText(mail.snippet)}</span>
          </div>
        )}
      </div>
    </div>
  );
}
