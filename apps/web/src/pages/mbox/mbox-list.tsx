import { useEffect, useState } from 'react';
import { PullToRefresh } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { api } from '../../api/endpoints';
import { useT } from '../../i18n';
import { session, useSession } from '../../state/session';
import { AccountCard } from '../../ui/account-card';
import { FolderList } from '../../ui/folder-list';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';

/** My Mailbox tab: the bound mailbox and its folders with unread and total counts. */
export default function MboxListPage() {
  const m = useT();
  const navigate = useNavigate();
  const mbox = useSession((s) => s.mbox);
  const [failed, setFailed] = useState(false);

  const load = async (loading: boolean) => {
    try {
      session.setMbox(await api.mboxIndex(loading));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };

  useEffect(() => {
    void load(!session.get().mbox);
  }, []);

  return (
    <Page title={m.tabMailbox}>
      <PullToRefresh
        onRefresh={() => load(false)}
        pullingText={m.pullToRefresh}
        canReleaseText={m.releaseToRefresh}
        refreshingText={m.refreshing}
        completeText={m.refreshed}
      >
        <AccountCard label={m.boundMailbox} />
        {mbox ? (
          <FolderList
            mbox={mbox}
            description={(f) => m.unreadTotal(f.count, f.total)}
            onPick={(f) => navigate(`/pages/list/index?mid=${encodeURIComponent(f.mid)}`)}
          />
        ) : (
          failed && <ErrorState onRetry={() => void load(true)} />
        )}
      </PullToRefresh>
    </Page>
  );
}
