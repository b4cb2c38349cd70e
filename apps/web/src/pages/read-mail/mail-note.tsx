import { useState } from 'react';
import { Button, Dialog, TextArea } from 'antd-mobile';
import { EditSOutline, FileOutline } from 'antd-mobile-icons';
import { organiseApi } from '../../api/organise';
import { useOrganiseT } from '../../i18n/organise';

const NOTE_MAX = 2000;

/** The user's private note on a mail: shown as a card, added, edited and removed in place. */
export function MailNote({ mid, note, onChange }: { mid: string; note: string; onChange: (note: string) => void }) {
  const m = useOrganiseT();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(note);
  const [busy, setBusy] = useState(false);

  const save = async (text: string) => {
    setBusy(true);
    try {
      await organiseApi.setNote(mid, text);
    } catch {
      return; // the request layer has shown why
    } finally {
      setBusy(false);
    }
    onChange(text);
    setEditing(false);
  };

  const remove = async () => {
    const sure = await Dialog.confirm({ content: m.removeNoteConfirm, confirmText: m.remove, cancelText: m.cancel });
    if (sure) await save('');
  };

  if (editing) {
    return (
      <div className="mw-note is-editing" data-note="editing">
        <TextArea
          name="note"
          value={draft}
          onChange={setDraft}
          placeholder={m.notePlaceholder}
          maxLength={NOTE_MAX}
          showCount
          autoSize={{ minRows: 3, maxRows: 8 }}
          autoFocus
          aria-label={m.note}
        />
        <div className="mw-note-actions">
          <Button size="small" onClick={() => setEditing(false)} disabled={busy}>{m.cancel}</Button>
          <Button size="small" color="primary" loading={busy} disabled={busy} onClick={() => void save(draft.trim())}>{m.save}</Button>
        </div>
      </div>
    );
  }

  if (!note) {
    return (
      <a role="button" className="mw-note-add" data-note="add" onClick={() => {
        setDraft('');
        setEditing(true);
      }}>
        <FileOutline /> {m.addNote}
      </a>
    );
  }

  return (
    <div className="mw-note" data-note="shown">
      <div className="mw-note-head">
        <span className="mw-note-label"><FileOutline /> {m.note}</span>
        <a role="button" aria-label={m.editNote} onClick={() => {
          setDraft(note);
          setEditing(true);
        }}><EditSOutline /> {m.edit}</a>
        <a role="button" onClick={() => void remove()}>{m.remove}</a>
      </div>
      <div className="mw-note-text">{note}</div>
    </div>
  );
}
