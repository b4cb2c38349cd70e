import { describe, expect, it } from 'vitest';
import { presentHtml, sanitizeMailHtml } from '../src/features/message/html-sanitizer.js';

const clean = (html: string) => sanitizeMailHtml(html).html;

describe('sanitizeMailHtml', () => {
  it('strips scripts, event handlers and javascript: or data: links', () => {
    const out = clean('<p onclick="x()">hi</p><script>alert(1)</script><img src=x onerror="alert(1)"><a href="javascript:alert(1)">a</a><a href="data:text/html,<script>alert(1)</script>">d</a><a href="JaVaScRiPt&colon;alert(1)">e</a>');
    expect(out).not.toMatch(/script|onclick|onerror|javascript|data:text/i);
    expect(out).toContain('<p>hi</p>');
  });

  it('drops forms, meta refresh, frames, objects and SVG tricks', () => {
    const out = clean('<form action="https://evil.example"><input name=p></form><meta http-equiv="refresh" content="0;url=https://evil.example"><iframe src="https://evil.example"></iframe><object data="x"></object><svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">s</a></svg><math><mi xlink:href="javascript:alert(1)">m</mi></math>');
    expect(out).not.toMatch(/form|input|meta|refresh|iframe|object|svg|script|javascript|evil/i);
  });

  it('removes CSS that loads or executes, keeps harmless styling', () => {
    const out = clean('<div style="color: red; background-image: url(https://t.example/p.gif); width: expression(alert(1))">x</div><style>@import url(https://t.example/a.css); body{}</style><p style="font-weight: bold; behavior: url(x.htc)">y</p>');
    expect(out).not.toMatch(/url\(|expression|@import|behavior|t\.example/i);
    expect(out).toContain('color:red');
    expect(out).toContain('font-weight:bold');
  });

  it('holds back remote images and keeps cid: and small raster data: images', () => {
    const r = sanitizeMailHtml('<img src="https://t.example/a.png"><img src="cid:logo"><img src="data:image/png;base64,AAAA"><img src="data:image/svg+xml;base64,PHN2Zz4=">');
    expect(r.remoteImages).toEqual(['https://t.example/a.png']);
    expect(r.html).toContain('data-mw-src="https://t.example/a.png"');
    expect(r.html).not.toMatch(/\ssrc="https:/);
    expect(r.html).toContain('src="cid:logo"');
    expect(r.html).toContain('src="data:image/png;base64,AAAA"');
    expect(r.html).not.toContain('svg+xml');
  });

  it('opens links in a new context without a referrer', () => {
    expect(clean('<a href="https://ok.example/">x</a>')).toBe('<a href="https://ok.example/" target="_blank" rel="noopener noreferrer">x</a>');
  });
});

describe('presentHtml', () => {
  it('points cid: at the inline route and remote images at the proxy only when shown', () => {
    const { html } = sanitizeMailHtml('<img src="cid:a&b"><img src="https://t.example/i.png?x=1&y=2">');
    const opts = { inlineUrl: (cid: string) => `/in?cid=${encodeURIComponent(cid)}`, proxyUrl: (u: string) => `/px?u=${encodeURIComponent(u)}` };
    const hidden = presentHtml(html, { ...opts, showRemote: false });
    expect(hidden).toContain('src="/in?cid=a%26b"');
    expect(hidden).not.toContain('/px?');
    const shown = presentHtml(html, { ...opts, showRemote: true });
    expect(shown).toContain(`src="/px?u=${encodeURIComponent('https://t.example/i.png?x=1&y=2')}"`);
  });
});
