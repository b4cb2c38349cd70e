import { describe, expect, it } from 'vitest';
import { onlyInlineImages } from './note-image';

describe('a decrypted note before the editor', () => {
  it('keeps inline raster images and drops every image that would be fetched', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const html = [
      `<p>a<img src="${png}" alt="x"></p>`,
      '<img src="https://track.example/p.gif"><img src="//track.example/q.gif"><img src="/h5/x">',
      '<img src="data:image/svg+xml;base64,PHN2Zz4="><img src="javascript:alert(1)"><img>',
    ].join('');
    const out = onlyInlineImages(html);
    expect(out.match(/<img/g)).toHaveLength(1);
    expect(out).toContain(png);
    expect(out).not.toMatch(/track\.example|h5\/x|svg|javascript/);
  });
});
