import type { ReactNode } from 'react';
import { Button } from 'antd-mobile';
import { ExclamationCircleOutline, MailOpenOutline } from 'antd-mobile-icons';
import { useT } from '../i18n';

/** The empty state of a list or page. */
export function EmptyState({ text, hint, icon }: { text: string; hint?: string; icon?: ReactNode }) {
  return (
    <div className="mw-state" role="status">
      <div className="mw-state-icon">{icon ?? <MailOpenOutline />}</div>
      <div className="mw-state-text">{text}</div>
      {hint && <div className="mw-state-hint">{hint}</div>}
    </div>
  );
}

/** A failed load with a retry button. */
export function ErrorState({ text, onRetry }: { text?: string; onRetry: () => void }) {
  const m = useT();
  return (
    <div className="mw-state" role="alert">
      <div className="mw-state-icon mw-state-error"><ExclamationCircleOutline /></div>
      <div className="mw-state-text">{text ?? m.loadFailed}</div>
      <Button size="small" color="primary" fill="outline" onClick={onRetry}>{m.retry}</Button>
    </div>
  );
}
