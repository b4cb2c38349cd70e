import { useWestT } from '../../../i18n/west';
import { Page } from '../../../ui/page';

export default function WestAgreePage() {
  const m = useWestT();
  return (
    <Page title={m.westAgreeTitle} back="/pages/west/register/index">
      <div className="mw-west"><p className="mw-west-text">{m.westAgreementText}</p></div>
    </Page>
  );
}
