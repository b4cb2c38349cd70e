import { lazy, Suspense, useEffect, useState } from 'react';
import { ActionSheet, Dialog, Input, List, SpinLoading, Toast } from 'antd-mobile';
import { MoreOutline, UnlockOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { lockNote, sealNote, type Note, type NoteFolder } from '@mailwing/shared';
import { notesApi, type NoteBody } from '../../../api/notes';
import { ApiError } from '../../../api/request';
import { useNotesT, type NotesMessages } from '../../../i18n/notes';
import { noteVault } from '../../../state/note-vault';
import { Page } from '../../../ui/page';
import { usePageLayer } from '../../../ui/page-layer';
import { ErrorState } from '../../../ui/state-view';
import { LockScreen } from './lock-screen';
import { noteImage } from './note-image';
import { askNewPassword } from './password-dialog';
import { useVaultTick } from './use-vault';
import './notes.css';

const RichEditor = lazy(() => import('../../write/rich-editor'));
const LIST_ROUTE = '/pages/modules/notes/index';

interface Draft { title: string; html: string; text: string; folder: string; tags: string }

const why = (m: NotesMessages, e: unknown) =>
  e instanceof ApiError ? (m.noteReason[e.reason ?? ''] ?? e.message) : m.noteFailed;

/** One note: write or read it, file it, and set, use or remove its reading password. */
export default function NoteEditPage() {
  const m = useNotesT();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const [note, setNote] = useState<Note | null>(null);
  const [failed, setFailed] = useState(false);
  const [draft, setDraft] = useState<Draft | null>(id ? null : { title: '', html: '', text: '', folder: '', tags: '' });
  const [folders, setFolders] = useState<NoteFolder[]>([]);
  const [busy, setBusy] = useState(false);
  const [layer, openLayer] = usePageLayer();
  useVaultTick();
  const open = id ? noteVault.get(id) : undefined;
  const closed = Boolean(note?.locked && !open);

  useEffect(() => {
    notesApi.folders().then((f) => setFolders(f.list), () => undefined);
    if (!id) return;
    notesApi.get(id).then(setNote, () => setFailed(true));
  }, [id]);

  // The draft follows what can be read: the server's plain note, or the open locked one.
  useEffect(() => {
    if (!note) return;
    if (!note.locked) setDraft({ title: note.title ?? '', html: note.html ?? '', text: note.snippet, folder: note.folder ?? '', tags: note.tags.join(', ') });
    else if (open) setDraft((d) => d ?? { title: open.title, html: open.html, text: open.text, folder: note.folder ?? '', tags: note.tags.join(', ') });
    else setDraft(null);
  }, [note, open]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      Toast.show({ content: why(m, e) });
    } finally {
      setBusy(false);
    }
  };

  const saved = (n: Note, plain?: { title: string; html: string; text: string }) => {
    setNote(n);
    if (!id) setParams({ id: n.id }, { replace: true });
    const entry = noteVault.get(n.id);
    if (n.locked && entry && plain) noteVault.put(n.id, { ...entry, ...plain });
    Toast.show({ content: m.noteSaved });
  };

  const meta = (d: Draft) => ({ folder: d.folder, tags: d.tags });
  const save = () => run(async () => {
    if (!draft) return;
    if (note?.locked && open) {
      const sealed = await sealNote(open.key, { title: draft.title, html: draft.html });
      const body: NoteBody = { locked: true, ...sealed, salt: open.salt, iterations: open.iterations, kdf: open.kdf, newProof: open.proof, ...meta(draft) };
      saved(await notesApi.update(note.id, body, open.proof), draft);
      return;
    }
    const body: NoteBody = { locked: false, title: draft.title, html: draft.html, ...meta(draft) };
    saved(note ? await notesApi.update(note.id, body) : await notesApi.create(body));
  });

  const setPassword = async () => {
    if (!draft) return;
    const password = await askNewPassword(m);
    if (!password) return;
    await run(async () => {
      const l = await lockNote(password, { title: draft.title, html: draft.html });
      const body: NoteBody = { locked: true, cipher: l.cipher, iv: l.iv, salt: l.salt, iterations: l.iterations, kdf: l.kdf, newProof: l.proof, ...meta(draft) };
      const n = note ? await notesApi.update(note.id, body) : await notesApi.create(body);
      noteVault.put(n.id, { key: l.key, proof: l.proof, salt: l.salt, iterations: l.iterations, kdf: l.kdf, title: draft.title, html: draft.html, text: draft.text });
      saved(n);
    });
  };

  const removePassword = () => run(async () => {
    if (!draft || !note || !open) return;
    const n = await notesApi.update(note.id, { locked: false, title: draft.title, html: draft.html, ...meta(draft) }, open.proof);
    noteVault.lock(note.id);
    saved(n);
  });

  const moveTo = async (folder: string) => {
    setDraft((d) => (d ? { ...d, folder } : d));
    if (note && !closed) await run(async () => setNote(await notesApi.update(note.id, { folder }, open?.proof)));
  };
  const newFolder = () => {
    let name = '';
    void Dialog.confirm({
      title: m.noteNewFolder,
      content: <Input placeholder={m.noteFolderName} aria-label={m.noteFolderName} autoFocus onChange={(v) => { name = v; }} />,
      confirmText: m.ok, cancelText: m.cancel,
    }).then(async (ok) => {
      if (!ok || !name.trim()) return;
      await run(async () => {
        const f = await notesApi.createFolder(name.trim());
        setFolders((l) => [...l, f]);
        await moveTo(f.id);
      });
    });
  };
  const chooseFolder = () => openLayer((control) => (
    <ActionSheet {...control} closeOnAction extra={m.noteMove} cancelText={m.cancel}
      actions={[{ key: '', text: m.noteNoFolder }, ...folders.map((f) => ({ key: f.id, text: f.name })), { key: '+', text: m.noteNewFolder }]}
      onAction={(a) => (a.key === '+' ? newFolder() : void moveTo(String(a.key)))} />
  ));

  const remove = async () => {
    if (!note || !(await Dialog.confirm({ content: m.noteDeleteConfirm, confirmText: m.delete, cancelText: m.cancel }))) return;
    await run(async () => {
      await notesApi.remove(note.id);
      noteVault.lock(note.id);
      Toast.show({ content: m.noteDeleted });
      navigate(LIST_ROUTE, { replace: true });
    });
  };

  const more = () => {
    const actions = [
      ...(!note?.locked ? [{ key: 'lock', text: m.noteSetPassword }] : []),
      ...(note?.locked && open ? [{ key: 'now', text: m.noteLockNow }, { key: 'unlock', text: m.noteRemovePassword }] : []),
      ...(note && !closed ? [{ key: 'move', text: m.noteMove }] : []),
      ...(note ? [{ key: 'delete', text: m.delete, danger: true }] : []),
    ];
    openLayer((control) => (
      <ActionSheet {...control} closeOnAction cancelText={m.cancel} actions={actions}
        onAction={(a) => {
          if (a.key === 'lock') void setPassword();
          if (a.key === 'now' && note) noteVault.lock(note.id);
          if (a.key === 'unlock') void removePassword();
          if (a.key === 'move') chooseFolder();
          if (a.key === 'delete') void remove();
        }} />
    ));
  };

  const right = (
    <span className="mw-cn-actions">
      {draft && <a role="button" className="mw-cn-nav-btn mw-cn-save" data-action="save-note" aria-disabled={busy} onClick={() => !busy && void save()}>{m.noteSave}</a>}
      <a role="button" className="mw-cn-nav-btn" data-action="note-more" aria-label={m.noteMore} onClick={more}><MoreOutline /></a>
    </span>
  );
  const title = id ? m.noteEdit : m.noteNew;
  if (failed) return <Page title={title} back={LIST_ROUTE}><ErrorState onRetry={() => window.location.reload()} /></Page>;
  if (id && !note) return <Page title={title} back={LIST_ROUTE}><div className="mw-center mw-fill"><SpinLoading color="primary" /></div></Page>;
  if (closed && note) return <Page title={m.noteLockedTitle} back={LIST_ROUTE} right={right}><LockScreen note={note} onChange={setNote} />{layer}</Page>;
  if (!draft) return <Page title={title} back={LIST_ROUTE}><div className="mw-center mw-fill"><SpinLoading color="primary" /></div></Page>;
  const folderName = folders.find((f) => f.id === draft.folder)?.name ?? m.noteNoFolder;
  return (
    <Page title={title} back={LIST_ROUTE} right={right}>
      <div className="mw-cn-edit" data-note={note?.id} data-locked={note?.locked || undefined}>
        {note?.locked && <div className="mw-cn-open-badge" role="status"><UnlockOutline /> {m.noteIsOpen} · {m.noteIdleHint}</div>}
        <div className="mw-cn-title-input">
          <Input value={draft.title} maxLength={200} placeholder={m.noteTitlePlaceholder} aria-label={m.noteTitlePlaceholder} data-field="title" onChange={(v) => setDraft({ ...draft, title: v })} />
        </div>
        <div className="mw-cn-editor">
          <Suspense fallback={<div className="mw-center"><SpinLoading color="primary" /></div>}>
            <RichEditor
              key={`${note?.id ?? 'new'}-${note?.locked ? 'l' : 'p'}`}
              initialHtml={draft.html}
              placeholder={m.noteBodyPlaceholder}
              onChange={(html, text) => setDraft((d) => (d ? { ...d, html, text } : d))}
              onImage={async (file) => {
                const url = await noteImage(file).catch(() => null);
                if (!url) Toast.show({ content: m.noteImageTooLarge });
                return url;
              }}
            />
          </Suspense>
        </div>
        <List className="mw-cn-fields">
          <List.Item data-row="folder" extra={folderName} onClick={chooseFolder}>{m.noteFolder}</List.Item>
          <List.Item data-row="tags" title={m.noteTags}>
            <Input value={draft.tags} placeholder={m.noteTagsPlaceholder} aria-label={m.noteTags} data-field="tags" onChange={(v) => setDraft({ ...draft, tags: v })} />
          </List.Item>
        </List>
      </div>
      {layer}
    </Page>
  );
}
