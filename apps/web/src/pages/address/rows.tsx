import type { ReactNode } from 'react';
import { CheckOutline } from 'antd-mobile-icons';
import { Avatar } from '../../ui/avatar';

/** A person's round badge: the one Avatar (ui/avatar.tsx), so a sender has the same colour here as in the mail list. */
export function Initial({ name, email }: { name: string; email?: string }) {
  return <Avatar className="mw-ab-avatar" name={name} address={email} />;
}

interface PersonRowProps {
  name: string;
  email: string;
  /** A second line under the address (job title, department). */
  meta?: string;
  /** Marks shown after the name (a star). */
  marks?: ReactNode;
  extra?: ReactNode;
  /** When set, the row is a checkbox in a chooser. */
  checked?: boolean;
  /** Depth in a tree (departments): indents the row. */
  indent?: number;
  onClick?: () => void;
}

/** One person (contact or member) in a list: avatar, name, address, and a tick in choosers. */
export function PersonRow({ name, email, meta, marks, extra, checked, indent = 0, onClick }: PersonRowProps) {
  const choosing = checked !== undefined;
  return (
    <div
      className={`mw-ab-row${checked ? ' is-checked' : ''}`}
      role={choosing ? 'checkbox' : 'button'}
      aria-checked={choosing ? checked : undefined}
      tabIndex={0}
      data-email={email || undefined}
      data-name={name}
      style={indent > 0 ? { paddingLeft: 16 + indent * 20 } : undefined}
      onClick={onClick}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || (choosing && e.key === ' ')) {
          e.preventDefault();
          onClick?.();
        }
      }}
    >
      {choosing && <span className={checked ? 'mw-ab-check is-on' : 'mw-ab-check'} aria-hidden="true">{checked && <CheckOutline />}</span>}
      <Initial name={name} email={email} />
      <span className="mw-ab-row-main">
        <span className="mw-ab-row-name">{name || email}{marks}</span>
        {email && <span className="mw-ab-row-sub">{email}</span>}
        {meta && <span className="mw-ab-row-sub">{meta}</span>}
      </span>
      {extra && <span className="mw-ab-row-extra">{extra}</span>}
    </div>
  );
}

/** "Job title · department", leaving out what is empty. */
export function joinMeta(...parts: Array<string | undefined>): string {
  return parts.filter((p) => p && p.trim()).join(' · ');
}
