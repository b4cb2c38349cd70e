import { useEffect, useRef, useState } from 'react';
import { ActionSheet, Button, CalendarPicker, Dialog, PullToRefresh, SearchBar } from 'antd-mobile';
import { LoadMore } from '../../../ui/load-more';
import { CloseOutline, SearchOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DATE_PICKER_YEARS, highlightTerms, PAGE_SIZE_DEFAULT, SystemFolder, type MailSummary, type SearchResult } from '@mailwing/shared';
import { organiseApi } from '../../../api/organise';
import { useOrganiseT } from '../../../i18n/organise';
import { searchHistory, useSearchHistory } from '../../../state/search-history';
import { useSession } from '../../../state/session';
import { usePageLayer } from '../../../ui/page-layer';
import { formatDate } from '../../../ui/date-time';
import { HighlightText } from '../../../ui/highlight-text';
import { WRITE_ROUTE } from '../../../ui/compose-button';
import { folderTree } from '../../../ui/folder-list';
import { folderName } from '../../../ui/folder-name';
import { MailRow } from '../../../ui/mail-row';
import { Page } from '../../../ui/page';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { dayRange, readSearchForm, searchParams, writeSearchForm, type DateRange, type SearchForm } from './search-query';

/**
 * Mail search: a query with folder, date, attachment and unread filters,
 * results with the matches marked, and recent searches. The whole search
 * lives in the URL, so opening a hit and coming back shows the same results.
 */
export default function SearchMailPage() {
  const m = useOrganiseT();
  const [params, setParams] = useSearchParams();
  const form = readSearchForm(params);
  const owner = useSession((s) => s.currentEmailName);
  const [text, setText] = useState(form.q);

  useEffect(() => {
    setText(form.q);
  }, [form.q]);

  const update = (next: SearchForm) => setParams(writeSearchForm(next), { replace: true });
  const submit = (q: string) => {
    const query = q.trim();
    if (!query) return;
    searchHistory.add(owner, query);
    update({ ...form, q: query });
  };

  return (
    <Page
      title={m.titleSearch}
      back={TAB_ROUTES.inbox}
      header={
        <div className="mw-search-head">
          <form
            className="mw-search-row"
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              submit(text);
            }}
          >
            <SearchBar
              className="mw-search-bar"
              value={text}
              onChange={setText}
              onSearch={submit}
              onClear={() => update({ ...form, q: '' })}
              placeholder={m.searchPlaceholder}
              maxLength={200}
              autoFocus={!form.q}
            />
            <Button size="small" color="primary" type="submit" className="mw-search-go" disabled={!text.trim()}>{m.searchAction}</Button>
          </form>
          <SearchFilters form={form} onChange={update} />
        </div>
      }
    >
      {form.q ? (
        <Results key={writeSearchForm(form).toString()} form={form} />
      ) : (
        <History owner={owner} onPick={(q) => {
          setText(q);
          submit(q);
        }} />
      )}
    </Page>
  );
}

function SearchFilters({ form, onChange }: { form: SearchForm; onChange: (next: SearchForm) => void }) {
  const m = useOrganiseT();
  const mbox = useSession((s) => s.mbox);
  const [picking, setPicking] = useState(false);
  const [layer, openLayer] = usePageLayer();
  const folders = [...(mbox?.system ?? []), ...(mbox?.custom ?? [])];
  const folder = folders.find((f) => f.mid === form.mid);

  const chooseFolder = () => openLayer((control) => (
    <ActionSheet {...control} closeOnAction extra={m.searchIn} cancelText={m.cancel}
      actions={[
        { key: '', text: m.allFolders, bold: form.mid === '' },
        ...(mbox?.system ?? []).map((f) => ({ key: f.mid, text: folderName(m, f), bold: f.mid === form.mid })),
        ...folderTree(mbox?.custom ?? []).map(({ folder: f, depth }) => ({
          key: f.mid, text: `${'\u3000'.repeat(depth)}${f.name}`, bold: f.mid === form.mid,
        })),
      ]}
      onAction={(action) => onChange({ ...form, mid: String(action.key) })} />
  ));

  const chooseDate = () => {
    const ranges: DateRange[] = ['any', 'week', 'month', 'year', 'custom'];
    openLayer((control) => (
      <ActionSheet {...control} closeOnAction extra={m.searchDate} cancelText={m.cancel}
        actions={ranges.map((r) => ({ key: r, text: m.dateRange[r], bold: r === form.range }))}
        onAction={(action) => {
          if (action.key === 'custom') setPicking(true);
          else onChange({ ...form, range: action.key as DateRange, since: undefined, until: undefined });
        }} />
    ));
  };

  const now = new Date();
  const dateLabel = form.range === 'custom'
    ? `${form.since ? formatDate(form.since) : '…'} – ${form.until ? formatDate(form.until) : '…'}`
    : form.range === 'any' ? m.searchDate : m.dateRange[form.range];

  const chip = (key: string, on: boolean, label: string, onClick: () => void, arrow = false) => (
    <button type="button" data-filter={key} className={on ? 'mw-filter is-on' : 'mw-filter'} aria-pressed={on} onClick={onClick}>
      <span className="mw-filter-tag-name">{label}</span>
      {arrow && <span className="mw-filter-arrow" aria-hidden="true" />}
    </button>
  );

  return (
    <div className="mw-filters" role="toolbar" aria-label={m.filters}>
      {chip('folder', Boolean(folder), folder ? folderName(m, folder) : m.allFolders, chooseFolder, true)}
      {chip('date', form.range !== 'any', dateLabel, chooseDate, true)}
      {chip('attach', form.attach, m.quickFilter.attach, () => onChange({ ...form, attach: !form.attach }))}
      {chip('unread', form.unread, m.quickFilter.unread, () => onChange({ ...form, unread: !form.unread }))}
      {layer}
      <CalendarPicker
        visible={picking}
        selectionMode="range"
        title={m.dateRange.custom}
        confirmText={m.ok}
        min={new Date(now.getFullYear() - DATE_PICKER_YEARS, 0, 1)}
        max={now}
        onClose={() => setPicking(false)}
        onConfirm={(value) => {
          setPicking(false);
          if (value) onChange({ ...form, range: 'custom', ...dayRange(value[0], value[1]) });
        }}
      />
    </div>
  );
}

function History({ owner, onPick }: { owner: string; onPick: (q: string) => void }) {
  const m = useOrganiseT();
  const list = useSearchHistory(owner);
  if (list.length === 0) return <EmptyState icon={<SearchOutline />} text={m.searchEmpty} hint={m.searchEmptyHint} />;
  const clear = async () => {
    const sure = await Dialog.confirm({ content: m.clearHistoryConfirm, confirmText: m.clear, cancelText: m.cancel });
    if (sure) searchHistory.clear(owner);
  };
  return (
    <section className="mw-history" aria-label={m.recentSearches}>
      <div className="mw-history-head">
        <span>{m.recentSearches}</span>
        <a role="button" data-action="clear-history" onClick={() => void clear()}>{m.clear}</a>
      </div>
      <ul className="mw-history-list">
        {list.map((q) => (
          <li key={q}>
            <a role="button" className="mw-history-item" onClick={() => onPick(q)}>{q}</a>
            <a role="button" className="mw-history-remove" aria-label={m.removeNamed(q)} onClick={() => searchHistory.remove(owner, q)}>
              <CloseOutline />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Results({ form }: { form: SearchForm }) {
  const m = useOrganiseT();
  const navigate = useNavigate();
  const [items, setItems] = useState<MailSummary[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [failed, setFailed] = useState(false);
  const [found, setFound] = useState<{ total: number; more: boolean } | null>(null);
  const page = useRef(0);
  // Relative ranges are fixed when the search starts, so later pages agree with the first.
  const query = useRef(searchParams(form)).current;
  const terms = highlightTerms(form.q);
  const mark = (text: string) => <HighlightText text={text} terms={terms} />;

  const settle = (result: SearchResult, next: number) => {
    page.current = next;
    setFound({ total: result.total, more: result.more });
    setHasMore(result.list.length > 0 && next * PAGE_SIZE_DEFAULT < result.total);
  };

  const loadMore = async () => {
    const next = page.current + 1;
    let result: SearchResult;
    try {
      result = await organiseApi.search(query, next);
    } catch (error) {
      if (next === 1) {
        setFailed(true);
        setHasMore(false);
        return;
      }
      throw error;
    }
    setItems((prev) => {
      const seen = new Set(prev.map((x) => x.id));
      return next === 1 ? result.list : [...prev, ...result.list.filter((x) => !seen.has(x.id))];
    });
    settle(result, next);
  };

  const refresh = async () => {
    const result = await organiseApi.search(query, 1);
    setItems(result.list);
    setFailed(false);
    settle(result, 1);
  };

  const open = (mail: MailSummary) => {
    const id = encodeURIComponent(mail.id);
    navigate(mail.mid === SystemFolder.Drafts ? `${WRITE_ROUTE}?draft=${id}` : `/pages/read-mail/index?mid=${id}`);
  };

  if (failed && items.length === 0) {
    return <ErrorState onRetry={() => {
      page.current = 0;
      setFailed(false);
      setHasMore(true);
    }} />;
  }

  const none = !hasMore && items.length === 0;
  return (
    <PullToRefresh onRefresh={refresh} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
      {found && found.total > 0 && (
        <div className="mw-hint" role="status" data-total={found.total}>{found.more ? m.searchCountCapped(found.total) : m.searchCount(found.total)}</div>
      )}
      <div className="mw-mail-list mw-search-results">
        {items.map((mail) => <MailRow key={mail.id} mail={mail} onOpen={() => open(mail)} renderText={mark} />)}
      </div>
      {none ? (
        <EmptyState icon={<SearchOutline />} text={m.searchNone(form.q)} hint={m.searchNoneHint} />
      ) : (
        <LoadMore loadMore={loadMore} hasMore={hasMore} />
      )}
    </PullToRefresh>
  );
}
