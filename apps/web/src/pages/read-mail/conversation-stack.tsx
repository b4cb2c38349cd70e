import { useEffect, useMemo, useState } from 'react';
import { SpinLoading } from 'antd-mobile';
import { formatMailTime, type ConversationMail, type Mail } from '@mailwing/shared';
import { readStacked } from '../../api/conversation';
import { timeWords } from '../../i18n';
import { useReadWriteT } from '../../i18n/read-write';
import { MailBody } from './mail-body';
import { newPartOfHtml, splitQuotedText } from './quote-fold';
import './conversation-stack.css';

/**
 * A mail's body with the quoted part folded behind a toggle (issue 14). The HTML goes to
 * the same sandboxed frame as always (mail-body.tsx); folding only shortens it.
 */
export function QuotedBody({ mail, fold }: { mail: Pick<Mail, 'html' | 'text' | 'subject'>; fold: boolean }) {
  const m = useReadWriteT();
  const [whole, setWhole] = useState(false);
  const part = useMemo(() => {
    if (!fold) return null;
    if (mail.html) return newPartOfHtml(mail.html);
    const t = splitQuotedText(mail.text);
    return t.quoted ? t.main : null;
  }, [fold, mail.html, mail.text]);
  const shown = whole || part === null ? null : part;
  const title = mail.subject || m.noSubject;
  return (
    <>
      {mail.html ? <MailBody html={shown ?? mail.html} title={title} /> : <div className="mw-read-text">{shown ?? mail.text}</div>}
      {part !== null && (
        <button type="button" className="mw-quote-toggle" aria-expanded={whole} onClick={() => setWhole(!whole)}>
          <span aria-hidden="true">···</span> {whole ? m.hideQuoted : m.showQuoted}
        </button>
      )}
    </>
  );
}

interface StackProps {
  items: ConversationMail[];
  /** Opens one mail on its own page, with every single-mail action. */
  onOpen: (id: string) => void;
}

/**
 * Other mails of the conversation, stacked (issue 14): each collapsed to its sender, time
 * and snippet; unread ones start open. Opening one reads it (which marks it read).
 */
export function ConversationStack({ items, onOpen }: StackProps) {
  const m = useReadWriteT();
  const [open, setOpen] = useState<Set<string>>(() => new Set(items.filter((x) => !x.read).map((x) => x.id)));
  const [bodies, setBodies] = useState<Record<string, Mail | 'failed'>>({});

  const load = (id: string) => {
    if (bodies[id] && bodies[id] !== 'failed') return;
    readStacked(id).then((mail) => setBodies((b) => ({ ...b, [id]: mail })), () => setBodies((b) => ({ ...b, [id]: 'failed' })));
  };
  // Unread mails start open, so their bodies load at once.
  useEffect(() => {
    for (const id of open) load(id);
  }, []);

  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else {
      next.add(id);
      load(id);
    }
    setOpen(next);
  };

  if (items.length === 0) return null;
  return (
    <div className="mw-stack">
      {items.map((x) => {
        const expanded = open.has(x.id);
        const body = bodies[x.id];
        return (
          <section key={x.id} className={expanded ? 'mw-stack-card is-open' : 'mw-stack-card'} data-stack-id={x.id}>
            <div className="mw-stack-head" role="button" tabIndex={0} aria-expanded={expanded} onClick={() => toggle(x.id)}
              onKeyDown={(e) => { if (e.key === 'Enter') toggle(x.id); }}>
              <span className="mw-avatar" aria-hidden="true">{(x.from.name || x.from.address).slice(0, 1).toUpperCase()}</span>
              <span className="mw-stack-main">
                <span className="mw-stack-line">
                  <span className={x.read ? 'mw-stack-from' : 'mw-stack-from is-unread'}>{x.from.name || x.from.address || m.noSender}</span>
                  <span className="mw-stack-time">{formatMailTime(x.date, new Date(), timeWords(m))}</span>
                </span>
                {!expanded && <span className="mw-stack-snippet">{x.snippet || x.subject || m.noSubject}</span>}
              </span>
            </div>
            {expanded && (
              <div className="mw-stack-body">
                {body === undefined ? <div className="mw-center"><SpinLoading color="primary" /></div>
                  : body === 'failed' ? <div className="mw-stack-snippet">{m.loadFailed}</div>
                    : <QuotedBody mail={body} fold />}
                <button type="button" className="mw-stack-open" onClick={() => onOpen(x.id)}>{m.openThisMail}</button>
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}
