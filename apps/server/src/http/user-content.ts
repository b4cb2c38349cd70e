import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { detectMimeType } from 'nodemailer/lib/mime-funcs';
import type { Readable } from 'node:stream';

/**
 * The one owner of how bytes that users or mail senders supplied leave this server
 * (issue 12, finding 1). Such bytes are served from the app's own origin, so if a
 * browser ever treated them as a document with script (HTML, SVG, XSL, XML, any
 * JavaScript type), that script would read the session token. Three layers hold:
 *
 * 1. The type is decided here from the content, never from the uploader or the mail.
 * 2. Only an allowlist (raster images, PDF, plain text, audio, video) is ever sent
 *    inline; everything else is application/octet-stream with attachment.
 * 3. Every file response carries `CSP: sandbox` (a unique opaque origin, no script)
 *    and nosniff, so even a wrongly allowed type runs nothing on our origin.
 */

// Types a browser renders as media or text, never as a scripted document.
const INLINE_MEDIA = new Set([
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif',
  'application/pdf',
  'audio/mpeg', 'audio/ogg', 'audio/wav', 'audio/x-wav', 'audio/flac', 'audio/x-flac', 'audio/mp4', 'audio/x-m4a', 'audio/aac', 'audio/webm', 'audio/opus',
  'video/mp4', 'video/webm', 'video/ogg', 'video/quicktime', 'video/x-m4v',
]);

const TEXT_EXTENSIONS = new Set(['txt', 'text', 'log', 'csv', 'tsv', 'md', 'ini', 'conf', 'cfg']);

/**
 * The policy on every user-content response. `sandbox` without allow-scripts gives
 * the response an opaque origin where nothing runs. Chromium's own image, PDF and
 * media viewers still show a file opened directly under it (checked at 390 px).
 * It does not apply where the app embeds the file (<img>, <video>): those never run it.
 */
export const USER_CONTENT_CSP = "sandbox; default-src 'none'";

const extension = (name: string) => /\.([A-Za-z0-9]{1,10})$/.exec(name.trim())?.[1]?.toLowerCase() ?? '';

/**
 * The type to store for an uploaded file: what its bytes are (magic numbers), or,
 * for formats without a signature (text, csv), what its name says. The client's
 * declared type is ignored: it is whatever the uploader wanted it to be.
 */
export async function detectType(data: Buffer, name: string): Promise<string> {
  const sniffed = await fileTypeFromBuffer(data).catch(() => undefined);
  if (sniffed) return sniffed.mime;
  const byName = detectMimeType(name) || 'application/octet-stream';
  // A name that promises a format with a signature the bytes do not have is a disguise.
  return INLINE_MEDIA.has(byName) ? 'application/octet-stream' : byName;
}

/**
 * The type to send inline, or null when the file must be downloaded. Decided from
 * the content; a declared `text/plain` (or a text file name) counts only when the
 * bytes have no signature of another format and no NUL bytes.
 */
export async function inlineType(data: Buffer, name: string, declared: string): Promise<string | null> {
  const sniffed = await fileTypeFromBuffer(data).catch(() => undefined);
  if (sniffed) return INLINE_MEDIA.has(sniffed.mime) ? sniffed.mime : null;
  const declaredBase = declared.split(';')[0]!.trim().toLowerCase();
  const texty = declaredBase === 'text/plain' || TEXT_EXTENSIONS.has(extension(name));
  if (!texty || data.subarray(0, 8192).includes(0)) return null;
  // Keep a declared charset (mail in GBK stays readable), but only a plain token.
  const charset = /charset="?([A-Za-z0-9._-]{1,40})"?/i.exec(declared)?.[1] ?? 'utf-8';
  return `text/plain; charset=${charset}`;
}

export interface UserFile { body: Buffer; name: string; declaredType: string }

/**
 * Sends user-supplied bytes: inline only when asked and the content is on the allowlist.
 * A Range request gets 206 with that slice (issue 14): a <video> seeks by asking for
 * ranges, and without them Chromium plays a mail's video but cannot jump in it.
 */
export async function sendUserFile(reply: FastifyReply, file: UserFile, opts: { inline: boolean; cache: string; range?: string }): Promise<FastifyReply> {
  const type = opts.inline ? await inlineType(file.body, file.name, file.declaredType) : null;
  userContentHeaders(reply)
    .header('Content-Type', type ?? 'application/octet-stream')
    .header('Content-Disposition', contentDisposition(file.name || 'file', { type: type ? 'inline' : 'attachment' }))
    .header('Cache-Control', opts.cache)
    .header('Accept-Ranges', 'bytes');
  const size = file.body.length;
  const range = parseRange(opts.range, size);
  if (range === 'unsatisfiable') return reply.status(416).header('Content-Range', `bytes */${size}`).send();
  if (range) {
    return reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .send(file.body.subarray(range.start, range.end + 1));
  }
  return reply.send(file.body);
}

/** The headers every response carrying user content gets, whatever its type. */
export function userContentHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', USER_CONTENT_CSP)
    .header('X-Content-Type-Options', 'nosniff');
}

/** A stored file too large to hold in memory: `head` (its first bytes) decides the type, `open` reads it or a range of it. */
export interface UserStream { name: string; size: number; declaredType: string; head: Buffer; open(range?: { start: number; end: number }): Promise<Readable> }

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range (RFC 9110 §14.1.2); several ranges, or a bad one, get the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** Sends a stored file streamed, with the same type rules as `sendUserFile`, answering a Range request with 206. */
export async function sendUserStream(reply: FastifyReply, file: UserStream, opts: { inline: boolean; cache: string; range?: string }): Promise<FastifyReply> {
  const type = opts.inline ? await inlineType(file.head, file.name, file.declaredType) : null;
  userContentHeaders(reply)
    .header('Content-Type', type ?? 'application/octet-stream')
    .header('Content-Disposition', contentDisposition(file.name || 'file', { type: type ? 'inline' : 'attachment' }))
    .header('Cache-Control', opts.cache)
    .header('Accept-Ranges', 'bytes');
  const range = parseRange(opts.range, file.size);
  if (range === 'unsatisfiable') return reply.status(416).header('Content-Range', `bytes */${file.size}`).send();
  if (range) {
    return reply.status(206).header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('Content-Length', range.end - range.start + 1).send(await file.open(range));
  }
  return reply.header('Content-Length', file.size).send(file.size === 0 ? '' : await file.open());
}
