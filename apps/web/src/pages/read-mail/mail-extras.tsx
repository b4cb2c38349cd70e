import { Dialog, List } from 'antd-mobile';
import { ClockCircleOutline } from 'antd-mobile-icons';
import type { Delivery, Mail, RecallResult } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { useT } from '../../i18n';
import { formatDateTime } from '../../ui/date-time';
import { StatusLabel } from '../../ui/mail-status';

function deliveryNote(m: ReturnType<typeof useT>, d: Delivery): string | null {
  if (d.status === 'send_failed') return d.error || null;
  // A retry in progress: say what the other server answered last time.
  if (d.status === 'sending' && d.attempts > 1) return [m.attempts(d.attempts), d.error].filter(Boolean).join(' · ');
  return null;
}

/** Per-recipient outcome of a sent mail, with recall while any local copy can still be taken back. */
export function DeliveryList({ mail, onRecalled }: { mail: Mail; onRecalled: () => void }) {
  const m = useT();
  if (mail.deliveries.length === 0) return null;
  const recallable = mail.sendAt === null && mail.deliveries.some((d) => d.status !== 'recalled');

  const recall = async () => {
    const sure = await Dialog.confirm({ content: m.recallConfirm, confirmText: m.recall, cancelText: m.cancel });
    if (!sure) return;
    let result: RecallResult;
    try {
      result = await api.recall(mail.id);
    } catch {
      return; // the request layer has shown why
    }
    await Dialog.alert({
      title: m.recallResults,
      content: (
        <ul className="mw-recall-results">
          {result.results.map((r) => (
            <li key={r.address} data-result={r.result}>
              <span className="mw-recall-address">{r.address}</span>
              <span className={`mw-recall-result is-${r.result}`}>{m.recallResult[r.result]}</span>
            </li>
          ))}
        </ul>
      ),
      confirmText: m.ok,
    });
    onRecalled();
  };

  return (
    <List
      className="mw-deliveries"
      header={
        <div className="mw-list-header">
          <span>{m.deliveryStatus}</span>
          {recallable && <a role="button" className="mw-recall" onClick={() => void recall()}>{m.recall}</a>}
        </div>
      }
    >
      {mail.deliveries.map((d) => {
        const note = deliveryNote(m, d);
        return (
          <List.Item
            key={d.address}
            data-delivery={d.status}
            description={note && <span className={d.status === 'send_failed' ? 'mw-delivery-error' : undefined}>{note}</span>}
            extra={<StatusLabel status={d.status} />}
          >
            <span className="mw-attach-name">{d.address}</span>
          </List.Item>
        );
      })}
    </List>
  );
}

/** A timed send still waiting: when it goes, and cancel or edit it (both take it back to Drafts first). */
export function ScheduledBar({ sendAt, onCancel, onEdit }: { sendAt: number; onCancel: () => void; onEdit: () => void }) {
  const m = useT();
  return (
    <div className="mw-scheduled-bar" role="status">
      <ClockCircleOutline />
      <span className="mw-scheduled-text">{m.scheduledFor(formatDateTime(sendAt))}</span>
      <a role="button" onClick={onEdit}>{m.editTimed}</a>
      <a role="button" onClick={onCancel}>{m.cancelTimed}</a>
    </div>
  );
}
