import { useState } from 'react';
import { Button, Dialog, Input, Popup } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import type { Tag } from '@mailwing/shared';
import { organiseApi } from '../../../api/organise';
import type { ApiError } from '../../../api/request';
import { useOrganiseT } from '../../../i18n/organise';
import { TagChip } from '../../../ui/tag-chips';

/** The palette offered when creating or recolouring a tag. */
export const TAG_PALETTE = ['#E5483F', '#F5A623', '#F8D038', '#34B76C', '#14A8B5', '#2086EE', '#7B5CE0', '#E05CAB', '#8A8F99'] as const;

interface Props {
  /** null: closed; 'new': create; a tag: rename/recolour/delete it. */
  editing: Tag | 'new' | null;
  tags: readonly Tag[];
  onClose: () => void;
  /** After a save (the new or updated tag) or a delete (null). */
  onDone: (tag: Tag | null, removedId?: string) => void;
}

/** A bottom sheet to create or edit a tag: name, a small colour palette, and delete. */
export function TagEditor({ editing, tags, onClose, onDone }: Props) {
  const m = useOrganiseT();
  const tag = editing === 'new' ? null : editing;
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>(TAG_PALETTE[5]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  // Reset when the sheet opens for another tag, in the same render (as in dir-list's rename
  // dialog): an effect after it would overwrite what the user had started typing.
  const [shownFor, setShownFor] = useState<Tag | 'new' | null>(null);
  if (editing !== shownFor) {
    setShownFor(editing);
    if (editing) {
      setName(tag?.name ?? '');
      // A new tag gets the first colour no tag uses yet, so new tags look different.
      setColor(tag?.color.toUpperCase() ?? TAG_PALETTE.find((c) => !tags.some((t) => t.color.toUpperCase() === c)) ?? TAG_PALETTE[5]);
      setError('');
    }
  }

  const save = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setError(m.tagNameEmpty);
    if ([...trimmed].length > 32) return setError(m.tagNameLong);
    if (tags.some((t) => t.id !== tag?.id && t.name.toLowerCase() === trimmed.toLowerCase())) return setError(m.tagNameTaken);
    setBusy(true);
    try {
      const saved = tag
        ? await organiseApi.updateTag(tag.id, { ...(trimmed !== tag.name ? { name: trimmed } : {}), color })
        : await organiseApi.createTag(trimmed, color);
      onDone(saved);
    } catch (e) {
      const err = e as ApiError;
      setError(err.fields?.name ? m.tagNameTaken : err.fields?.color ?? err.message);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!tag) return;
    const sure = await Dialog.confirm({
      content: m.deleteTagConfirm(tag.name, tag.count),
      confirmText: m.delete,
      cancelText: m.cancel,
    });
    if (!sure) return;
    try {
      await organiseApi.deleteTag(tag.id);
    } catch {
      return;
    }
    onDone(null, tag.id);
  };

  return (
    <Popup visible={editing !== null} onMaskClick={onClose} onClose={onClose} bodyClassName="mw-sheet" destroyOnClose>
      <form
        className="mw-tag-editor"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="mw-sheet-title">{tag ? m.editTag : m.newTag}</div>
        <label className="mw-field">
          <span className="mw-field-label">{m.tagName}</span>
          <Input name="tag-name" value={name} maxLength={32} placeholder={m.tagNamePlaceholder} clearable autoFocus onChange={(v) => {
            setName(v);
            setError('');
          }} />
        </label>
        {error && <div className="mw-field-error" role="alert">{error}</div>}
        <div className="mw-field-label mw-palette-label">{m.tagColor}</div>
        <div className="mw-palette" role="radiogroup" aria-label={m.tagColor}>
          {TAG_PALETTE.map((c) => (
            <button
              type="button"
              key={c}
              role="radio"
              aria-checked={color === c}
              aria-label={c}
              data-color={c}
              className={color === c ? 'mw-palette-dot is-on' : 'mw-palette-dot'}
              style={{ backgroundColor: c }}
              onClick={() => setColor(c)}
            >
              {color === c && <CheckOutline />}
            </button>
          ))}
        </div>
        <div className="mw-tag-preview">
          <TagChip name={name.trim() || m.tagNamePlaceholder} color={color} />
        </div>
        <div className="mw-sheet-actions">
          {tag && <Button fill="outline" color="danger" onClick={() => void remove()}>{m.delete}</Button>}
          <Button type="submit" color="primary" loading={busy} disabled={busy}>{m.save}</Button>
        </div>
      </form>
    </Popup>
  );
}
