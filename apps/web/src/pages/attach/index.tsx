import { useEffect, useState } from 'react';
import { SpinLoading } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import type { Mail } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { useAttachT } from '../../i18n/attach';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState } from '../../ui/state-view';
import { TAB_ROUTES } from '../../ui/tab-layout';
import { AttachmentList } from '../read-mail/attachment-list';

/** A mail's attachments on their own page (spec: /pages/attach/index?mid=): thumbnails, preview, save. */
export default function AttachIndexPage() {
  const m = useAttachT();
  const [params] = useSearchParams();
  const mid = params.get('mid') ?? '';
  const [mail, setMail] = useState<Mail | null>(null);
  const [failed, setFailed] = useState(false);
  const load = () => {
    setFailed(false);
    api.readMail(mid, false).then(setMail, () => setFailed(true));
  };
  useEffect(load, [mid]);
  const files = mail?.attachments.filter((a) => !a.inline) ?? [];
  return (
    <Page title={m.titleAttachList} back={TAB_ROUTES.inbox}>
      {failed ? <ErrorState onRetry={load} />
        : !mail ? <div className="mw-center"><SpinLoading color="primary" /></div>
          : files.length === 0 ? <EmptyState text={m.noAttachments} />
            : <AttachmentList attachments={mail.attachments} />}
    </Page>
  );
}
