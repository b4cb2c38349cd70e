import { useState } from 'react';
import { Dialog, Input } from 'antd-mobile';
import type { Folder } from '@mailwing/shared';
import { organiseApi } from '../../../api/organise';
import type { ApiError } from '../../../api/request';
import { useOrganiseT } from '../../../i18n/organise';
import { folderNameMessage, folderNameProblem } from '../../../ui/folder-rules';

interface Props {
  folder: Folder | null;
  custom: readonly Folder[];
  onClose: () => void;
  onRenamed: (folder: Folder) => void;
}

/** Renames a custom folder, with spec §5's name rules checked as the user types the new name. */
export function RenameDialog({ folder, custom, onClose, onRenamed }: Props) {
  const m = useOrganiseT();
  const [name, setName] = useState(folder?.name ?? '');
  const [error, setError] = useState('');
  // A new folder resets the field in the same render, not in an effect after it: the dialog
  // never shows the last folder's text, and a user (or a test) who starts typing at once is
  // not overwritten when the effect lands (it moved the caret, and what was typed was appended).
  const [shownFor, setShownFor] = useState(folder);
  if (folder !== shownFor) {
    setShownFor(folder);
    setName(folder?.name ?? '');
    setError('');
  }

  const save = async () => {
    if (!folder) return;
    if (name.trim() === folder.name) return onClose();
    const problem = folderNameProblem(name, custom, folder.parent, folder.mid);
    if (problem) return setError(folderNameMessage(m, problem));
    try {
      onRenamed(await organiseApi.renameFolder(folder.mid, name.trim()));
    } catch (e) {
      const err = e as ApiError;
      setError(err.fields.name ?? err.fields.mid ?? err.message);
    }
  };

  return (
    <Dialog
      visible={folder !== null}
      title={m.renameFolder}
      onClose={onClose}
      content={
        <form
          className="mw-dialog-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Input name="rename-folder" value={name} maxLength={64} clearable autoFocus aria-label={m.folderName} onChange={(v) => {
            setName(v);
            setError('');
          }} />
          {error && <div className="mw-field-error" role="alert">{error}</div>}
        </form>
      }
      actions={[[
        { key: 'cancel', text: m.cancel, onClick: onClose },
        { key: 'save', text: m.save, bold: true, onClick: save },
      ]]}
    />
  );
}
