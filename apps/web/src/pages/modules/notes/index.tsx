import { useEffect, useRef, useState } from 'react';
import { ActionSheet, Dialog, Input, List, PullToRefresh, SearchBar, Toast } from 'antd-mobile';
import { AddOutline, FileOutline, LockOutline, UnlockOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PAGE_SIZE_DEFAULT, type NoteFolderList, type NoteList, type NoteSummary } from '@mailwing/shared';
import { notesApi, type NoteQuery } from '../../../api/notes';
import { ApiError } from '../../../api/request';
import { useNotesT } from '../../../i18n/notes';
import { noteVault } from '../../../state/note-vault';
import { usePageLayer } from '../../../ui/page-layer';
import { formatDate } from '../../../ui/date-time';
import { LoadMore } from '../../../ui/load-more';
import { Page } from '../../../ui/page';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { useVaultTick } from './use-vault';
import './notes.css';

export const NOTE_EDIT_ROUTE = '/pages/modules/notes/edit';

/** Cloud notes: folders and tags to filter by, search, and the list (locked notes without their titles). */
export default function NotesPage() {
  const m = useNotesT();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const query: NoteQuery = { folder: params.get('folder') ?? undefined, tag: params.get('tag') ?? undefined, q: params.get('q') ?? undefined };
  const [text, setText] = useState(query.q ?? '');
  const [folders, setFolders] = useState<NoteFolderList>({ list: [], tags: [] });
  const [layer, openLayer] = usePageLayer();

  // Folders and tags change on other pages (a note's edit page makes folders): fetched on each visit and filter change.
  useEffect(() => {
    notesApi.folders().then(setFolders, () => undefined);
  }, [query.folder]);
  useEffect(() => setText(query.q ?? ''), [query.q]);

  const set = (key: keyof NoteQuery, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const pick = (title: string, actions: { key: string; text: string; bold?: boolean; danger?: boolean }[], key: keyof NoteQuery, other?: (k: string) => void) => openLayer((control) => (
    <ActionSheet {...control} closeOnAction extra={title} cancelText={m.cancel} actions={actions}
      onAction={(a) => {
        if (String(a.key).startsWith('!')) other?.(String(a.key));
        else set(key, String(a.key) || undefined);
      }} />
  ));
  const current = folders.list.find((f) => f.id === query.folder);
  const reloadFolders = () => notesApi.folders().then(setFolders, () => undefined);
  const manage = async (action: string) => {
    if (!current) return;
    try {
      if (action === '!rename') {
        let name = current.name;
        const ok = await Dialog.confirm({
          title: m.noteRenameFolder,
          content: <Input defaultValue={name} aria-label={m.noteFolderName} maxLength={40} autoFocus onChange={(v) => { name = v; }} />,
          confirmText: m.ok, cancelText: m.cancel,
        });
        if (ok && name.trim()) await notesApi.renameFolder(current.id, name.trim());
      } else if (await Dialog.confirm({ content: m.noteDeleteFolderConfirm, confirmText: m.delete, cancelText: m.cancel })) {
        await notesApi.deleteFolder(current.id);
        set('folder', undefined);
      }
    } catch (e) {
      Toast.show({ content: e instanceof ApiError ? (m.noteReason[e.reason ?? ''] ?? e.message) : m.noteFailed });
    }
    await reloadFolders();
  };
  const folderName = query.folder === 'none' ? m.noteNoFolder : current?.name;
  const chooseFolder = () => pick(m.noteFolder, [
    { key: '', text: m.noteAllFolders, bold: !query.folder },
    { key: 'none', text: m.noteNoFolder, bold: query.folder === 'none' },
    ...folders.list.map((f) => ({ key: f.id, text: `${f.name} (${f.count})`, bold: f.id === query.folder })),
    ...(current ? [{ key: '!rename', text: m.noteRenameFolder }, { key: '!delete', text: m.noteDeleteFolder, danger: true }] : []),
  ], 'folder', (k) => void manage(k));
  const chooseTag = () => pick(m.noteTags, [
    { key: '', text: m.noteAllTags, bold: !query.tag },
    ...folders.tags.map((t) => ({ key: t.name, text: `${t.name} (${t.count})`, bold: t.name === query.tag })),
  ], 'tag');

  const chip = (key: string, on: boolean, label: string, onClick: () => void) => (
    <button type="button" data-filter={key} className={on ? 'mw-filter is-on' : 'mw-filter'} aria-pressed={on} onClick={onClick}>
      <span className="mw-filter-tag-name">{label}</span>
      <span className="mw-filter-arrow" aria-hidden="true" />
    </button>
  );

  return (
    <Page
      title={m.notesTitle}
      back={TAB_ROUTES.mailbox}
      right={<button type="button" className="mw-cn-nav-btn" aria-label={m.noteNew} data-action="new-note" onClick={() => navigate(NOTE_EDIT_ROUTE)}><AddOutline /></button>}
      header={
        <div className="mw-search-head">
          <form className="mw-search-row" role="search" onSubmit={(e) => { e.preventDefault(); set('q', text.trim()); }}>
            <SearchBar className="mw-search-bar" value={text} onChange={setText} onSearch={(v) => set('q', v.trim())} onClear={() => set('q', undefined)} placeholder={m.noteSearch} maxLength={200} />
          </form>
          <div className="mw-filters mw-cn-filters" role="toolbar">
            {chip('folder', Boolean(query.folder), folderName ?? m.noteAllFolders, chooseFolder)}
            {chip('tag', Boolean(query.tag), query.tag ?? m.noteAllTags, chooseTag)}
          </div>
        </div>
      }
    >
      <Notes key={`${query.folder}|${query.tag}|${query.q}`} query={query} onOpen={(id) => navigate(`${NOTE_EDIT_ROUTE}?id=${encodeURIComponent(id)}`)} />
      {layer}
    </Page>
  );
}

function Notes({ query, onOpen }: { query: NoteQuery; onOpen: (id: string) => void }) {
  const m = useNotesT();
  const [items, setItems] = useState<NoteSummary[]>([]);
  const [hasMore, setHasMore] = useState(true);
  const [failed, setFailed] = useState(false);
  const page = useRef(0);
  useVaultTick();
  // The server cannot search a locked note; the ones open on this device are searched here.
  const openHits = query.q ? noteVault.search(query.q) : [];

  const settle = (r: NoteList, next: number) => {
    page.current = next;
    setHasMore(r.list.length > 0 && next * PAGE_SIZE_DEFAULT < r.total);
  };
  const loadMore = async () => {
    const next = page.current + 1;
    let r: NoteList;
    try {
      r = await notesApi.list(query, next);
    } catch (error) {
      if (next === 1) {
        setFailed(true);
        setHasMore(false);
        return;
      }
      throw error;
    }
    setItems((prev) => (next === 1 ? r.list : [...prev, ...r.list.filter((x) => !prev.some((p) => p.id === x.id))]));
    settle(r, next);
  };
  const refresh = async () => {
    const r = await notesApi.list(query, 1);
    setItems(r.list);
    setFailed(false);
    settle(r, 1);
  };

  if (failed && items.length === 0) return <ErrorState onRetry={() => { page.current = 0; setFailed(false); setHasMore(true); }} />;
  const none = !hasMore && items.length === 0 && openHits.length === 0;
  return (
    <PullToRefresh onRefresh={refresh} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
      {openHits.length > 0 && (
        <List header={m.noteOpenHits} data-group="open-hits">
          {openHits.map((n) => (
            <List.Item key={n.id} className="mw-cn-row" data-note={n.id} prefix={<UnlockOutline className="mw-cn-lock" />} description={<div className="mw-cn-snippet">{n.text.slice(0, 120)}</div>} onClick={() => onOpen(n.id)}>
              <div className="mw-cn-title">{n.title || m.noteUntitled}</div>
            </List.Item>
          ))}
        </List>
      )}
      {none ? (
        query.q ? <EmptyState icon={<FileOutline />} text={m.noteNoHits} hint={m.noteNoHitsHint} /> : <EmptyState icon={<FileOutline />} text={m.noteEmpty} hint={m.noteEmptyHint} />
      ) : (
        <List className="mw-cn-list">
          {items.map((n) => <NoteRow key={n.id} note={n} onOpen={() => onOpen(n.id)} />)}
        </List>
      )}
      <LoadMore loadMore={loadMore} hasMore={hasMore} />
    </PullToRefresh>
  );
}

function NoteRow({ note, onOpen }: { note: NoteSummary; onOpen: () => void }) {
  const m = useNotesT();
  return (
    <List.Item
      className="mw-cn-row"
      data-note={note.id}
      data-locked={note.locked || undefined}
      onClick={onOpen}
      extra={<span className="mw-cn-meta">{formatDate(note.updated)}</span>}
      description={
        <>
          {note.snippet && <div className="mw-cn-snippet">{note.snippet}</div>}
          {note.tags.length > 0 && <div>{note.tags.map((t) => <span key={t} className="mw-cn-tag">{t}</span>)}</div>}
        </>
      }
    >
      <div className={note.locked ? 'mw-cn-title is-locked' : 'mw-cn-title'}>
        {note.locked && <LockOutline className="mw-cn-lock" aria-hidden="true" />}
        {note.locked ? m.noteLockedTitle : note.title || m.noteUntitled}
      </div>
    </List.Item>
  );
}
