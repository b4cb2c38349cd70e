import { Dialog, Input } from 'antd-mobile';
import { NOTE_PASSWORD_MIN } from '@mailwing/shared';
import type { NotesMessages } from '../../../i18n/notes';

/** Asks for a new reading password twice, under the plain warning that it cannot be recovered. */
export function askNewPassword(m: NotesMessages): Promise<string | null> {
  let first = '';
  let second = '';
  return new Promise((resolve) => {
    const show = (error = '') => {
      void Dialog.confirm({
        title: m.noteSetPassword,
        content: (
          <div className="mw-cn-pw">
            <div className="mw-cn-warning" role="note">{m.noteLostWarning}</div>
            <Input type="password" placeholder={m.notePassword} aria-label={m.notePassword} autoComplete="new-password" data-field="password" defaultValue={first} onChange={(v) => { first = v; }} />
            <Input type="password" placeholder={m.notePasswordAgain} aria-label={m.notePasswordAgain} autoComplete="new-password" data-field="password2" onChange={(v) => { second = v; }} />
            {error && <div className="mw-cn-error" role="alert">{error}</div>}
          </div>
        ),
        confirmText: m.noteLockAction,
        cancelText: m.cancel,
      }).then((ok) => {
        if (!ok) return resolve(null);
        if (first.length < NOTE_PASSWORD_MIN) return show(m.notePasswordShort(NOTE_PASSWORD_MIN));
        if (first !== second) {
          second = '';
          return show(m.notePasswordMismatch);
        }
        resolve(first);
      });
    };
    show();
  });
}
