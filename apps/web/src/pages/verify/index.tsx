import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { CheckShieldOutline } from 'antd-mobile-icons';
import { useT } from '../../i18n';
import { Page } from '../../ui/page';
import { EmptyState } from '../../ui/state-view';

/** Second security verification belongs to a later issue; say so plainly. */
export default function VerifyPage() {
  const m = useT();
  const navigate = useNavigate();
  return (
    <Page title={m.titleVerify} back="/pages/login/index">
      <EmptyState icon={<CheckShieldOutline />} text={m.verifyNotAvailable} />
      <div className="mw-padded">
        <Button block onClick={() => navigate('/pages/login/index', { replace: true })}>{m.backToLogin}</Button>
      </div>
    </Page>
  );
}
