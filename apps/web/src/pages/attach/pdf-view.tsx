import { useEffect, useRef, useState } from 'react';
import { SpinLoading } from 'antd-mobile';
import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { fetchPreviewBytes, PreviewError, type PreviewFile } from '../../api/attachments';
import { useAttachT } from '../../i18n/attach';
import { PDF_MAX_BYTES } from '../../ui/preview-kind';

// pdf.js is imported here only, and this module only by the preview page's PDF branch
// (React.lazy), so it never reaches the first screen or the read page.
async function loadPdfjs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  // The worker comes from our own bundle (CSP worker-src 'self'), never a CDN.
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

const MAX_PAGES = 200;
const ZOOMS = [1, 1.5, 2, 3];

/**
 * A PDF drawn by pdf.js into canvases (docs/security.md): the bytes are fetched through
 * src/api, parsed in the worker with eval off and no XFA, and no frame of our origin
 * ever shows the file. pdf.js's display layer runs no PDF JavaScript (only its viewer
 * app has scripting, which is not used).
 */
export default function PdfView({ file, onFail }: { file: PreviewFile; onFail: (why: PreviewError['why']) => void }) {
  const m = useAttachT();
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [zoom, setZoom] = useState(0);
  const pages = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    let loaded: PDFDocumentProxy | null = null;
    (async () => {
      const [{ data, type }, pdfjs] = await Promise.all([fetchPreviewBytes(file, PDF_MAX_BYTES, controller.signal), loadPdfjs()]);
      // The server serves a PDF as one only when its bytes are one (user-content.ts).
      if (!type.startsWith('application/pdf')) throw new PreviewError('notPreviewable');
      loaded = await pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false, enableXfa: false, disableAutoFetch: true, disableFontFace: false }).promise;
      if (controller.signal.aborted) return;
      setDoc(loaded);
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) onFail(error instanceof PreviewError ? error.why : 'failed');
    });
    return () => {
      controller.abort();
      void loaded?.destroy();
    };
  }, [file.id]);

  // Draws every page (up to MAX_PAGES) at the width of the screen times the zoom.
  useEffect(() => {
    const host = pages.current;
    if (!doc || !host) return;
    let stopped = false;
    const width = host.clientWidth || window.innerWidth;
    const ratio = window.devicePixelRatio || 1;
    host.replaceChildren();
    void (async () => {
      for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES) && !stopped; n++) {
        const page = await doc.getPage(n);
        const base = page.getViewport({ scale: 1 });
        const scale = (width / base.width) * ZOOMS[zoom]!;
        const viewport = page.getViewport({ scale: scale * ratio });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
        canvas.dataset.page = String(n);
        canvas.setAttribute('aria-label', m.pageOf(n, doc.numPages));
        host.append(canvas);
        await page.render({ canvasContext: canvas.getContext('2d')!, viewport }).promise;
      }
    })().catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [doc, zoom]);

  return (
    <div className="mw-pdf" data-role="pdf-view" data-pages={doc?.numPages ?? ''}>
      {!doc && <div className="mw-center"><SpinLoading color="primary" /></div>}
      <div ref={pages} className="mw-pdf-pages" />
      {doc && (
        <div className="mw-pdf-zoom">
          <button type="button" aria-label={m.zoomOut} disabled={zoom === 0} onClick={() => setZoom(zoom - 1)}><MinusOutline /></button>
          <span>{`${Math.round(ZOOMS[zoom]! * 100)}%`}</span>
          <button type="button" aria-label={m.zoomIn} disabled={zoom === ZOOMS.length - 1} onClick={() => setZoom(zoom + 1)}><AddOutline /></button>
        </div>
      )}
    </div>
  );
}
