import { useEffect, useState } from 'react';
import { DEBOUNCE_MS } from '@mailwing/shared';
import { session } from '../../state/session';
import { WRITE_ROUTE } from '../../ui/compose-button';

/** The value once it has stopped changing for spec §9's 500 ms (search boxes). */
export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

// Back to the page before, or to a fallback when opened directly: one rule for every page.
export { useGoBack } from '../../ui/go-back';

export const ADDRESS_ROUTES = {
  tab: '/pages/address/index',
  company: '/pages/address/index?view=company',
  contact: '/pages/address/contact',
  groups: '/pages/address/groups',
  group: '/pages/address/group',
  transfer: '/pages/address/transfer',
  rules: '/pages/address/rules',
  chooser: '/pages/address-choose/index',
  chooseMember: '/pages/modules/choose-member/index',
  memberDetail: '/pages/modules/member-detail/index',
  memberEdit: '/pages/modules/member-edit/index',
  searchMember: '/pages/modules/search-member/index',
} as const;

/** Starts a new mail to one person: the compose page takes them from the session (spec §3 selectedContacts). */
export function writeTo(navigate: (to: string) => void, name: string, email: string): void {
  session.setSelectedContacts([{ name, email }], 'to');
  navigate(WRITE_ROUTE);
}
