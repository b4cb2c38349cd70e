import { Modal, Toast } from 'antd-mobile';
import { CheckCircleOutline } from 'antd-mobile-icons';
import { refreshMbox } from '../api/endpoints';
import { markFolderRead } from '../api/folder-read';
import { useLanguage } from '../i18n';
import { localPart, useSession } from '../state/session';
import { useSettings } from '../state/settings';
import { Avatar } from './avatar';
import './folder-strip.css';

// Its words are few and short, so they live here (like the announcement banner):
// this strip is a lazy chunk and must not pull a page catalogue with it.
const WORDS = {
  en: {
    current: 'Current mailbox',
    markAll: 'Mark all read',
    confirm: (n: number) => `Mark ${n === 1 ? 'the unread mail' : `all ${n} unread mails`} in this folder as read?`,
    done: 'All marked as read',
    cancel: 'Cancel',
  },
  zh: {
    current: '当前邮箱',
    markAll: '全部已读',
    confirm: (n: number) => `将本文件夹中的 ${n} 封未读邮件全部标为已读？`,
    done: '已全部标为已读',
    cancel: '取消',
  },
};

/**
 * Over a folder's mail (issue 15): on the Inbox tab, whose mailbox this is (avatar and
 * address, so Bob's inbox cannot be taken for Alice's after a switch); on every folder,
 * "mark all read" while it has unread mail (the API's mailop/read-all).
 */
export default function FolderStrip({ mid, tab, onAllRead }: { mid: string; tab: boolean; onAllRead: () => void }) {
  const w = WORDS[useLanguage()];
  const email = useSession((s) => s.currentEmailName);
  const mbox = useSession((s) => s.mbox);
  const settings = useSettings();
  const unread = [...(mbox?.system ?? []), ...(mbox?.custom ?? [])].find((f) => f.mid === mid)?.count ?? 0;
  if (!tab && unread === 0) return null;

  const markAll = async () => {
    const sure = await Modal.confirm({ content: w.confirm(unread), confirmText: w.markAll, cancelText: w.cancel });
    if (!sure) return;
    try {
      await markFolderRead(mid);
    } catch {
      return; // the request layer has said why
    }
    Toast.show({ icon: 'success', content: w.done });
    onAllRead();
    void refreshMbox();
  };

  const name = settings?.nickname || localPart(email);
  return (
    <div className="mw-folder-strip" data-testid="folder-strip">
      {tab && (
        <div className="mw-current-box" data-testid="current-mailbox" aria-label={`${w.current}: ${email}`}>
          <Avatar src={settings?.avatar} name={name} className="mw-current-avatar" />
          <span className="mw-current-text">
            <span className="mw-current-name">{name}</span>
            <span className="mw-current-email">{email}</span>
          </span>
        </div>
      )}
      {unread > 0 && (
        <button type="button" className="mw-mark-all" data-action="mark-all-read" onClick={() => void markAll()}>
          <CheckCircleOutline aria-hidden="true" /> {w.markAll}
        </button>
      )}
    </div>
  );
}
