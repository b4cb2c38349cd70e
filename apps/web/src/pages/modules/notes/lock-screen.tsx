import { useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { LockOutline } from 'antd-mobile-icons';
import { deriveNoteKeys, NoteOpenError, openNote, type Note } from '@mailwing/shared';
import { ApiError } from '../../../api/request';
import { notesApi } from '../../../api/notes';
import { useNotesT } from '../../../i18n/notes';
import { noteVault } from '../../../state/note-vault';
import { onlyInlineImages } from './note-image';

const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

/**
 * A locked note, closed: the password is turned into a key and a proof here (the slow
 * KDF runs on this device); the server hands out the ciphertext only for the right
 * proof and counts wrong ones, so the tries left and the lock-out come from it.
 */
export function LockScreen({ note, onChange }: { note: Note; onChange: (n: Note) => void }) {
  const m = useNotesT();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const lock = note.lock!;
  const closedFor = lock.retryAfter > 0 ? Math.ceil(lock.retryAfter / 60) : 0;

  const unlock = async () => {
    setBusy(true);
    setError('');
    try {
      const keys = await deriveNoteKeys(password, lock.salt, lock.iterations);
      const sealed = await notesApi.unlock(note.id, keys.proof);
      const plain = await openNote(keys.key, sealed);
      const html = onlyInlineImages(plain.html);
      noteVault.put(note.id, { ...keys, salt: lock.salt, iterations: lock.iterations, kdf: lock.kdf, title: plain.title, html, text: textOf(html) });
    } catch (e) {
      if (e instanceof ApiError && (e.reason === 'note.wrong_password' || e.reason === 'note.locked_out')) {
        const fresh = await notesApi.get(note.id).catch(() => note);
        onChange(fresh);
        setError(fresh.lock && fresh.lock.retryAfter > 0 ? m.noteLockedOut(Math.ceil(fresh.lock.retryAfter / 60)) : m.noteWrongPassword(fresh.lock?.triesLeft ?? 0));
      } else if (e instanceof NoteOpenError) {
        setError(m.noteFailed);
      } else {
        setError(e instanceof ApiError ? (m.noteReason[e.reason ?? ''] ?? e.message) : m.requestFailed);
      }
    } finally {
      setBusy(false);
      setPassword('');
    }
  };

  return (
    <form className="mw-cn-locked" data-state="locked" onSubmit={(e) => { e.preventDefault(); if (password) void unlock(); }}>
      <LockOutline className="mw-cn-locked-icon" aria-hidden="true" />
      <p>{m.noteLockedBanner}</p>
      <Input type="password" value={password} onChange={setPassword} placeholder={m.notePassword} aria-label={m.notePassword} autoComplete="current-password" data-field="unlock-password" disabled={busy || closedFor > 0} />
      {(error || closedFor > 0) && <div className="mw-cn-error" role="alert">{error || m.noteLockedOut(closedFor)}</div>}
      <Button block color="primary" type="submit" loading={busy} loadingText={m.noteUnlocking} disabled={!password || closedFor > 0} data-action="unlock">{m.noteUnlock}</Button>
      <p className="mw-state-hint">{m.noteIdleHint}</p>
    </form>
  );
}
