import { Button } from 'antd-mobile';
import { DownlandOutline, SendOutline } from 'antd-mobile-icons';
import { formatFileSize } from '@mailwing/shared';
import { saveFile, type PreviewFile } from '../../api/attachments';
import { useAttachT } from '../../i18n/attach';
import { AttachIcon } from '../../ui/attach-icon';

/**
 * What a file the app cannot show gets (issue 14): Office documents and the rest are
 * never rendered on our origin, so the honest answer is a download and forwarding.
 */
export function FileFallback({ file, text, onForward }: { file: PreviewFile; text?: string; onForward?: () => void }) {
  const m = useAttachT();
  return (
    <div className="mw-preview-fallback" data-role="preview-fallback">
      <AttachIcon name={file.name} />
      <div className="mw-preview-name">{file.name}</div>
      <div className="mw-preview-size">{formatFileSize(file.size)}</div>
      <p className="mw-hint">{text ?? m.noPreview}</p>
      <Button block color="primary" onClick={() => saveFile(file)}><DownlandOutline /> {m.download}</Button>
      {onForward && <Button block onClick={onForward}><SendOutline /> {m.forwardFile}</Button>}
    </div>
  );
}
