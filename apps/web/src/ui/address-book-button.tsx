import { AddCircleOutline } from 'antd-mobile-icons';
import { useT } from '../i18n';
import './address-book-button.css';

/** The address book chooser (spec §2), opened from compose with ?type=to|cc|bcc. */
export const CHOOSER_ROUTE = '/pages/address-choose/index';

/** The "+" at the end of a recipient row that opens the address book chooser. */
export function AddressBookButton({ field, label, onOpen }: { field: 'to' | 'cc' | 'bcc'; label: string; onOpen: () => void }) {
  const m = useT();
  return (
    <button type="button" className="mw-addr-book" data-choose={field} aria-label={`${m.tabAddress}: ${label}`} onClick={onOpen}>
      <AddCircleOutline />
    </button>
  );
}
