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

describe('a mail’s own style sheets (issue 14)', () => {
  const styled = (html: string) => sanitizeMailHtml(html, { keepStyles: true }).html;
  const sheetOf = (html: string) => /<style[^>]*>([\s\S]*?)<\/style>/.exec(styled(html))?.[1] ?? '';

  it('keeps layout CSS, scoped to the mail’s wrapper; html, body and :root become the wrapper', () => {
    const css = sheetOf('<style>body{background:#f4f4f4} .wrap{width:640px;margin:0 auto} html body td.col, h1 > a{color:#c00} :root{color:#333} @media (max-width:600px){.wrap{width:100%!important}}</style><div class="wrap">x</div>');
    expect(css).toContain('.mw-mail{background:#f4f4f4}');
    expect(css).toContain('.mw-mail .wrap{width:640px;margin:0 auto}');
    expect(css).toMatch(/\.mw-mail td\.col, \.mw-mail h1 > a\{color:#c00\}/);
    expect(css).toContain('.mw-mail{color:#333}');
    expect(css).toMatch(/@media \(max-width:600px\)\{\.mw-mail \.wrap\{width:100%!important\}\}/);
    expect(styled('<style>p{color:red}</style><p class="x">y</p>')).toMatch(/<\/style><p class="x">y<\/p>$/);
  });

  it('drops remote url(), @import, @font-face, expressions and bindings, however they are spelled', () => {
    const css = sheetOf(`<style>
      @import url(https://t.example/a.css); @import "https://t.example/b.css";
      @font-face{font-family:x;src:url(https://t.example/f.woff)}
      .a{background:url(https://t.example/p.gif);color:red}
      .b{background-image:URL( "https://t.example/q.gif" )} .c{background:\\75 rl(https://t.example/e.gif)}
      .d{width:expression(alert(1))} .e{behavior:url(x.htc);-moz-binding:url(x.xml#y)}
      .f{list-style-image:url(https://t.example/l.png)} .g{background:image-set("https://t.example/i.png" 1x)}
      @media screen{.h{background:url(//t.example/m.gif)}} @supports (display:grid){.i{border-image:url(https://t.example/b.png) 30}}
      .j\\:hover{color:blue} @namespace svg url(http://www.w3.org/2000/svg); @keyframes k{from{color:red}}
    </style><p>x</p>`);
    expect(css).not.toMatch(/url|t\.example|@import|@font-face|expression|behavior|binding|image-set|@namespace|@keyframes|\\/i);
    expect(css).toContain('.mw-mail .a{color:red}');
  });

  it('refuses fixed and sticky overlays, in sheets and inline', () => {
    const html = styled('<style>.o{position:fixed;top:0;left:0;width:100%;height:100%;z-index:99999} .s{position : STICKY} .r{position:relative}</style><div class="o" style="position:fixed;top:0">fake login</div><div style="position:sticky">s</div><div style="position:absolute;top:3px">a</div>');
    expect(html).not.toMatch(/fixed|sticky/i);
    expect(html).toContain('.mw-mail .r{position:relative}');
    expect(html).toContain('style="position:absolute;top:3px"');
  });

  it('cannot close its <style> element or smuggle markup out of it', () => {
    const html = styled('<style>p{color:red}</style ><style>a{font-family:"</style><script>alert(1)</script>"}</style><p>x</p>');
    expect(html).not.toMatch(/<script|alert/);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    const escaped = styled('<style>td::after{content:"\\3c/style>"} td{color:red}</style><p>x</p>');
    expect(escaped.match(/<\/style>/g)).toHaveLength(1);
    expect(escaped).not.toMatch(/3c\/style/);
  });

  it('keeps inline CSS newsletters use, still without url() or escapes', () => {
    const out = clean('<td style="background:#1a73e8;box-sizing:border-box;border-top-left-radius:4px;background-image:url(https://t.example/x.png);color:\\72 ed">x</td>');
    expect(out).toContain('background:#1a73e8');
    expect(out).toContain('box-sizing:border-box');
    expect(out).not.toMatch(/url|t\.example|\\/);
  });

  it('only received mail keeps sheets: editors, notes and signatures take none', () => {
    expect(clean('<style>p{color:red}</style><p>x</p>')).toBe('<p>x</p>');
  });
});
