import { describe, expect, it } from 'vitest';
import { decodeText } from '../pages/attach/text-view';
import { avatarColour } from './avatar';
import { previewHref, previewKind } from './preview-kind';

describe('previewKind (issue 14)', () => {
  it('previews raster images, PDF, audio, playable video and text or code; never SVG or Office', () => {
    expect(['a.PNG', 'b.jpeg', 'c.webp', 'd.gif'].map(previewKind)).toEqual(['image', 'image', 'image', 'image']);
    expect(previewKind('report.pdf')).toBe('pdf');
    expect(previewKind('voice.m4a')).toBe('audio');
    expect(previewKind('clip.webm')).toBe('video');
    expect(['notes.txt', 'page.html', 'data.json', 'main.py'].map(previewKind)).toEqual(['text', 'text', 'text', 'text']);
    // An SVG is a document that can carry script; Office files have no safe in-app viewer.
    expect(['logo.svg', 'letter.docx', 'sheet.xlsx', 'deck.pptx', 'movie.avi', 'archive.zip', 'noext'].map(previewKind))
      .toEqual(['none', 'none', 'none', 'none', 'none', 'none', 'none']);
  });

  it('sends video to the video module page and the rest to the preview page', () => {
    expect(previewHref({ id: '7.1', name: 'clip.mp4', size: 10 })).toBe('/pages/modules/video/index?id=7.1&name=clip.mp4&size=10');
    expect(previewHref({ id: '12', name: 'a b.pdf', size: 3, upload: true })).toBe('/pages/attach/preview?id=12&name=a+b.pdf&size=3&upload=1');
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 and a declared charset, and refuses binary', () => {
    expect(decodeText(new TextEncoder().encode('<b>你好</b>').buffer as ArrayBuffer, 'text/plain; charset=utf-8')).toBe('<b>你好</b>');
    const gbk = new Uint8Array([0xc4, 0xe3, 0xba, 0xc3]);
    expect(decodeText(gbk.buffer, 'text/plain; charset=gbk')).toBe('你好');
    expect(decodeText(new Uint8Array([0x50, 0x4b, 0, 3]).buffer, 'application/octet-stream')).toBeNull();
  });
});

describe('avatarColour', () => {
  it('is the same for an address however it is spelled, and spreads addresses over the palette', () => {
    expect(avatarColour('Alice@Demo.test')).toBe(avatarColour(' alice@demo.test'));
    const colours = new Set(Array.from({ length: 40 }, (_, i) => avatarColour(`user${i}@demo.test`)));
    expect(colours.size).toBeGreaterThan(6);
  });
});
