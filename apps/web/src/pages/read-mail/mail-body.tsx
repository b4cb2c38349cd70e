import { useCallback, useEffect, useRef, useState } from 'react';
import { MAIL_SCOPE, MailZoom } from './mail-zoom';

// The server has already sanitised the HTML; this is the second wall. The
// frame is sandboxed without allow-scripts, so nothing in it can run, and the
// CSP inside it allows only same-origin and data: images and inline styles.
// allow-same-origin is there only so this page can read the content height
// and catch link clicks; with scripts off the mail itself cannot use it.
const CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

export function mailDocument(html: string): string {
  // The mail's own sheets arrive scoped to .mw-mail (server mail-css.ts); these base rules
  // come first, so the mail's win. No max-width on tables: a wide mail keeps its layout
  // and is scaled to fit as a whole (mail-zoom.ts) instead of being squeezed.
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<style>
html,body{margin:0;padding:0;background:#fff}
html{overflow-x:hidden;overflow-y:hidden;touch-action:pan-x pan-y}
body{font:15px/1.6 -apple-system,BlinkMacSystemFont,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#222}
.${MAIL_SCOPE}{display:flow-root;position:relative;overflow-wrap:anywhere;transform-origin:0 0;background:#fff}
.${MAIL_SCOPE} img{max-width:100%;height:auto}
.${MAIL_SCOPE} pre{white-space:pre-wrap}
.${MAIL_SCOPE} a{color:#2086EE}
@media (prefers-color-scheme: dark){
html,body{background:#121212}
.${MAIL_SCOPE}{filter:invert(0.9) hue-rotate(180deg)}
.${MAIL_SCOPE} img,.${MAIL_SCOPE} video,.${MAIL_SCOPE} [style*="background-image"]{filter:invert(1) hue-rotate(180deg)}
}
</style></head><body><div class="${MAIL_SCOPE}">${html}</div></body></html>`;
}

/** Only ordinary links leave the app, in a new tab; anything else (javascript:, data:) does nothing. */
function isSafeLink(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href);
}

export function MailBody({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const zoom = useRef<MailZoom | null>(null);
  const [height, setHeight] = useState(40);

  const refit = useCallback(() => zoom.current?.refit(), []);

  const onLoad = useCallback(() => {
    const doc = frame.current?.contentDocument;
    if (!doc) return;
    zoom.current = new MailZoom(doc, setHeight);
    refit();
    // Images that finish later change the size; load events do not bubble,
    // so listen in the capture phase.
    doc.addEventListener('load', refit, true);
    doc.addEventListener('click', (event) => {
      const anchor = (event.target as Element | null)?.closest?.('a');
      if (!anchor) return;
      event.preventDefault();
      const href = anchor.getAttribute('href') ?? '';
      if (isSafeLink(href)) window.open(anchor.href, '_blank', 'noopener,noreferrer');
    });
  }, [refit]);

  useEffect(() => {
    window.addEventListener('resize', refit);
    return () => window.removeEventListener('resize', refit);
  }, [refit]);

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
