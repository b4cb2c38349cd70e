import { useEffect, useState } from 'react';
import { Badge, List, PullToRefresh, SwipeAction } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { badgeText, type BoundMailbox } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { boundMailboxes } from '../../api/account';
import { useT } from '../../i18n';
import { localPart, session, useSession, type MailboxEntry, sameAddress } from '../../state/session';
import { Avatar } from '../../ui/avatar';
import { FolderList } from '../../ui/folder-list';
import { useLongPress } from '../../ui/long-press';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';
import { loadAccountPages } from '../setting/load-account-pages';

const BIND_ROUTE = '/pages/mbox/bind';


interface RowProps {
  box: MailboxEntry;
  info: BoundMailbox | undefined;
  current: boolean;
  onPick: () => void;
  onUnbind: () => void;
}

function MailboxRow({ box, info, current, onPick, onUnbind }: RowProps) {
  const m = useT();
  const press = useLongPress(onUnbind);
  const name = info?.nickname || box.name;
  const unread = info?.unread ?? 0;
  // List.Item passes no pointer handlers on, so the long press listens on a wrapper.
  const { consumeLongPress, ...handlers } = press;
  return (
    <SwipeAction rightActions={[{ key: 'unbind', text: m.mbUnbind, color: 'danger', onClick: onUnbind }]}>
      <div {...handlers}>
        <List.Item
          data-email={box.email}
          data-current={current || undefined}
          className={current ? 'mw-box is-current' : 'mw-box'}
          prefix={<Avatar name={name} address={box.email} />}
          description={box.email}
          extra={(
            <span className="mw-box-extra">
              {unread > 0 && <Badge content={badgeText(unread)} />}
              {current && <span className="mw-box-current">{m.mbCurrent}</span>}
            </span>
          )}
          arrowIcon={false}
          onClick={() => {
            if (!consumeLongPress()) onPick();
          }}
        >
          {name}
        </List.Item>
      </div>
    </SwipeAction>
  );
}

/** My Mailbox tab: the bound mailboxes (tap one to switch to it) above the current mailbox's folders. */
export default function MboxListPage() {
  const m = useT();
  const navigate = useNavigate();
  const mbox = useSession((s) => s.mbox);
  const mailList = useSession((s) => s.mailList);
  const currentEmail = useSession((s) => s.currentEmailName);
  const [bound, setBound] = useState<BoundMailbox[]>([]);
  const [failed, setFailed] = useState(false);

  const loadFolders = async (loading: boolean) => {
    try {
      session.setMbox(await api.mboxIndex(loading));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };

  // The server names the mailboxes and their unread counts; the session keeps
  // the token of each. When the list cannot load, the one held here stays.
  const loadBound = async () => {
    try {
      const list = await boundMailboxes();
      session.setMailList(list);
      setBound(list);
    } catch {
      // Quiet: the list we hold is still right to show.
    }
  };

  useEffect(() => {
    void loadFolders(!session.get().mbox);
    void loadBound();
    // The switch and unbind flows load with the tab, after its first paint.
    void loadAccountPages();
  }, []);

  const pick = async (box: MailboxEntry) => {
    if (await (await loadAccountPages()).pickMailbox(box.email)) void loadBound();
  };

  const unbind = async (box: MailboxEntry) => {
    if (await (await loadAccountPages()).unbindFlow(box.email)) setBound((list) => list.filter((b) => !sameAddress(b.email, box.email)));
  };

  // Until the server answers (or after logging in once), the current mailbox is still listed.
  const boxes = mailList.length > 0 ? mailList : [{ email: currentEmail, name: localPart(currentEmail) }];
  return (
    <Page title={m.tabMailbox}>
      <PullToRefresh
        onRefresh={() => Promise.all([loadFolders(false), loadBound()]).then(() => undefined)}
        pullingText={m.pullToRefresh}
        canReleaseText={m.releaseToRefresh}
        refreshingText={m.refreshing}
        completeText={m.refreshed}
      >
        <List header={m.boundMailbox} className="mw-boxes">
          {boxes.map((box) => (
            <MailboxRow
              key={box.email}
              box={box}
              info={bound.find((b) => sameAddress(b.email, box.email))}
              current={sameAddress(box.email, currentEmail)}
              onPick={() => void pick(box)}
              onUnbind={() => void unbind(box)}
            />
          ))}
          <List.Item data-row="add-mailbox" prefix={<span className="mw-avatar is-add" aria-hidden="true">+</span>} onClick={() => navigate(BIND_ROUTE)}>
            {m.mbAdd}
          </List.Item>
        </List>
        {mbox ? (
          <FolderList
            mbox={mbox}
            description={(f) => m.unreadTotal(f.count, f.total)}
            onPick={(f) => navigate(`/pages/list/index?mid=${encodeURIComponent(f.mid)}`)}
          />
        ) : (
          failed && <ErrorState onRetry={() => void loadFolders(true)} />
        )}
        {/* Issue 18's apps: one group, after the folders that this tab is mostly for. */}
        <List header={m.apps} className="mw-gap mw-apps" data-group="apps">
          <List.Item data-row="app-calendar" onClick={() => navigate('/pages/modules/calendar/index')}>{m.appCalendar}</List.Item>
          <List.Item data-row="app-disk" onClick={() => navigate('/pages/modules/disk/index')}>{m.appDisk}</List.Item>
          <List.Item data-row="notes" onClick={() => navigate('/pages/modules/notes/index')}>{m.appNotes}</List.Item>
        </List>
      </PullToRefresh>
    </Page>
  );
}
