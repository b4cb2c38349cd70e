import { useSearchParams } from 'react-router-dom';
import { SystemFolder } from '@mailwing/shared';
import { useT } from '../../i18n';
import { useSession } from '../../state/session';
import { FolderMailView } from '../../ui/folder-mail-view';
import { folderName } from '../../ui/folder-name';
import { TAB_ROUTES } from '../../ui/tab-layout';

/** The list of any folder (?mid=…), opened from My Mailbox. */
export default function ListPage() {
  const m = useT();
  const [params] = useSearchParams();
  const mid = params.get('mid') || SystemFolder.Inbox;
  const mbox = useSession((s) => s.mbox);
  const folder = [...(mbox?.system ?? []), ...(mbox?.custom ?? [])].find((f) => f.mid === mid);
  return <FolderMailView mid={mid} title={m.titleList} navTitle={folder ? folderName(m, folder) : m.titleList} back={TAB_ROUTES.mailbox} />;
}
