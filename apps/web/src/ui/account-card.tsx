import type { ReactNode } from 'react';
import { useSession } from '../state/session';

/** The bound mailbox (current account), shown at the top of several tabs. */
export function AccountCard({ label, name, children }: { label: string; name?: string; children?: ReactNode }) {
  const email = useSession((s) => s.nowEmail?.email || s.currentEmailName);
  const initial = (name || email).slice(0, 1).toUpperCase();
  return (
    <div className="mw-account">
      <div className="mw-avatar" aria-hidden="true">{initial}</div>
      <div className="mw-account-main">
        <div className="mw-account-label">{label}</div>
        {name && <div className="mw-account-name">{name}</div>}
        <div className="mw-account-email">{email}</div>
        {children}
      </div>
    </div>
  );
}
