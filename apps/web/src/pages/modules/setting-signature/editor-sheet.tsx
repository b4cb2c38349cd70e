import { lazy, Suspense, type ReactNode } from 'react';
import { Button, Popup, SpinLoading, Toast } from 'antd-mobile';
import { useMailTextsT } from '../../../i18n/mail-texts';
import './mail-texts.css';

const RichEditor = lazy(() => import('../../write/rich-editor'));

/** Images in signatures and templates travel inside them, as data: URLs (the server refuses remote ones). */
export const INLINE_IMAGE_MAX_BYTES = 32 * 1024;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

interface EditorSheetProps {
  open: boolean;
  /** Changes when another item is opened, so the editor starts from its HTML. */
  editorKey: string;
  title: string;
  initialHtml: string;
  placeholder: string;
  saving: boolean;
  onHtml: (html: string) => void;
  onCancel: () => void;
  onSave: () => void;
  /** The fields above the editor (name, category, subject). */
  fields: ReactNode;
  /** Under the editor: a hint, a delete button. */
  footer?: ReactNode;
}

/** A full-height sheet for writing a signature or template with compose's editor. */
export function EditorSheet(p: EditorSheetProps) {
  const m = useMailTextsT();
  const onImage = async (file: File): Promise<string | null> => {
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type) || file.size > INLINE_IMAGE_MAX_BYTES) {
      Toast.show({ content: m.imageTooLarge });
      return null;
    }
    return readAsDataUrl(file);
  };
  return (
    <Popup visible={p.open} onMaskClick={p.onCancel} destroyOnClose bodyClassName="mw-texts-sheet" position="bottom">
      <div className="mw-texts-sheet-head">
        <a role="button" className="mw-texts-sheet-action" onClick={p.onCancel}>{m.cancel}</a>
        <span className="mw-texts-sheet-title">{p.title}</span>
        <Button size="small" color="primary" loading={p.saving} onClick={p.onSave} data-action="save">{m.save}</Button>
      </div>
      <div className="mw-texts-sheet-body">
        {p.fields}
        <Suspense fallback={<div className="mw-center"><SpinLoading color="primary" /></div>}>
          <RichEditor key={p.editorKey} initialHtml={p.initialHtml} placeholder={p.placeholder} onChange={(html) => p.onHtml(html)} onImage={onImage} />
        </Suspense>
        {p.footer}
      </div>
    </Popup>
  );
}
