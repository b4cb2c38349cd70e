import { useEffect, useState } from 'react';
import { PullToRefresh } from 'antd-mobile';
import type { TemplateShelf } from '@mailwing/shared';
import { templateApi } from '../../../api/mail-texts';
import { useMailTextsT } from '../../../i18n/mail-texts';
import { reloadSettings, useSettings } from '../../../state/settings';
import { Page } from '../../../ui/page';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { ShelfEditor } from '../../modules/setting-template/shelf-editor';

/** Company templates (issue 16), kept by the company admin; the server refuses everyone else anyway. */
export default function AdminTemplatePage() {
  const m = useMailTextsT();
  const settings = useSettings();
  const [shelf, setShelf] = useState<TemplateShelf | null>(null);
  const [failed, setFailed] = useState(false);
  const admin = settings?.role === 'admin';
  const load = async () => {
    try {
      setShelf(await templateApi.company.list());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    void reloadSettings();
  }, []);
  useEffect(() => {
    if (admin) void load();
  }, [admin]);
  return (
    <Page title={m.titleAdminTemplate} back={TAB_ROUTES.settings}>
      {settings && !admin ? <EmptyState text={m.tplAdminOnly} /> : failed && !shelf ? <ErrorState onRetry={() => void load()} /> : (
        <PullToRefresh onRefresh={load} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
          <div className="mw-texts-hint">{m.tplAdminNote}</div>
          {shelf && <ShelfEditor shelf={shelf} api={templateApi.company} onChanged={load} />}
        </PullToRefresh>
      )}
    </Page>
  );
}
