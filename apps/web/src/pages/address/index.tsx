import { lazy, Suspense } from 'react';
import { SpinLoading } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import { useT } from '../../i18n';
import { Page } from '../../ui/page';

// The tab itself is in the first-screen bundle, so it is only this switch;
// its two views (segment, index bar, swipe rows, department tree) and their
// strings load on demand.
const ContactsView = lazy(() => import('./contacts-view'));
const CompanyView = lazy(() => import('./company-view'));

/** Address book tab (spec §2): personal contacts, or the company directory (?view=company). */
export default function AddressPage() {
  const m = useT();
  const [params] = useSearchParams();
  const fallback = (
    <Page title={m.tabAddress}>
      <div className="mw-center"><SpinLoading color="primary" /></div>
    </Page>
  );
  return <Suspense fallback={fallback}>{params.get('view') === 'company' ? <CompanyView /> : <ContactsView />}</Suspense>;
}
