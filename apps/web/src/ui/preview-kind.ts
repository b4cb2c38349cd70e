/**
 * What the app can show of a file in its own preview (issue 14). Decided from the name
 * for the button and the icon; the server still decides what it serves inline from the
 * bytes, and a preview whose bytes are refused falls back to download and forward.
 */
export type PreviewKind = 'image' | 'pdf' | 'text' | 'audio' | 'video' | 'none';

// Raster images only: an SVG is a document that can carry script, so it is never shown
// (the server serves it as a download anyway), and HEIC does not decode in most browsers.
const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp', 'avif']);
const AUDIO = new Set(['mp3', 'wav', 'aac', 'flac', 'ogg', 'oga', 'm4a', 'opus']);
// What phone browsers play in <video>; avi, wmv, flv and mkv mostly do not.
const VIDEO = new Set(['mp4', 'm4v', 'mov', 'webm', 'ogv']);
// Text and code: shown as text in a <pre>, never interpreted (HTML and XML are code here).
const TEXT = new Set([
  'txt', 'text', 'log', 'md', 'csv', 'tsv', 'ini', 'conf', 'cfg', 'json', 'xml', 'html', 'htm', 'css', 'js', 'mjs', 'ts', 'tsx', 'jsx',
  'py', 'java', 'kt', 'c', 'h', 'cpp', 'hpp', 'cs', 'go', 'rs', 'rb', 'php', 'sh', 'bat', 'ps1', 'sql', 'yml', 'yaml', 'toml', 'properties', 'vcf', 'ics', 'eml', 'diff', 'patch',
]);

export const extensionOf = (name: string) => /\.([a-z0-9]{1,10})$/i.exec(name.trim())?.[1]?.toLowerCase() ?? '';

export function previewKind(name: string): PreviewKind {
  const ext = extensionOf(name);
  if (IMAGE.has(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  if (AUDIO.has(ext)) return 'audio';
  if (VIDEO.has(ext)) return 'video';
  if (TEXT.has(ext)) return 'text';
  return 'none';
}

/** Image attachments up to this size show as a thumbnail of themselves; larger ones keep the icon. */
export const THUMB_MAX_BYTES = 2 * 1024 * 1024;
/** The largest PDF fetched for pdf.js, and the largest text shown (the rest is cut). */
export const PDF_MAX_BYTES = 30 * 1024 * 1024;
export const TEXT_MAX_BYTES = 5 * 1024 * 1024;
export const TEXT_SHOWN_CHARS = 200_000;

export const PREVIEW_ROUTE = '/pages/attach/preview';
export const ATTACH_LIST_ROUTE = '/pages/attach/index';
export const VIDEO_ROUTE = '/pages/modules/video/index';

/** The preview page's address for a file (video has its own module page, as in the spec). */
export function previewHref(f: { id: string; name: string; size: number; upload?: boolean }): string {
  const q = new URLSearchParams({ id: f.id, name: f.name, size: String(f.size) });
  if (f.upload) q.set('upload', '1');
  return `${previewKind(f.name) === 'video' ? VIDEO_ROUTE : PREVIEW_ROUTE}?${q.toString()}`;
}
