import { useCallback, useEffect, useRef, useState } from 'react';

// The server has already sanitised the HTML; this is the second wall. The
// frame is sandboxed without allow-scripts, so nothing in it can run, and the
// CSP inside it allows only same-origin and data: images and inline styles.
// allow-same-origin is there only so this page can read the content height
// and catch link clicks; with scripts off the mail itself cannot use it.
const CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

export function mailDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<style>
html,body{margin:0;padding:0;background:#fff}
body{display:flow-root;font:15px/1.6 -apple-system,BlinkMacSystemFont,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#222;overflow-wrap:anywhere}
img{max-width:100%;height:auto}
table{max-width:100%}
pre{white-space:pre-wrap}
a{color:#2086EE}
</style></head><body>${html}</body></html>`;
}

/** Only ordinary links leave the app, in a new tab; anything else (javascript:, data:) does nothing. */
function isSafeLink(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href);
}

export function MailBody({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(40);

  const measure = useCallback(() => {
    const doc = frame.current?.contentDocument;
    if (!doc?.documentElement) return;
    setHeight(Math.ceil(doc.documentElement.getBoundingClientRect().height));
  }, []);

  const onLoad = useCallback(() => {
    const doc = frame.current?.contentDocument;
    if (!doc) return;
    measure();
    // Images that finish later change the height; load events do not bubble,
    // so listen in the capture phase.
    doc.addEventListener('load', measure, true);
    doc.addEventListener('click', (event) => {
      const anchor = (event.target as Element | null)?.closest?.('a');
      if (!anchor) return;
      event.preventDefault();
      const href = anchor.getAttribute('href') ?? '';
      if (isSafeLink(href)) window.open(anchor.href, '_blank', 'noopener,noreferrer');
    });
  }, [measure]);

  useEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);

  return (
    <iframe
      ref={frame}
      className="mw-mail-frame"
      title={title}
      sandbox="allow-same-origin"
      srcDoc={mailDocument(html)}
      style={{ height }}
      onLoad={onLoad}
    />
  );
}
