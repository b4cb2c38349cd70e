import { useEffect } from 'react';
import { ImageViewer, List, Modal, Toast } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { attachmentKind, formatFileSize, type Attachment } from '@mailwing/shared';
import { attachmentUrl } from '../../api/endpoints';
import { download } from '../../api/request';
import { useReadWriteT } from '../../i18n/read-write';
import { AttachIcon } from '../../ui/attach-icon';
import { offlineMessages } from '../../i18n/offline';
import { keptAttachment } from '../../offline/cache';

/**
 * Issue 15: offline, an attachment kept with its mail (offline/limits.ts caps) opens from the
 * device; one that was not kept says so. Online, the server's link as always.
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

/** Attachments (inline images are part of the body, so they are left out here). */
export function AttachmentList({ attachments }: { attachments: Attachment[] }) {
  const m = useReadWriteT();
  // The viewer is mounted on <body>, outside the router: close it when this
  // page goes away (browser back), or it would sit on top of the next page.
  useEffect(() => () => ImageViewer.clear(), []);
  const files = attachments.filter((a) => !a.inline);
  if (files.length === 0) return null;
  const images = files.filter((a) => attachmentKind(a.name) === 'image');

  const open = (a: Attachment) => {
    const index = images.indexOf(a);
    if (!navigator.onLine) return void openOffline(a, index >= 0);
    if (index >= 0) {
      ImageViewer.Multi.show({ images: images.map((i) => attachmentUrl(i.id, true)), defaultIndex: index });
    } else if (attachmentKind(a.name) === 'file') {
      // A type no browser shows and no app is known for (spec §8): say so, and offer the download.
      void Modal.confirm({ content: m.noAppToOpen, confirmText: m.download, cancelText: m.cancel })
        .then((go) => go && download('/attach/download', { id: a.id }, a.name));
    } else {
      download('/attach/download', { id: a.id }, a.name);
    }
  };

  return (
    <List header={m.attachments(files.length)} className="mw-attachments">
      {files.map((a) => (
        <List.Item
          key={a.id}
          data-attach={a.id}
          prefix={<AttachIcon name={a.name} />}
          description={formatFileSize(a.size)}
          arrowIcon={false}
          onClick={() => open(a)}
          extra={
            <a
              className="mw-download"
              aria-label={m.download}
              onClick={(e) => {
                e.stopPropagation();
                if (!navigator.onLine) void openOffline(a, false);
                else download('/attach/download', { id: a.id }, a.name);
              }}
            >
              <DownlandOutline />
            </a>
          }
        >
          <span className="mw-attach-name">{a.name}</span>
        </List.Item>
      ))}
    </List>
  );
}
