import { apiUrl, download } from './request';

/**
 * A file the preview pages show (issue 14): an attachment of a received or sent mail
 * ("<mailId>.<index>"), or an upload of the mail being written. Its bytes always come
 * from the server's user-content routes, which decide the served type from the bytes
 * (docs/security.md): the client embeds them, never opens them as a document.
 */
export interface PreviewFile { id: string; name: string; size: number; upload?: boolean }

const route = (f: Pick<PreviewFile, 'upload'>) => (f.upload ? '/write/file' : '/attach/download');

/** The URL an <img>, <video> or <audio> embeds (inline=1: shown when the server's allowlist says so). */
export function previewUrl(f: Pick<PreviewFile, 'id' | 'upload'>): string {
  return apiUrl(route(f), f.upload ? { id: f.id } : { id: f.id, inline: 1 });
}

/** Saves the file (the server sends it as an attachment). */
export function saveFile(f: PreviewFile): void {
  download(route(f), { id: f.id }, f.name);
}

export class PreviewError extends Error {
  constructor(readonly why: 'failed' | 'tooLarge' | 'notPreviewable') {
    super(why);
  }
}

/**
 * The file's bytes and the type the server served them as, for pdf.js and the text
 * view. At most `maxBytes` are taken: a larger file is refused before it is read.
 */
export async function fetchPreviewBytes(f: PreviewFile, maxBytes: number, signal?: AbortSignal): Promise<{ data: ArrayBuffer; type: string }> {
  if (f.size > maxBytes) throw new PreviewError('tooLarge');
  let res: Response;
  try {
    res = await fetch(previewUrl(f), { signal, credentials: 'omit' });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PreviewError('failed');
  }
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  // API refusals come back as a JSON envelope (file gone, not the caller's).
  if (!res.ok || type.startsWith('application/json')) throw new PreviewError('failed');
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > maxBytes) throw new PreviewError('tooLarge');
  const data = await res.arrayBuffer();
  if (data.byteLength > maxBytes) throw new PreviewError('tooLarge');
  return { data, type };
}
