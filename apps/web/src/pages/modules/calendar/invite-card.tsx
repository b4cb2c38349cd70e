import { useEffect, useState } from 'react';
import { Button, Toast } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import type { CalendarInvite, InviteAnswer } from '@mailwing/shared';
import { calendarApi } from '../../../api/calendar';
import type { ApiError } from '../../../api/request';
import { useCalendarT } from '../../../i18n/calendar';
import './invite-card.css';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai';

/**
 * The invitation a mail carries, on the mail's read page (where the invitation is read;
 * the calendar then holds the answered event). Loaded only for mails with a
 * text/calendar part, so it stays out of the first screen.
 */
export default function InviteCard({ mailId }: { mailId: string }) {
  const t = useCalendarT();
  const navigate = useNavigate();
  const [invite, setInvite] = useState<CalendarInvite | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    calendarApi.invite(mailId, zone()).then(setInvite, () => setInvite(null));
  }, [mailId]);
  if (!invite) return null;

  const answer = async (a: InviteAnswer) => {
    setBusy(true);
    try {
      setInvite(await calendarApi.answerInvite(mailId, a, zone()));
      Toast.show({ content: t.inviteSent });
    } catch (err) {
      const reason = (err as ApiError).reason;
      if (reason && t.reasons[reason]) Toast.show({ content: t.reasons[reason] });
    } finally {
      setBusy(false);
    }
  };
  const when = `${invite.start.replace('T', ' ')}${invite.allDay ? '' : ` – ${invite.end.slice(11)}`} (${invite.tz})`;
  const who = invite.organizer.name || invite.organizer.email;
  const status = invite.method === 'CANCEL' ? t.inviteCancelled
    : invite.method === 'REPLY' ? `${t.inviteReply}: ${invite.attendees.map((a) => `${a.name || a.email} · ${t.partstat[a.partstat] ?? a.partstat}`).join(', ')}`
      : invite.own ? t.inviteOwn
        : invite.outdated ? t.inviteOutdated
          : invite.answer ? t.inviteAnswered(t.partstat[invite.answer] ?? invite.answer) : null;
  const canAnswer = invite.method === 'REQUEST' && !invite.own && !invite.outdated;

  return (
    <section className="mw-invite" data-invite={invite.method}>
      <div className="mw-invite-head">{t.inviteTitle}</div>
      <div className="mw-invite-title">{invite.title}</div>
      <div className="mw-invite-line">{when}</div>
      <div className="mw-invite-line">{t.invitedBy(who)} · {t.invitePeople(invite.attendees.length)}</div>
      {status && <div className="mw-invite-status" data-answer={invite.answer ?? ''}>{status}</div>}
      {canAnswer && (
        <div className="mw-invite-actions">
          <Button size="middle" color={invite.answer === 'ACCEPTED' ? 'primary' : 'default'} disabled={busy} data-action="accept" onClick={() => void answer('accepted')}>{t.inviteAccept}</Button>
          <Button size="middle" color={invite.answer === 'TENTATIVE' ? 'primary' : 'default'} disabled={busy} data-action="tentative" onClick={() => void answer('tentative')}>{t.inviteTentative}</Button>
          <Button size="middle" color={invite.answer === 'DECLINED' ? 'danger' : 'default'} disabled={busy} data-action="decline" onClick={() => void answer('declined')}>{t.inviteDecline}</Button>
        </div>
      )}
      {invite.eventId && (
        <a className="mw-invite-open" onClick={() => navigate(`/pages/modules/calendar/edit?id=${encodeURIComponent(invite.eventId!)}`)}>{t.inviteOpen}</a>
      )}
    </section>
  );
}
