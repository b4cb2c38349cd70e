import { Button } from 'antd-mobile';
import { CheckCircleFill, ClockCircleFill } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useT } from '../../../i18n';
import { WRITE_ROUTE } from '../../../ui/compose-button';
import { formatDateTime } from '../../../ui/date-time';
import { Page } from '../../../ui/page';
import { TAB_ROUTES } from '../../../ui/tab-layout';

/** After sending (?at=<unix seconds> for a timed send): what happened, and where to go next. */
export function SentResult({ title }: { title: string }) {
  const m = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const at = Number(params.get('at'));
  const timed = Number.isFinite(at) && at > 0;
  return (
    <Page title={title} back={TAB_ROUTES.inbox}>
      <div className="mw-result" role="status">
        <div className={timed ? 'mw-result-icon is-timed' : 'mw-result-icon'}>{timed ? <ClockCircleFill /> : <CheckCircleFill />}</div>
        <div className="mw-result-title">{title}</div>
        <div className="mw-result-text">{timed ? m.scheduledFor(formatDateTime(at)) : m.sentHint}</div>
        <div className="mw-result-actions">
          <Button block color="primary" onClick={() => navigate(TAB_ROUTES.inbox, { replace: true })}>{m.backToInbox}</Button>
          <Button block color="primary" fill="outline" onClick={() => navigate(WRITE_ROUTE, { replace: true })}>{m.writeAnother}</Button>
        </div>
      </div>
    </Page>
  );
}
