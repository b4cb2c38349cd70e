import { useEffect, useState } from 'react';
import { SpinLoading } from 'antd-mobile';
import { formatFileSize } from '@mailwing/shared';
import { fetchPreviewBytes, PreviewError, type PreviewFile } from '../../api/attachments';
import { useAttachT } from '../../i18n/attach';
import { TEXT_MAX_BYTES, TEXT_SHOWN_CHARS } from '../../ui/preview-kind';

/** Text or code from its bytes: a declared charset when the server kept one, else UTF-8; null for binary. */
export function decodeText(data: ArrayBuffer, type: string): string | null {
  const bytes = new Uint8Array(data);
  if (bytes.subarray(0, 8192).includes(0)) return null;
  const charset = /charset=([A-Za-z0-9._-]+)/i.exec(type)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * A text or code file, shown as text (issue 14): React puts it in a <pre> as a text
 * node, so HTML, SVG or script in it is only ever characters on the screen.
 */
export function TextView({ file, onFail }: { file: PreviewFile; onFail: (why: PreviewError['why']) => void }) {
  const m = useAttachT();
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchPreviewBytes(file, TEXT_MAX_BYTES, controller.signal).then(({ data, type }) => {
      const decoded = decodeText(data, type);
      if (decoded === null) onFail('notPreviewable');
      else setText(decoded);
    }, (error: unknown) => {
      if (!controller.signal.aborted) onFail(error instanceof PreviewError ? error.why : 'failed');
    });
    return () => controller.abort();
  }, [file.id]);
  if (text === null) return <div className="mw-center"><SpinLoading color="primary" /></div>;
  const cut = text.length > TEXT_SHOWN_CHARS;
  return (
    <>
      {cut && <p className="mw-hint">{m.textCut(formatFileSize(TEXT_SHOWN_CHARS))}</p>}
      <pre className="mw-preview-text" data-role="preview-text">{cut ? text.slice(0, TEXT_SHOWN_CHARS) : text}</pre>
    </>
  );
}
