import { formatMailTime, type MailStatus } from '@mailwing/shared';
import { timeWords, useT } from '../i18n';

// Statuses worth a label in a list (spec §4); read, unread and a plain
// "sent" are the ordinary case and get none.
const LABELLED: ReadonlySet<MailStatus> = new Set([
  'replied', 'forwarded', 'replied_forwarded', 'sending', 'send_failed', 'recalled', 'audit_waiting', 'auditing', 'audit_rejected',
]);

type Tone = 'done' | 'busy' | 'bad' | 'off';

export function statusTone(status: MailStatus): Tone {
  if (status === 'send_failed' || status === 'audit_rejected') return 'bad';
  if (status === 'sending' || status === 'audit_waiting' || status === 'auditing') return 'busy';
  if (status === 'recalled' || status === 'unknown') return 'off';
  return 'done';
}

/** A small coloured label for a status. */
export function StatusLabel({ status }: { status: MailStatus }) {
  const m = useT();
  return <span className={`mw-status is-${statusTone(status)}`} data-status={status}>{m.mailStatus[status]}</span>;
}

/** The label a list row shows: "Scheduled <time>" for a timed send still waiting, else its status when notable. */
export function RowStatus({ status, sendAt }: { status: MailStatus; sendAt: number | null }) {
  const m = useT();
  if (sendAt !== null) {
    return <span className="mw-status is-busy" data-status="scheduled">{m.scheduled(formatMailTime(sendAt, new Date(), timeWords(m)))}</span>;
  }
  return LABELLED.has(status) ? <StatusLabel status={status} /> : null;
}
