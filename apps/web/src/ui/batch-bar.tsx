import type { ReactNode } from 'react';
import {
  DeleteOutline, ExclamationShieldOutline, FolderOutline, MailOpenOutline, MailOutline, StarFill, StarOutline, TagOutline,
} from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { SystemFolder, type MailSummary } from '@mailwing/shared';
import { api } from '../api/endpoints';
import { useT } from '../i18n';
import { CHOOSE_DIR_ROUTE, convIds, TAG_LIST_ROUTE, type MailPickState } from './folder-mail-view';

/** What the list lends the bar: its action runner and row updates. */
export interface BatchOps {
  /** Runs a call; on success toasts `done`, runs `after` and refreshes the counts. */
  act: (work: () => Promise<unknown>, done: string, after: () => void) => Promise<boolean>;
  patch: (ids: readonly string[], change: Partial<MailSummary>) => void;
  drop: (ids: readonly string[]) => void;
  exit: () => void;
  /** Deletes for good after a confirm; resolves false when cancelled or refused. */
  purge: (ids: readonly string[]) => Promise<boolean>;
}

interface Props {
  /** The folder shown: in Deleted delete is for good, in Spam junk becomes delete for good. */
  mid: string;
  chosen: readonly MailSummary[];
  ops: BatchOps;
}

/**
 * The action bar of batch mode, in place of the compose button. A lazy chunk:
 * it loads the first time batch mode opens.
 */
export default function BatchBar({ mid, chosen, ops }: Props) {
  const m = useT();
  const navigate = useNavigate();
  const ids = chosen.map((x) => x.id);
  const none = ids.length === 0;
  const allStarred = chosen.length > 0 && chosen.every((x) => x.star);
  const { act, patch, drop, exit, purge } = ops;
  const list = encodeURIComponent(ids.join(','));

  // Conversation rows act on their whole conversations (issue 14).
  const convs = convIds(chosen);
  const from = { from: mid };
  const read = (flag: boolean) => void act(() => (convs ? api.conv('read', convs, { ...from, read: flag }) : api.markRead(ids, flag)), flag ? m.markedRead : m.markedUnread, () => {
    patch(ids, { read: flag });
    exit();
  });
  const star = (flag: boolean) => void act(() => (convs ? api.conv('star', convs, { ...from, star: flag }) : api.star(ids, flag)), flag ? m.starredDone : m.unstarredDone, () => {
    patch(ids, { star: flag });
    exit();
  });
  const move = () => {
    const state: MailPickState = { backSteps: 1 };
    const what = convs ? `convs=${encodeURIComponent(convs.join(','))}` : `ids=${list}`;
    navigate(`${CHOOSE_DIR_ROUTE}?${what}&from=${encodeURIComponent(mid)}`, { state });
  };
  const tag = () => {
    const state: MailPickState = { backSteps: 1, mailTags: chosen.map((x) => x.tags) };
    navigate(`${TAG_LIST_ROUTE}?ids=${list}`, { state });
  };
  const forGood = () => void purge(ids).then((ok) => ok && exit());
  const remove = () => void act(() => (convs ? api.conv('delete', convs, from) : api.remove(ids)), m.deletedMany(ids.length), () => {
    drop(ids);
    exit();
  });
  const junk = () => void act(() => (convs ? api.conv('junk', convs, from) : api.junk(ids)), m.reportedJunk, () => {
    drop(ids);
    exit();
  });

  const button = (key: string, icon: ReactNode, label: string, onClick: () => void, danger = false) => (
    <button type="button" key={key} data-batch={key} disabled={none} className={danger ? 'is-danger' : undefined} onClick={onClick}>
      {icon}
      <span>{label}</span>
    </button>
  );
  return (
    <div className="mw-actions mw-batch-bar" role="toolbar" aria-label={m.selectedCount(ids.length)}>
      {button('read', <MailOpenOutline />, m.readShort, () => read(true))}
      {button('unread', <MailOutline />, m.unreadShort, () => read(false))}
      {button('star', allStarred ? <StarFill className="mw-star" /> : <StarOutline />, allStarred ? m.unstar : m.star, () => star(!allStarred))}
      {button('move', <FolderOutline />, m.move, move)}
      {button('tag', <TagOutline />, m.tagShort, tag)}
      {mid === SystemFolder.Deleted
        ? button('purge', <DeleteOutline />, m.deleteForever, forGood, true)
        : button('delete', <DeleteOutline />, m.delete, remove)}
      {mid === SystemFolder.Spam
        ? button('purge', <DeleteOutline />, m.deleteForever, forGood, true)
        : button('junk', <ExclamationShieldOutline />, m.junkShort, junk)}
    </div>
  );
}
