import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { useT } from '../i18n';
import { Page } from '../ui/page';
import { EmptyState } from '../ui/state-view';
import { TAB_ROUTES } from '../ui/tab-layout';

export default function NotFoundPage() {
  const m = useT();
  const navigate = useNavigate();
  return (
    <Page title={m.notFound} back={TAB_ROUTES.inbox}>
      <EmptyState text={m.notFound} />
      <div className="mw-padded">
        <Button block onClick={() => navigate(TAB_ROUTES.inbox, { replace: true })}>{m.goHome}</Button>
      </div>
    </Page>
  );
}
