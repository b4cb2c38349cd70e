import { lazy, Suspense, useEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import { Modal, PullToRefresh, SwipeAction, Toast } from 'antd-mobile';
import { LoadMore } from './load-more';
import { FolderOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SystemFolder, type MailList, type MailSummary, type QuickFilter } from '@mailwing/shared';
import { api, refreshMbox, type ListFilters } from '../api/endpoints';
import { affectsFolder, onLiveEvent } from '../api/live-events';
import { useT } from '../i18n';
import { allChosen, NO_SELECTION, selectionReducer } from '../state/selection';
import { firstScreenShown } from '../state/first-screen';
import { reloadTags } from '../state/tags';
import { ComposeButton, WRITE_ROUTE } from './compose-button';
import { FilterBar, QUICK_FILTERS } from './filter-bar';
import { SearchIcon } from './icons';
import { MailRow } from './mail-row';
import { Page } from './page';
import { EmptyState, ErrorState } from './state-view';

// Batch mode's bar (and its icons) loads when batch mode is first entered.
const BatchBar = lazy(() => import('./batch-bar'));
// Unread announcements over the inbox: its own small chunk, fetched after the inbox shows (first-screen budget).
const AnnouncementBanner = lazy(() => import('../pages/modules/announcements/banner'));
// The current mailbox and "mark all read" over the list (issue 15): its own chunk, after the inbox shows.
const FolderStrip = lazy(() => import('./folder-strip'));

export const SEARCH_ROUTE = '/pages/modules/search-mail/index';
export const TAG_LIST_ROUTE = '/pages/modules/tag-list/index';
export const CHOOSE_DIR_ROUTE = '/pages/modules/choose-dir/index';

/** What tag-list and choose-dir get in the history state when opened for chosen mail. */
export interface MailPickState {
  /** History steps back to where the pick started. */
  backSteps?: number;
  /** The chosen mails' tag names, one array per mail, so tag-list can show what they carry. */
  mailTags?: string[][];
}

interface ViewProps {
  mid: string;
  /** The spec's page title (document title). */
  title: string;
  navTitle: ReactNode;
  /** The inbox tab: no back arrow, "Edit" on the left and Folders on the right. */
  tab?: boolean;
  back?: string;
}

/**
 * A folder's mail with quick filters, batch mode, swipe actions, live updates,
 * pull-to-refresh and paging: the Inbox tab and /pages/list/index. The filters
 * live in the URL, so they survive opening a mail and coming back.
 */
export function FolderMailView(props: ViewProps) {
  const [params, setParams] = useSearchParams();
  const filter = QUICK_FILTERS.find((f) => f === params.get('filter'));
  const rawTag = params.get('tag') ?? '';
  const tag = /^\d{1,15}$/.test(rawTag) ? rawTag : undefined;
  const setFilters = (next: ListFilters) => {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next.filter) p.set('filter', next.filter);
      else p.delete('filter');
      if (next.tag) p.set('tag', next.tag);
      else p.delete('tag');
      return p;
    }, { replace: true });
  };
  // A new folder or filter starts a fresh list (and leaves batch mode).
  return <FolderMailPage key={`${props.mid}|${filter ?? ''}|${tag ?? ''}`} {...props} filter={filter} tag={tag} setFilters={setFilters} />;
}

/** The conversation ids of rows that are all conversations, else undefined (mail rows act on mails). */
export function convIds(rows: readonly MailSummary[]): string[] | undefined {
  return rows.length > 0 && rows.every((x) => x.conv) ? rows.map((x) => x.conv!.id) : undefined;
}

function hasMorePages(result: MailList, page: number, size = PAGE_SIZE_DEFAULT): boolean {
  return result.list.length > 0 && page * size < result.total;
}

interface PageProps extends ViewProps {
  filter?: QuickFilter;
  tag?: string;
  setFilters: (next: ListFilters) => void;
}

function FolderMailPage({ mid, title, navTitle, tab = false, back, filter, tag, setFilters }: PageProps) {
  const m = useT();
  const navigate = useNavigate();
  const [items, setItems] = useState<MailSummary[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [failed, setFailed] = useState(false);
  const [selection, dispatch] = useReducer(selectionReducer, NO_SELECTION);
  const page = useRef(0);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const filters: ListFilters = { filter, tag };
  const filtered = Boolean(filter || tag);

  // One page at a time: the first is asked for on mount, and InfiniteScroll's own call
  // (once the footer is in view) waits for it rather than asking for page 2 too early.
  const loading = useRef<Promise<void> | null>(null);
  const loadMore = () => (loading.current ??= loadNext().finally(() => {
    loading.current = null;
  }));
  // Issue 15: the first page is asked for at once, not when InfiniteScroll first measures
  // its footer (a layout and a throttle later); on the Inbox its answer is usually here
  // already (api/early.ts).
  useEffect(() => {
    if (page.current === 0) void loadMore().catch(() => undefined);
  }, []);

  const loadNext = async () => {
    const next = page.current + 1;
    let result: MailList;
    try {
      result = await api.mailList(mid, next, PAGE_SIZE_DEFAULT, filters);
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
    const result = await api.mailList(mid, 1, PAGE_SIZE_DEFAULT, filters);
    page.current = 1;
    setItems(result.list);
    setFailed(false);
    setHasMore(hasMorePages(result, 1));
    await Promise.all([refreshMbox(), reloadTags()]);
  };

  // Live updates: reload what is loaded (up to the API's page limit) in one
  // call, without a spinner; one reload at a time, with one more queued.
  const reloading = useRef(false);
  const again = useRef(false);
  const reloadLoaded = async () => {
    if (page.current === 0) return; // the first page is still on its way
    if (reloading.current) {
      again.current = true;
      return;
    }
    reloading.current = true;
    try {
      const loaded = itemsRef.current.length;
      const size = Math.min(PAGE_SIZE_MAX, Math.max(1, Math.ceil(loaded / PAGE_SIZE_DEFAULT)) * PAGE_SIZE_DEFAULT);
      const result = await api.mailListQuiet(mid, 1, size, filters);
      const pages = size / PAGE_SIZE_DEFAULT;
      setItems((prev) => {
        const head = new Set(result.list.map((x) => x.id));
        // Beyond the API's page limit, keep what was loaded after the reloaded head.
        const tail = prev.length > size ? prev.slice(size).filter((x) => !head.has(x.id)) : [];
        return [...result.list, ...tail];
      });
      if (loaded <= size) {
        page.current = pages;
        setHasMore(hasMorePages(result, 1, size));
      }
      setFailed(false);
    } catch {
      // Quiet: the next event or a pull will try again.
    } finally {
      reloading.current = false;
      if (again.current) {
        again.current = false;
        void reloadLoaded();
      }
    }
  };

  // The first page on screen (or its error state) lets the rest of the app start (state/first-screen.ts).
  const settled = items.length > 0 || failed || !hasMore;
  useEffect(() => {
    if (settled) firstScreenShown();
  }, [settled]);

  useEffect(() => onLiveEvent((event) => {
    if (affectsFolder(event, mid)) void reloadLoaded();
  }), [mid]);

  // Rows that left the list (deleted, moved, refreshed away) leave the selection.
  useEffect(() => {
    if (selection.active) dispatch({ type: 'retain', ids: items.map((x) => x.id) });
  }, [items]);

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

  const patch = (ids: readonly string[], change: Partial<MailSummary>) => {
    const set = new Set(ids);
    setItems((prev) => prev.map((x) => (set.has(x.id) ? { ...x, ...change } : x)));
  };
  const drop = (ids: readonly string[]) => {
    const set = new Set(ids);
    setItems((prev) => prev.filter((x) => !set.has(x.id)));
  };

  /** Runs a mail action; on success shows `done`, updates the rows and the counts. */
  const act = async (work: () => Promise<unknown>, done: string, after: () => void): Promise<boolean> => {
    try {
      await work();
    } catch {
      return false; // the request layer has shown why
    }
    Toast.show({ content: done });
    after();
    void refreshMbox();
    return true;
  };

  const purge = async (ids: readonly string[]) => {
    // Modal rather than Dialog: the request layer already loads it, so the first screen stays small.
    const sure = await Modal.confirm({ content: m.purgeManyConfirm(ids.length), confirmText: m.deleteForever, cancelText: m.cancel });
    if (!sure) return false;
    const convs = convIds(itemsRef.current.filter((x) => ids.includes(x.id)));
    return act(() => (convs ? api.conv('purge', convs, { from: mid }) : api.purge(ids)), m.purgedMany(ids.length), () => drop(ids));
  };

  // A conversation row acts on its whole conversation (issue 14); a mail row on its mail.
  const swipe = (mail: MailSummary, key: 'read' | 'delete') => {
    const conv = convIds([mail]);
    if (key === 'read') {
      void act(() => (conv ? api.conv('read', conv, { read: !mail.read, from: mid }) : api.markRead([mail.id], !mail.read)),
        mail.read ? m.markedUnread : m.markedRead, () => patch([mail.id], { read: !mail.read }));
    } else if (key === 'delete') {
      if (mid === SystemFolder.Deleted) void purge([mail.id]);
      else void act(() => (conv ? api.conv('delete', conv, { from: mid }) : api.remove([mail.id])), m.deleted, () => drop([mail.id]));
    }
  };

  const chosen = items.filter((x) => selection.ids.includes(x.id));
  const chosenIds = chosen.map((x) => x.id);
  const exit = () => dispatch({ type: 'exit' });

  const loadedIds = items.map((x) => x.id);
  const everything = allChosen(selection, loadedIds);
  const search = (
    <a className="mw-nav-icon" role="button" aria-label={m.titleSearch} onClick={() => navigate(SEARCH_ROUTE)}>
      <SearchIcon />
    </a>
  );
  const edit = (
    <a className="mw-nav-action" role="button" data-action="edit" onClick={() => dispatch({ type: 'enter' })}>{m.edit}</a>
  );

  const nav = selection.active
    ? {
      back: false as const,
      left: (
        <a className="mw-nav-action" role="button" data-action="select-all"
          onClick={() => dispatch(everything ? { type: 'clear' } : { type: 'selectAll', ids: loadedIds })}>
          {everything ? m.deselectAll : m.selectAll}
        </a>
      ),
      navTitle: <span role="status" className="mw-selected-count">{m.selectedCount(chosenIds.length)}</span>,
      right: <a className="mw-nav-action" role="button" data-action="done" onClick={exit}>{m.cancel}</a>,
    }
    : tab
      ? {
        back: false as const,
        left: edit,
        navTitle,
        right: (
          <span className="mw-nav-group">
            {search}
            <a className="mw-nav-action" onClick={() => navigate('/pages/modules/dir-list/index')}>
              <FolderOutline /> {m.folders}
            </a>
          </span>
        ),
      }
      : { back: (back ?? false) as string | false, left: undefined, navTitle, right: <span className="mw-nav-group">{search}{edit}</span> };

  const empty = !hasMore && items.length === 0;
  return (
    <Page
      title={title}
      navTitle={nav.navTitle}
      back={nav.back}
      left={nav.left}
      right={nav.right}
      header={(
        <>
          {tab && <Suspense fallback={null}><AnnouncementBanner /></Suspense>}
          {!selection.active && (
            <Suspense fallback={null}>
              <FolderStrip mid={mid} tab={tab} onAllRead={() => setItems((prev) => prev.map((x) => (x.read ? x : { ...x, read: true })))} />
            </Suspense>
          )}
          <FilterBar filter={filter} tag={tag} onChange={setFilters} disabled={selection.active} />
        </>
      )}
      footer={selection.active
        ? (
          <Suspense fallback={<div className="mw-actions mw-batch-bar" />}>
            <BatchBar mid={mid} chosen={chosen} ops={{ act, patch, drop, exit, purge }} />
          </Suspense>
        )
        : <ComposeButton />}
    >
      {failed && items.length === 0 ? (
        <ErrorState onRetry={retry} />
      ) : (
        <PullToRefresh
          onRefresh={refresh}
          disabled={selection.active}
          pullingText={m.pullToRefresh}
          canReleaseText={m.releaseToRefresh}
          refreshingText={m.refreshing}
          completeText={m.refreshed}
        >
          <div className={selection.active ? 'mw-mail-list is-selecting' : 'mw-mail-list'}>
            {items.map((mail) => {
              const row = (
                <MailRow
                  mail={mail}
                  onOpen={() => open(mail)}
                  selecting={selection.active}
                  selected={selection.ids.includes(mail.id)}
                  onToggle={(id) => dispatch({ type: 'toggle', id })}
                  onLongPress={(id) => dispatch({ type: 'enter', id })}
                />
              );
              if (selection.active) return <div key={mail.id}>{row}</div>;
              return (
                <SwipeAction
                  key={mail.id}
                  rightActions={[
                    { key: 'read', text: mail.read ? m.unreadShort : m.readShort, color: 'primary' },
                    { key: 'delete', text: mid === SystemFolder.Deleted ? m.deleteForever : m.delete, color: 'danger' },
                  ]}
                  onAction={(action) => swipe(mail, action.key === 'read' ? 'read' : 'delete')}
                >
                  {row}
                </SwipeAction>
              );
            })}
          </div>
          {empty ? (
            filtered ? (
              <EmptyState text={m.noFilterMatch} hint={m.noFilterMatchHint} />
            ) : (
              <EmptyState text={m.emptyFolder} />
            )
          ) : (
            <LoadMore loadMore={loadMore} hasMore={hasMore} />
          )}
        </PullToRefresh>
      )}
    </Page>
  );
}
