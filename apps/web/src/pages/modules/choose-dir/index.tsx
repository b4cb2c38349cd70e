import { useEffect } from 'react';
import { Toast } from 'antd-mobile';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { SystemFolder } from '@mailwing/shared';
import { api, refreshMbox } from '../../../api/endpoints';
import { useT } from '../../../i18n';
import { useSession } from '../../../state/session';
import { FolderList } from '../../../ui/folder-list';
import { Page } from '../../../ui/page';
import { EmptyState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';

/** How many history steps lead back to the list the move started from (set by read-mail). */
export interface ChooseDirState {
  backSteps?: number;
}

/** Move mail: ?ids=1,2,3&from=<folder>. */
export default function ChooseDirPage() {
  const m = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean);
  const from = params.get('from');
  const mbox = useSession((s) => s.mbox);

  useEffect(() => {
    void refreshMbox();
  }, []);

  const move = async (to: string) => {
    try {
      await api.move(ids, to);
    } catch {
      return;
    }
    Toast.show({ content: m.moved });
    void refreshMbox();
    const steps = (location.state as ChooseDirState | null)?.backSteps ?? 0;
    if (steps > 0 && location.key !== 'default') navigate(-steps);
    else navigate(TAB_ROUTES.inbox, { replace: true });
  };

  return (
    <Page title={m.titleChooseDir} back={TAB_ROUTES.inbox}>
      {ids.length === 0 ? (
        <EmptyState text={m.noMailSelected} />
      ) : (
        mbox && (
          <>
            <div className="mw-hint">{m.chooseTarget}</div>
            <FolderList
              mbox={mbox}
              extra={(f) => (f.mid === from ? <span className="mw-count">{m.currentFolder}</span> : null)}
              // Drafts only hold mail the user writes; the server decides the rest.
              disabled={(f) => f.mid === from || f.mid === SystemFolder.Drafts}
              onPick={(f) => void move(f.mid)}
            />
          </>
        )
      )}
    </Page>
  );
}
