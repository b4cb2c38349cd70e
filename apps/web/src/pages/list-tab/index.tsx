import { useEffect } from 'react';
import { refreshMbox } from '../../api/endpoints';
import { useT } from '../../i18n';
import { useSession } from '../../state/session';
import { FolderMailView } from '../../ui/folder-mail-view';
import { folderName } from '../../ui/folder-name';

/** The Inbox tab: the mail of the current folder (Inbox unless dir-list chose another). */
export default function ListTabPage() {
  const m = useT();
  const mid = useSession((s) => s.currentFolder);
  const mbox = useSession((s) => s.mbox);
  const folder = [...(mbox?.system ?? []), ...(mbox?.custom ?? [])].find((f) => f.mid === mid);
  const title = folderName(m, folder ?? { mid, name: m.folder0 });

  useEffect(() => {
    void refreshMbox();
  }, []);

  return (
    <FolderMailView
      tab
      mid={mid}
      title={m.tabInbox}
      navTitle={folder && folder.count > 0 ? `${title} (${folder.count})` : title}
    />
  );
}
