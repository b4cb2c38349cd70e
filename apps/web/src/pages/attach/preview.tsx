import { lazy, Suspense, useState } from 'react';
import { SpinLoading } from 'antd-mobile';
import { DownlandOutline, SendOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { previewUrl, saveFile, type PreviewError, type PreviewFile } from '../../api/attachments';
import { useAttachT, type AttachMessages } from '../../i18n/attach';
import './attach.css';
import { Page } from '../../ui/page';
import { previewKind } from '../../ui/preview-kind';
import { TAB_ROUTES } from '../../ui/tab-layout';
import { forwardHref } from '../read-mail/attachment-list';
import { FileFallback } from './file-fallback';
import { AttachImageViewer } from './image-viewer';
import { TextView } from './text-view';

// pdf.js is this page's alone, and only a PDF loads it.
const PdfView = lazy(() => import('./pdf-view'));

/** The file named by the address: ?id=&name=&size= (&upload=1 for a file of the mail being written). */
export function useFileParam(): PreviewFile {
  const [params] = useSearchParams();
  return { id: params.get('id') ?? '', name: params.get('name') ?? '', size: Number(params.get('size') ?? 0) || 0, upload: params.get('upload') === '1' };
}

export function failText(m: AttachMessages, why: PreviewError['why']): string {
  return why === 'tooLarge' ? m.tooLargeToPreview : why === 'failed' ? m.previewFailed : m.noPreview;
}

/** The bar under every preview: save, and forward for a mail's attachment. */
export function PreviewBar({ file, onForward }: { file: PreviewFile; onForward?: () => void }) {
  const m = useAttachT();
  return (
    <div className="mw-preview-bar">
      <button type="button" onClick={() => saveFile(file)}><DownlandOutline /><span>{m.save}</span></button>
      {onForward && <button type="button" onClick={onForward}><SendOutline /><span>{m.forwardFile}</span></button>}
    </div>
  );
}

/** Attachment preview (spec: /pages/attach/preview): images, PDF, text and code, audio; anything else downloads. */
export default function AttachPreviewPage() {
  const m = useAttachT();
  const navigate = useNavigate();
  const file = useFileParam();
  const [failed, setFailed] = useState<PreviewError['why'] | null>(null);
  const [zooming, setZooming] = useState<number | null>(null);
  const kind = previewKind(file.name);
  const onForward = file.upload ? undefined : () => navigate(forwardHref(file));
  const fail = (why: PreviewError['why']) => setFailed(why);

  let body;
  if (failed || kind === 'none' || kind === 'video') {
    body = <FileFallback file={file} text={failed ? failText(m, failed) : undefined} onForward={onForward} />;
  } else if (kind === 'image') {
    body = (
      <>
        <button type="button" className="mw-preview-image" onClick={() => setZooming(0)} aria-label={m.zoomIn}>
          <img src={previewUrl(file)} alt={file.name} data-role="preview-image" onError={() => fail('notPreviewable')} />
        </button>
        <AttachImageViewer files={[file]} index={zooming} onClose={() => setZooming(null)} onForward={onForward && (() => onForward())} />
      </>
    );
  } else if (kind === 'pdf') {
    body = <Suspense fallback={<div className="mw-center"><SpinLoading color="primary" /></div>}><PdfView file={file} onFail={fail} /></Suspense>;
  } else if (kind === 'text') {
    body = <TextView file={file} onFail={fail} />;
  } else {
    body = (
      <div className="mw-preview-media">
        <div className="mw-preview-name">{file.name}</div>
        <audio controls preload="metadata" src={previewUrl(file)} data-role="preview-audio" onError={() => fail('notPreviewable')} />
      </div>
    );
  }

  return (
    <Page
      title={m.titleAttachPreview}
      navTitle={<span className="mw-preview-title">{file.name || m.titleAttachPreview}</span>}
      back={TAB_ROUTES.inbox}
      footer={<PreviewBar file={file} onForward={onForward} />}
    >
      <div className="mw-preview" data-kind={failed ? 'fallback' : kind}>{body}</div>
    </Page>
  );
}
