import { useEffect } from 'react';
import { Toast } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { SystemFolder } from '@mailwing/shared';
import { api, refreshMbox } from '../../../api/endpoints';
import { useOrganiseT } from '../../../i18n/organise';
import { useSession } from '../../../state/session';
import { FolderList } from '../../../ui/folder-list';
import { Page } from '../../../ui/page';
import { EmptyState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';

/** How many history steps lead back to the list the move started from (set by read-mail and batch mode). */
export interface ChooseDirState {
  backSteps?: number;
}

/** Move mail: ?ids=1,2,3&from=<folder> (or ?convs=… for conversations); one mail from the read page or a batch from a list. */
export default function ChooseDirPage() {
  const m = useOrganiseT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  // ?convs=… moves whole conversations (issue 14): their mail outside Sent goes.
  const convs = (params.get('convs') ?? '').split(',').filter(Boolean);
  const ids = convs.length > 0 ? convs : (params.get('ids') ?? '').split(',').filter(Boolean);
  const from = params.get('from');
  const mbox = useSession((s) => s.mbox);

  useEffect(() => {
    void refreshMbox();
  }, []);

  const move = async (to: string) => {
    try {
      await (convs.length > 0 ? api.conv('move', convs, { to, from: from ?? undefined }) : api.move(ids, to));
    } catch {
      return;
    }
    Toast.show({ content: ids.length > 1 ? m.movedMany(ids.length) : m.moved });
    void refreshMbox();
    const steps = (location.state as ChooseDirState | null)?.backSteps ?? 0;
    if (steps > 0 && location.key !== 'default') navigate(-steps);
    else navigate(TAB_ROUTES.inbox, { replace: true });
  };

  return (
    <Page
      title={m.titleChooseDir}
      back={TAB_ROUTES.inbox}
      right={ids.length > 0 && (
        <a className="mw-nav-action" role="button" data-action="new-folder" onClick={() => navigate('/pages/modules/create-dir/index')}>
          <AddOutline /> {m.newFolderShort}
        </a>
      )}
    >
      {ids.length === 0 ? (
        <EmptyState text={m.noMailSelected} />
      ) : (
        mbox && (
          <>
            <div className="mw-hint">{ids.length > 1 ? m.chooseTargetMany(ids.length) : m.chooseTarget}</div>
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
