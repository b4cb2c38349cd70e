import { lazy, Suspense } from 'react';
import { SpinLoading } from 'antd-mobile';
import { useT } from '../../i18n';
import { Page } from '../../ui/page';
import { AddressSegment, useAddressView } from './segment';
import './address.css';

// The tab itself is in the first-screen bundle; its two views (index bar,
// swipe rows, department tree) load on demand.
const ContactsView = lazy(() => import('./contacts-view'));
const CompanyView = lazy(() => import('./company-view'));

/** Address book tab (spec §2): personal contacts, or the company directory. */
export default function AddressPage() {
  const m = useT();
  const [view] = useAddressView();
  const fallback = (
    <Page title={m.tabAddress}>
      <AddressSegment />
      <div className="mw-center"><SpinLoading color="primary" /></div>
    </Page>
  );
  return <Suspense fallback={fallback}>{view === 'company' ? <CompanyView /> : <ContactsView />}</Suspense>;
}
