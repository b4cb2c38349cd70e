import { useEffect } from 'react';
import { ImageViewer, List, Modal } from 'antd-mobile';
import { DownlandOutline } from 'antd-mobile-icons';
import { attachmentKind, formatFileSize, type Attachment } from '@mailwing/shared';
import { attachmentUrl } from '../../api/endpoints';
import { download } from '../../api/request';
import { useReadWriteT } from '../../i18n/read-write';
import { AttachIcon } from '../../ui/attach-icon';

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
                download('/attach/download', { id: a.id }, a.name);
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
