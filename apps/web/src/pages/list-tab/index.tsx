import { useEffect } from 'react';
import { FolderOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { refreshMbox } from '../../api/endpoints';
import { useT } from '../../i18n';
import { useSession } from '../../state/session';
import { folderName } from '../../ui/folder-name';
import { MailListView } from '../../ui/mail-list-view';
import { ComposeButton } from '../../ui/compose-button';
import { Page } from '../../ui/page';

/** The Inbox tab: the mail of the current folder (Inbox unless dir-list chose another). */
export default function ListTabPage() {
  const m = useT();
  const navigate = useNavigate();
  const mid = useSession((s) => s.currentFolder);
  const mbox = useSession((s) => s.mbox);
  const folder = [...(mbox?.system ?? []), ...(mbox?.custom ?? [])].find((f) => f.mid === mid);
  const title = folderName(m, folder ?? { mid, name: m.folder0 });

  useEffect(() => {
    void refreshMbox();
  }, []);

  return (
    <Page
      title={m.tabInbox}
      navTitle={folder && folder.count > 0 ? `${title} (${folder.count})` : title}
      footer={<ComposeButton />}
      right={
        <a className="mw-nav-action" onClick={() => navigate('/pages/modules/dir-list/index')}>
          <FolderOutline /> {m.folders}
        </a>
      }
    >
      <MailListView key={mid} mid={mid} />
    </Page>
  );
}
