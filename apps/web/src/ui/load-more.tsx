import { DotLoading, InfiniteScroll } from 'antd-mobile';
import { useT } from '../i18n';

/** The paging footer every list has (DESIGN.md): "load more" to retry, "loading", "no more". */
export function LoadMore({ loadMore, hasMore }: { loadMore: () => Promise<void>; hasMore: boolean }) {
  const m = useT();
  return (
    <InfiniteScroll loadMore={loadMore} hasMore={hasMore}>
      {(more, failed, retry) => (
        <span className="mw-load-more">
          {failed ? <a onClick={() => void retry()}>{m.loadMore}</a> : more ? <>{m.loadingMore}<DotLoading /></> : m.noMore}
        </span>
      )}
    </InfiniteScroll>
  );
}
