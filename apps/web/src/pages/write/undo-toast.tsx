import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Toast } from 'antd-mobile';
import { undoSendApi } from '../../api/undo-send';
import { readWriteMessages, type ReadWriteMessages } from '../../i18n/read-write';
import { getLanguage } from '../../i18n';

// The toast that replaces the "sent" page when the mail is held for its undo window
// (issue 14, scope 4). It outlives the write page (the page is left at once), so it
// has a root of its own, as antd-mobile's Toast does.

interface Props {
  m: ReadWriteMessages;
  until: number;
  onUndo: () => void;
  onDone: () => void;
}

function UndoBar({ m, until, onUndo, onDone }: Props) {
  const [busy, setBusy] = useState(false);
  const [left, setLeft] = useState(() => Math.max(0, Math.ceil((until - Date.now()) / 1000)));
  useEffect(() => {
    const timer = setInterval(() => {
      const next = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setLeft(next);
      if (next === 0) onDone();
    }, 250);
    return () => clearInterval(timer);
  }, [until, onDone]);
  return (
    <div className="mw-undo-toast" role="status" aria-live="polite">
      <span className="mw-undo-text">{m.sendingMail} <span className="mw-undo-left">{left}</span></span>
      <button
        type="button"
        className="mw-undo-button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          onUndo();
        }}
      >
        {m.undo}
      </button>
    </div>
  );
}

/**
 * Shows "Sending… Undo" until `until` (unix ms). Undo asks the server to take the mail
 * back; `onUndone` then opens it in compose. A refusal (too late) says it was sent.
 */
export function showUndoToast(opts: { id: string; until: number; onUndone: (draftId: string) => void }): void {
  const m = readWriteMessages(getLanguage());
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    // Unmounting inside the bar's own effect is not allowed: leave the render first.
    setTimeout(() => {
      root.unmount();
      host.remove();
    });
  };
  const onDone = () => {
    if (closed) return;
    close();
    Toast.show({ content: m.mailSent });
  };
  const onUndo = () => {
    undoSendApi.undo(opts.id).then((draft) => {
      close();
      Toast.show({ content: m.sendUndone });
      opts.onUndone(draft.id);
    }, () => {
      close();
      Toast.show({ content: m.undoTooLate });
    });
  };
  root.render(<UndoBar m={m} until={opts.until} onUndo={onUndo} onDone={onDone} />);
}
