import { useEffect, useState } from 'react';
import { PullToRefresh } from 'antd-mobile';
import type { TemplateBook } from '@mailwing/shared';
import { templateApi } from '../../../api/mail-texts';
import { useMailTextsT } from '../../../i18n/mail-texts';
import { Page } from '../../../ui/page';
import { ErrorState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { ReadOnlyShelf, ShelfEditor } from './shelf-editor';

/** Settings › Templates (issue 16): the user's own, by category, and the company's to read. */
export default function SettingTemplatePage() {
  const m = useMailTextsT();
  const [book, setBook] = useState<TemplateBook | null>(null);
  const [failed, setFailed] = useState(false);
  const load = async () => {
    try {
      setBook(await templateApi.book());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    void load();
  }, []);
  return (
    <Page title={m.titleTemplate} back={TAB_ROUTES.settings}>
      {failed && !book ? <ErrorState onRetry={() => void load()} /> : (
        <PullToRefresh onRefresh={load} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
          <div className="mw-texts-group-title" role="heading" aria-level={2}>{m.tplMine}</div>
          {book && <ShelfEditor shelf={book.personal} api={templateApi.personal} onChanged={load} />}
          <div className="mw-texts-group-title" role="heading" aria-level={2}>{m.tplCompany}</div>
          <div className="mw-texts-hint">{m.tplCompanyNote}</div>
          {book && <ReadOnlyShelf shelf={book.company} />}
        </PullToRefresh>
      )}
    </Page>
  );
}
