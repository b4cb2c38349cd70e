import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { Address } from '@mailwing/shared';
import type { StoredAttachment } from '../../db/types.js';
import { sanitizeMailHtml } from './html-sanitizer.js';

/** What the database keeps of a parsed message, shared by every recipient. */
export interface ParsedContent {
  messageId: string;
  inReplyTo: string;
  references: string;
  subject: string;
  from: Address;
  to: Address[];
  cc: Address[];
  replyTo: Address[];
  date: Date | null;
  snippet: string;
  html: string;
  text: string;
  attachments: StoredAttachment[];
  remoteImages: string[];
  urgent: boolean;
  parseError: string | null;
  /** Lowercase name → first value of the headers mail rules may test (features/mail-rule); not stored. */
  headers: Record<string, string>;
  /**
   * Set when `text` is exactly the parsed message's last `textTail` bytes, UTF-8 with each CRLF as
   * LF (the plain-text shortcut, a body without NUL or broken UTF-8): filing may then keep it once,
   * in the blob (migration 043). What is added to a message after its parse goes into its header
   * block (our trace and Authentication-Results headers), so the stored message ends the same way.
   */
  textTail?: number;
}

const PARSE_TIMEOUT_MS = 30_000;
const MAX_TEXT = 2 * 1024 * 1024;

function addresses(obj: AddressObject | AddressObject[] | undefined): Address[] {
  const list = obj === undefined ? [] : Array.isArray(obj) ? obj : [obj];
  const out: Address[] = [];
  const walk = (items: AddressObject['value']) => {
    for (const a of items) {
      if (a.group) walk(a.group);
      else if (a.address) out.push({ name: a.name ?? '', address: a.address.toLowerCase() });
    }
  };
  for (const o of list) walk(o.value);
  return out;
}

function isUrgent(mail: ParsedMail): boolean {
  // mailparser folds X-Priority, X-MSMail-Priority and Importance into one "priority" header: high, normal or low.
  const priority = String(mail.headers.get('priority') ?? '').toLowerCase();
  return priority === 'high' || priority === 'urgent';
}

/** The first 140 characters of the body's first 2,000, whitespace collapsed. */
function snippetOf(text: string): string {
  // Only the head matters: whitespace is collapsed in a window that grows only while it gives fewer than
  // 140 characters (a window cut mid-word or mid-space still starts exactly as the longer one does).
  for (let n = 400; ; n *= 5) {
    const s = text.slice(0, Math.min(n, 2000)).replace(/\s+/g, ' ').trim();
    if (s.length >= 140 || n >= 2000 || n >= text.length) return s.slice(0, 140);
  }
}

/** Readable text of sanitised HTML, for the snippet of a mail that has no text part. */
function htmlToPlain(html: string): string {
  // The mail's kept style sheet (issue 14) is not text.
  return html.replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, ' ').replace(/<(br|p|div|li|tr|h\d)\b[^>]*>/gi, ' ').replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

// Headers rules never need (trace, signatures, and those already parsed above) are left out,
// and what is kept is bounded, so a hostile header block cannot make the result big.
const SKIP_HEADER = /^(received|dkim-signature|arc-|x-google-|authentication-results|received-spf|from|to|cc|subject|date|message-id|references|in-reply-to|mime-version|content-)/;
const MAX_HEADERS = 40;
const MAX_HEADER_VALUE = 500;

function ruleHeaders(mail: ParsedMail): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const { key, line } of mail.headerLines) {
    if (n >= MAX_HEADERS) break;
    if (!/^[a-z0-9-]+$/.test(key) || SKIP_HEADER.test(key) || Object.hasOwn(out, key)) continue;
    out[key] = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim().slice(0, MAX_HEADER_VALUE);
    n++;
  }
  return out;
}

function messageIdOf(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * Parses a raw message with mailparser (charsets incl. GB2312/GBK/GB18030/Big5/ISO-2022-JP,
 * RFC 2047 words). A message mailparser refuses (over 1,000 parts, a header over 1 MB,
 * a stall) still gets stored: it becomes a placeholder whose only attachment is the
 * original, so nothing is lost and the reader can see why.
 */
export async function parseMail(raw: Buffer | Readable, fallbackFrom: string, size = Buffer.isBuffer(raw) ? raw.length : 0): Promise<ParsedContent> {
  const content = await parseOrFallback(raw, fallbackFrom, size);
  // Looking is cheap; copying the whole content to drop what is almost never there was not.
  return hasNul(content) ? withoutNul(content) : content;
}

// PostgreSQL text and jsonb cannot hold U+0000; a NUL in a mail must not make storing fail.
// eslint-disable-next-line no-control-regex -- matching NUL is the point here
const NUL = /\u0000/g;
function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (Array.isArray(v)) return v.some(hasNul);
  if (v && typeof v === 'object' && !(v instanceof Date)) return Object.values(v).some(hasNul);
  return false;
}
function withoutNul<T>(v: T): T {
  if (typeof v === 'string') return v.replace(NUL, '') as T;
  if (Array.isArray(v)) return v.map(withoutNul) as T;
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutNul(x)])) as T;
  }
  return v;
}

/** How a received message is parsed (the whole of it, or its header block on the plain-text shortcut). */
export const PARSE_OPTIONS = { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: 10 * 1024 * 1024 } as const;

/** The parses whose text is their message's last N bytes as they were decoded above (ParsedContent.textTail). */
const bodyTails = new WeakMap<ParsedMail, number>();

/**
 * mailparser's result for `raw`. A single-part plain-text message in UTF-8 or ASCII, unencoded,
 * has its header block parsed by mailparser and its body decoded here, which gives the same
 * result (test/mail-parse.test.ts compares the two on generated mail): its splitter otherwise
 * walks such a body line by line looking for MIME boundaries it cannot contain, about two
 * thirds of the parse's CPU on a 10 KB letter (issue 13). Anything else is parsed whole.
 */
export async function parsePlainOrWhole(raw: Buffer | Readable): Promise<ParsedMail> {
  const bodyAt = Buffer.isBuffer(raw) ? plainBodyStart(raw) : -1;
  if (!Buffer.isBuffer(raw) || bodyAt < 0) return simpleParser(raw, PARSE_OPTIONS);
  const head = await simpleParser(raw.subarray(0, bodyAt), PARSE_OPTIONS);
  if (!isPlainSinglePart(head)) return simpleParser(raw, PARSE_OPTIONS);
  const body = raw.subarray(bodyAt);
  // mailparser leaves a message without a body without text; its text part is UTF-8 with CRLF as LF.
  if (body.length > 0) head.text = utf8WithLf(body);
  // The database decodes such a body as this does only if it is valid UTF-8 without NUL (which PostgreSQL text cannot hold).
  if (body.length > 0 && body.indexOf(0) < 0 && isUtf8(body)) bodyTails.set(head, body.length);
  return head;
}

/**
 * `body` as UTF-8 text with each CRLF as LF (a lone CR stays), as
 * `toString('utf8').replace(/\r?\n/g, '\n')` gives it. The CRs are dropped from the bytes, so
 * the text is made once: the regular expression's replace allocated ~50 KB per 10 KB letter, about
 * half of the parse worker's allocation per mail, which its scavenges then paid for (issue 13, 2 Dec).
 * Dropping a CR that precedes an LF cannot change how the bytes around it decode: both are ASCII,
 * and an ASCII byte ends any UTF-8 sequence, valid or not, either way.
 */
export function utf8WithLf(body: Buffer): string {
  const cr = body.indexOf(13);
  if (cr < 0) return body.toString('utf8');
  const out = Buffer.allocUnsafe(body.length);
  let o = body.copy(out, 0, 0, cr);
  for (let i = cr; i < body.length; i++) {
    const b = body[i]!;
    if (b !== 13 || body[i + 1] !== 10) out[o++] = b;
  }
  return out.toString('utf8', 0, o);
}

// A header block that names nothing but (at most) a text/plain type, charset and a 7bit/8bit encoding.
const MIME_HEADER = /(?:^|\n)(content-[a-z-]*|mime-version)[ \t]*:/gi;
const PLAIN_TYPE = /^content-type[ \t]*:[ \t]*text\/plain[ \t]*(;[ \t]*charset[ \t]*=[ \t]*"?(utf-8|us-ascii)"?[ \t]*)?\r?$/i;

/**
 * Where the body of a message that looks single-part and plain starts (just after the empty line
 * that ends its header block, as mailparser's splitter finds it), or -1. A cheap look at the raw
 * header block, so that a multipart mail is not parsed twice; `isPlainSinglePart` decides.
 */
export function plainBodyStart(raw: Buffer): number {
  let end: number;
  if (raw[0] === 0x0a) end = 1;
  else if (raw[0] === 0x0d && raw[1] === 0x0a) end = 2;
  else {
    const lf = raw.indexOf('\n\n');
    const crlf = raw.indexOf('\n\r\n');
    if (lf < 0 && crlf < 0) return -1;
    end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 3 : lf + 2;
  }
  const head = raw.toString('latin1', 0, end);
  for (const m of head.matchAll(MIME_HEADER)) {
    const name = m[1]!.toLowerCase();
    if (name === 'mime-version' || name === 'content-transfer-encoding') continue;
    if (name !== 'content-type') return -1;
    const line = head.slice(m.index + (head[m.index] === '\n' ? 1 : 0), head.indexOf('\n', m.index + 1));
    if (!PLAIN_TYPE.test(line)) return -1;
  }
  return end;
}

function isPlainSinglePart(mail: ParsedMail): boolean {
  // Only a type and an encoding, each at most once: which of two mailparser reads is its own business.
  const seen = new Set<string>();
  for (const { key } of mail.headerLines) {
    if (!key.startsWith('content-')) continue;
    if ((key !== 'content-type' && key !== 'content-transfer-encoding') || seen.has(key)) return false;
    seen.add(key);
  }
  const type = mail.headers.get('content-type') as { value: string; params: Record<string, string> } | undefined;
  if (type && (type.value !== 'text/plain' || Object.keys(type.params).some((k) => k !== 'charset')
    || !['utf-8', 'us-ascii', undefined].includes(type.params.charset?.toLowerCase()))) return false;
  const encoding = mail.headers.get('content-transfer-encoding');
  return encoding === undefined || ['7bit', '8bit'].includes(String(encoding).toLowerCase());
}

/** `raw` is the message, or a stream of it (a big one, read from the blob store) `size` bytes long. */
async function parseOrFallback(raw: Buffer | Readable, fallbackFrom: string, size: number): Promise<ParsedContent> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const mail = await Promise.race([
      parsePlainOrWhole(raw),
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('parse timed out')), PARSE_TIMEOUT_MS); }),
    ]);
    const text = (mail.text ?? '').slice(0, MAX_TEXT);
    const tail = text.length === mail.text?.length ? bodyTails.get(mail) : undefined;
    const sanitized = typeof mail.html === 'string' ? sanitizeMailHtml(mail.html, { keepStyles: true }) : { html: '', remoteImages: [] };
    const attachments: StoredAttachment[] = mail.attachments.map((a, index) => ({
      index,
      name: a.filename ?? (a.contentType === 'message/rfc822' ? `message-${index + 1}.eml` : `attachment-${index + 1}`),
      size: a.size,
      contentType: a.contentType || 'application/octet-stream',
      cid: a.contentId ? a.contentId.replace(/^<|>$/g, '') : null,
      // An iMIP invitation's text/calendar alternative (RFC 6047 §2.4) is a body part, not a file: the
      // read page shows it as the invitation card, so it is not listed as an unnamed "attachment-1".
      inline: (a.contentDisposition === 'inline' && Boolean(a.contentId) && a.related === true)
        || (/^(text\/calendar|application\/ics)$/i.test(a.contentType) && !a.filename && a.contentDisposition !== 'attachment'),
    }));
    const from = addresses(mail.from)[0] ?? { name: '', address: fallbackFrom.toLowerCase() };
    return {
      messageId: messageIdOf(mail.messageId),
      inReplyTo: messageIdOf(mail.inReplyTo),
      references: Array.isArray(mail.references) ? mail.references.join(' ') : (mail.references ?? ''),
      subject: (mail.subject ?? '').slice(0, 998),
      from,
      to: addresses(mail.to),
      cc: addresses(mail.cc),
      replyTo: addresses(mail.replyTo),
      date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
      snippet: snippetOf(text || htmlToPlain(sanitized.html)),
      html: sanitized.html,
      text,
      attachments,
      remoteImages: sanitized.remoteImages,
      urgent: isUrgent(mail),
      parseError: null,
      headers: ruleHeaders(mail),
      ...(tail === undefined ? {} : { textTail: tail }),
    };
  } catch (err) {
    return unreadable(size, fallbackFrom, err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
    if (!Buffer.isBuffer(raw)) raw.destroy();
  }
}

/** A stand-in for a message that cannot be parsed: says why, and carries the original whole. */
export function unreadable(size: number, from: string, reason: string): ParsedContent {
  const text = `This message could not be read (${reason}). The original is attached unchanged as original.eml.`;
  return {
    messageId: '', inReplyTo: '', references: '', subject: '(message could not be read)', from: { name: '', address: from.toLowerCase() },
    to: [], cc: [], replyTo: [], date: null, snippet: snippetOf(text), html: '', text,
    attachments: [{ index: -1, name: 'original.eml', size, contentType: 'message/rfc822', cid: null, inline: false }],
    remoteImages: [], urgent: false, parseError: reason, headers: {},
  };
}

/** The bytes of attachment `index` of a raw message; -1 is the raw message itself. */
export async function extractAttachment(raw: Buffer, index: number): Promise<Buffer | null> {
  if (index < 0) return raw;
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  return mail.attachments[index]?.content ?? null;
}

/** Several attachments of one raw message, parsed once. Missing indices are left out. */
export async function extractAttachments(raw: Buffer, indices: number[]): Promise<Map<number, Buffer>> {
  const out = new Map<number, Buffer>();
  if (indices.includes(-1)) out.set(-1, raw);
  if (indices.some((i) => i >= 0)) {
    const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
    for (const i of indices) if (i >= 0 && mail.attachments[i]) out.set(i, mail.attachments[i].content);
  }
  return out;
}
