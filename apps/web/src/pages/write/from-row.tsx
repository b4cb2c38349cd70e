import { ActionSheet, Toast } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import type { Editor } from '@tiptap/react';
import { switchTo } from '../../api/mailboxes';
import { useMailTextsT } from '../../i18n/mail-texts';
import { compose } from '../../state/compose';
import { sameAddress, session, useSession } from '../../state/session';
import { reloadSettings } from '../../state/settings';
import { signatureFor } from '../../state/signature-seam';
import { usePageLayer } from '../../ui/page-layer';
import { swapSignature } from './signature-swap';

/**
 * The sender of a new mail, when the user has bound mailboxes (issue 7): a mail goes out
 * from the current mailbox, so choosing another switches to it. Its own signature then
 * takes the place of the old one; the rest of the text stays as written.
 */
export function FromRow({ editor }: { editor: Editor | null }) {
  const m = useMailTextsT();
  const current = useSession((s) => s.currentEmailName);
  const boxes = useSession((s) => s.mailList);
  const [layer, openLayer] = usePageLayer();
  if (boxes.length < 2) return null;

  const sendFrom = async (email: string) => {
    if (!(await switchTo(email))) return;
    // The draft saved so far belongs to the other mailbox; this one starts its own.
    compose.senderChanged();
    void reloadSettings();
    const s = session.get();
    const signature = await signatureFor(null, { email: s.currentEmailName, token: s.token });
    if (editor && !editor.isDestroyed) swapSignature(editor, signature?.html ?? null, 'new');
    Toast.show({ content: `${m.composeFrom}: ${email}` });
  };
  const choose = () => openLayer((control) => (
    <ActionSheet {...control} closeOnAction cancelText={m.cancel}
      actions={boxes.map((b) => ({ key: b.email, text: b.email, disabled: sameAddress(b.email, current) }))}
      onAction={(action) => void sendFrom(String(action.key))} />
  ));

  return (
    <div className="mw-compose-row-wrap">
      <div className="mw-compose-row" data-row="from">
        <span className="mw-compose-label">{m.composeFrom}</span>
        <a role="button" className="mw-compose-input mw-from-pick" onClick={choose} aria-label={`${m.composeFrom}: ${current}`}>
          <span>{current}</span> <DownOutline />
        </a>
      </div>
      {layer}
    </div>
  );
}
