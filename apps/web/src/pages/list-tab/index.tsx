import { useEffect } from 'react';
import { SystemFolder } from '@mailwing/shared';
import { refreshMbox } from '../../api/endpoints';
import { useT } from '../../i18n';
import { session, useSession } from '../../state/session';
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

  // The folder was deleted (here or on another device): back to the Inbox.
  const gone = Boolean(mbox) && !folder;
  useEffect(() => {
    if (gone) session.setCurrentFolder(SystemFolder.Inbox);
  }, [gone]);

  return (
    <FolderMailView
      tab
      mid={mid}
      title={m.tabInbox}
      navTitle={folder && folder.count > 0 ? `${title} (${folder.count})` : title}
    />
  );
}
