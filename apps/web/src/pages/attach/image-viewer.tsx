import { useEffect, useState } from 'react';
import { ImageViewer } from 'antd-mobile';
import { CloseOutline, DownlandOutline, SendOutline } from 'antd-mobile-icons';
import { previewUrl, saveFile, type PreviewFile } from '../../api/attachments';
import { useAttachT } from '../../i18n/attach';
import './attach.css';

interface Props {
  files: PreviewFile[];
  /** The image shown first; null when the viewer is closed. */
  index: number | null;
  onClose: () => void;
  /** Forwards one attachment (mail attachments only; an upload being written has none). */
  onForward?: (file: PreviewFile) => void;
}

/**
 * The image viewer (issue 14): antd-mobile's pinch-zoom and swipe on an opaque black
 * backdrop (the page behind no longer shows through), with close, save and forward.
 * Each image is an <img> of the sandboxed attachment URL: inert whatever its bytes are.
 */
export function AttachImageViewer({ files, index, onClose, onForward }: Props) {
  const m = useAttachT();
  const [current, setCurrent] = useState(index ?? 0);
  useEffect(() => {
    if (index !== null) setCurrent(index);
  }, [index]);
  const file = files[current];
  return (
    <ImageViewer.Multi
      visible={index !== null}
      images={files.map(previewUrl)}
      defaultIndex={index ?? 0}
      onIndexChange={setCurrent}
      onClose={onClose}
      classNames={{ mask: 'mw-viewer-mask', body: 'mw-viewer-body' }}
      renderFooter={() => (
        <div className="mw-viewer-bar" data-role="image-viewer-bar">
          <button type="button" className="mw-viewer-close" aria-label={m.close} onClick={onClose}><CloseOutline /></button>
          {/* antd-mobile shows "2 / 5" at the top; the name goes here. */}
          <span className="mw-viewer-name">{file?.name}</span>
          <button type="button" aria-label={m.save} onClick={() => file && saveFile(file)}><DownlandOutline /><span>{m.save}</span></button>
          {onForward && (
            <button type="button" aria-label={m.forwardFile} onClick={() => file && onForward(file)}><SendOutline /><span>{m.forwardFile}</span></button>
          )}
        </div>
      )}
    />
  );
}
