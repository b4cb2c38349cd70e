import { useRef, useState } from 'react';
import { DotLoading, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { PAGE_SIZE_DEFAULT, SystemFolder, type MailList, type MailSummary } from '@mailwing/shared';
import { api, refreshMbox } from '../api/endpoints';
import { useT } from '../i18n';
import { WRITE_ROUTE } from './compose-button';
import { MailRow } from './mail-row';
import { EmptyState, ErrorState } from './state-view';

function hasMorePages(result: MailList, page: number): boolean {
  return result.list.length > 0 && page * result.size < result.total;
}

/**
 * The mail list of one folder with pull-to-refresh and paging (DESIGN.md: every
 * list). Render it with key={mid} so a folder change starts a fresh list.
 */
export function MailListView({ mid }: { mid: string }) {
  const m = useT();
  const navigate = useNavigate();
  const [items, setItems] = useState<MailSummary[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [failed, setFailed] = useState(false);
  const page = useRef(0);

  const loadMore = async () => {
    const next = page.current + 1;
    let result: MailList;
    try {
      result = await api.mailList(mid, next, PAGE_SIZE_DEFAULT);
    } catch (error) {
      // A failed first page becomes the error state; a later one lets
      // InfiniteScroll offer its own retry.
      if (next === 1) {
        setFailed(true);
        setHasMore(false);
        return;
      }
      throw error;
    }
    page.current = next;
    // New mail shifts later pages down by a row or two, so drop repeats.
    setItems((prev) => {
      const seen = new Set(prev.map((x) => x.id));
      return next === 1 ? result.list : [...prev, ...result.list.filter((x) => !seen.has(x.id))];
    });
    setHasMore(hasMorePages(result, next));
  };

  const refresh = async () => {
    const result = await api.mailList(mid, 1, PAGE_SIZE_DEFAULT);
    page.current = 1;
    setItems(result.list);
    setFailed(false);
    setHasMore(hasMorePages(result, 1));
    await refreshMbox();
  };

  const retry = () => {
    page.current = 0;
    setFailed(false);
    setHasMore(true);
  };

  // A draft opens where it is written, not where mail is read.
  const open = (mail: MailSummary) => {
    const id = encodeURIComponent(mail.id);
    navigate(mail.mid === SystemFolder.Drafts ? `${WRITE_ROUTE}?draft=${id}` : `/pages/read-mail/index?mid=${id}`);
  };

  if (failed && items.length === 0) return <ErrorState onRetry={retry} />;

  const empty = !hasMore && items.length === 0;
  return (
    <PullToRefresh
      onRefresh={refresh}
      pullingText={m.pullToRefresh}
      canReleaseText={m.releaseToRefresh}
      refreshingText={m.refreshing}
      completeText={m.refreshed}
    >
      <div className="mw-mail-list">
        {items.map((mail) => (
          <MailRow key={mail.id} mail={mail} onOpen={() => open(mail)} />
        ))}
      </div>
      {empty ? (
        <EmptyState text={m.emptyFolder} />
      ) : (
        <InfiniteScroll loadMore={loadMore} hasMore={hasMore}>
          {(more, loadFailed, retryLoad) => (
            <span className="mw-load-more">
              {loadFailed ? (
                <a onClick={() => void retryLoad()}>{m.loadMore}</a>
              ) : more ? (
                <>{m.loadingMore}<DotLoading /></>
              ) : (
                m.noMore
              )}
            </span>
          )}
        </InfiniteScroll>
      )}
    </PullToRefresh>
  );
}
