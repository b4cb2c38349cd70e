import { useSearchParams } from 'react-router-dom';
import { useT } from '../../i18n';

export type AddressView = 'contacts' | 'company';

/** Which half of the address book tab is shown; kept in the route (?view=company) so back and reload keep it. */
export function useAddressView(): [AddressView, (view: AddressView) => void] {
  const [params, setParams] = useSearchParams();
  const view: AddressView = params.get('view') === 'company' ? 'company' : 'contacts';
  return [view, (next) => setParams(next === 'company' ? { view: next } : {}, { replace: true })];
}

/** The "Contacts / Company" switch under the nav bar. */
export function AddressSegment() {
  const m = useT();
  const [view, setView] = useAddressView();
  const tab = (key: AddressView, label: string) => (
    <button type="button" role="tab" aria-selected={view === key} data-view={key} onClick={() => setView(key)}>{label}</button>
  );
  return (
    <div className="mw-ab-seg" role="tablist">
      {tab('contacts', m.contacts)}
      {tab('company', m.company)}
    </div>
  );
}
