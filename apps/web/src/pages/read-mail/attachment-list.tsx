import { useState } from 'react';
import { ImageViewer, List, Toast } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { formatFileSize, type Attachment } from '@mailwing/shared';
import { previewUrl, saveFile, type PreviewFile } from '../../api/attachments';
import { useAttachT } from '../../i18n/attach';
import { AttachThumb } from '../../ui/attach-thumb';
import { WRITE_ROUTE } from '../../ui/compose-button';
import { ATTACH_LIST_ROUTE, previewHref, previewKind } from '../../ui/preview-kind';
import { AttachImageViewer } from '../attach/image-viewer';
import { offlineMessages } from '../../i18n/offline';
import { keptAttachment } from '../../offline/cache';

/**
 * Issue 15: offline, an attachment kept with its mail (offline/limits.ts caps) opens from the
 * device; one that was not kept says so. Online, the preview pages as always.
 */
async function openOffline(a: Attachment, image: boolean): Promise<void> {
  const blob = await keptAttachment(a.id).catch(() => null);
  if (!blob) {
    Toast.show({ content: offlineMessages().notKept });
    return;
  }
  const url = URL.createObjectURL(blob);
  if (image) {
    ImageViewer.show({ image: url, afterClose: () => URL.revokeObjectURL(url) });
    return;
  }
  const link = document.createElement('a');
  link.href = url;
  link.download = a.name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Forwards one attachment of a mail: compose opens forwarding that mail with only this file (issue 14). */
export function forwardHref(file: Pick<PreviewFile, 'id'>): string {
  const mailId = file.id.split('.')[0] ?? '';
  return `${WRITE_ROUTE}?forward=${encodeURIComponent(mailId)}&only=${encodeURIComponent(file.id)}`;
}

/**
 * A mail's attachments (inline images are part of the body, so they are left out here).
 * Images show as thumbnails and open in the viewer; PDF, text, audio and video open the
 * preview pages; other files open the preview page's download-and-forward fallback.
 * With `mailId` (the read page) and two files or more, a last row opens them all on the
 * attachments page (/pages/attach/index), which passes no id and so does not link itself.
 */
export function AttachmentList({ attachments, mailId }: { attachments: Attachment[]; mailId?: string }) {
  const m = useAttachT();
  const navigate = useNavigate();
  const [viewing, setViewing] = useState<number | null>(null);
  const files = attachments.filter((a) => !a.inline);
  if (files.length === 0) return null;
  const images = files.filter((a) => previewKind(a.name) === 'image');

  const open = (a: Attachment) => {
    const index = images.indexOf(a);
    if (!navigator.onLine) return void openOffline(a, index >= 0);
    if (index >= 0) setViewing(index);
    else navigate(previewHref(a));
  };

  return (
    <>
      <List header={m.attachments(files.length)} className="mw-attachments">
        {files.map((a) => (
          <List.Item
            key={a.id}
            data-attach={a.id}
            data-preview={previewKind(a.name)}
            prefix={<AttachThumb name={a.name} size={a.size} src={previewUrl(a)} />}
            description={formatFileSize(a.size)}
            arrowIcon={false}
            onClick={() => open(a)}
            extra={
              <a
                className="mw-download"
                role="button"
                aria-label={m.download}
                onClick={(e) => {
                  e.stopPropagation();
                  if (!navigator.onLine) void openOffline(a, false);
                  else saveFile(a);
                }}
              >
                <DownlandOutline />
              </a>
            }
          >
            <span className="mw-attach-name">{a.name}</span>
          </List.Item>
        ))}
        {mailId && files.length >= 2 && (
          <List.Item className="mw-attach-all" onClick={() => navigate(`${ATTACH_LIST_ROUTE}?mid=${encodeURIComponent(mailId)}`)}>
            {m.allAttachments(files.length)}
          </List.Item>
        )}
      </List>
      <AttachImageViewer files={images} index={viewing} onClose={() => setViewing(null)} onForward={(f) => navigate(forwardHref(f))} />
    </>
  );
}
