import { useEffect } from 'react';
import { CheckOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { badgeText } from '@mailwing/shared';
import { refreshMbox } from '../../../api/endpoints';
import { useT } from '../../../i18n';
import { session, useSession } from '../../../state/session';
import { FolderList } from '../../../ui/folder-list';
import { Page } from '../../../ui/page';
import { TAB_ROUTES } from '../../../ui/tab-layout';

/** Folders: picks the folder the Inbox tab shows. */
export default function DirListPage() {
  const m = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const mbox = useSession((s) => s.mbox);
  const current = useSession((s) => s.currentFolder);

  useEffect(() => {
    void refreshMbox();
  }, []);

  return (
    <Page title={m.titleDirList} back={TAB_ROUTES.inbox}>
      {mbox && (
        <FolderList
          mbox={mbox}
          description={(f) => m.total(f.total)}
          extra={(f) =>
            f.mid === current ? <CheckOutline className="mw-check" /> : <span className="mw-count">{badgeText(f.count)}</span>
          }
          onPick={(f) => {
            session.setCurrentFolder(f.mid);
            if (location.key === 'default') navigate(TAB_ROUTES.inbox, { replace: true });
            else navigate(-1);
          }}
        />
      )}
    </Page>
  );
}
