// Validation rules of spec §5, shared by the client forms and the server schemas.

// A practical address check: one @, a dotted domain, no spaces or angle brackets.
// RFC 5322 allows far more, but no real mailbox uses the rest, and a stricter
// check gives users a useful "invalid address" at the form.
const EMAIL_RE = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_RE.test(value);
}

export function isSixDigitCode(value: string): boolean {
  return /^\d{6}$/.test(value);
}

export function isMobile(value: string): boolean {
  return /^1[3-9]\d{9}$/.test(value);
}

export function isUrl(value: string): boolean {
  return /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value);
}

export function isDigits(value: string): boolean {
  return /^\d+$/.test(value);
}

export function isNumber(value: string): boolean {
  return /^-?(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d+)?$/.test(value) && value !== '';
}

export function isAmount(value: string): boolean {
  return /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/.test(value);
}

export function isChinese(value: string): boolean {
  return /^[\u4e00-\u9fa5]+$/.test(value);
}

export function isLetters(value: string): boolean {
  return /^[A-Za-z]+$/.test(value);
}

export function isLandline(value: string): boolean {
  return /^(?:\d{3,4}-)?\d{7,8}$/.test(value);
}

export function lengthBetween(value: string, min: number, max: number): boolean {
  const n = [...value].length;
  return n >= min && n <= max;
}

/** Characters a file or folder name may not contain (spec §5). */
export const FORBIDDEN_NAME_CHARS = ['/', '?', ':', '*', '"', '<', '>', '|'] as const;

export function hasForbiddenNameChar(name: string): boolean {
  return FORBIDDEN_NAME_CHARS.some((c) => name.includes(c));
}

export function isVideoFile(name: string): boolean {
  return /\.(mp4|mov|m4v|3gp|avi|wmv|flv|mkv|webm)$/i.test(name);
}

export function isImageFile(name: string): boolean {
  return /\.(png|jpe?g|gif|bmp|webp|svg|heic)$/i.test(name);
}

/** Splits "a@x, b@y; c@z" into trimmed, non-empty parts. */
export function splitAddresses(value: string): string[] {
  return value.split(/[,;，；]/).map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * One recipient as typed: "bob@x.com" or "Bob Lee <bob@x.com>". Returns null when
 * the address part is not a valid mailbox. Quoted names with commas are not
 * supported: the client sends one chip per address, so they never arrive joined.
 */
export function parseAddress(value: string): { name: string; address: string } | null {
  const m = /^\s*(?:"?([^"<]*?)"?\s*)?<([^<>\s]+)>\s*$/.exec(value);
  const name = m ? (m[1] ?? '').trim() : '';
  const address = (m ? m[2]! : value).trim().toLowerCase();
  return isEmail(address) ? { name, address } : null;
}

/** Attachment limits of spec §9 that need no configuration. */
export function attachmentNameProblem(name: string): 'empty' | 'forbidden' | null {
  if (name.trim() === '') return 'empty';
  // Control characters (NUL, CR, LF …) have no place in a file name and break headers and logs.
  return hasForbiddenNameChar(name) || name.includes('\\') || /\p{Cc}/u.test(name) ? 'forbidden' : null;
}

/**
 * The lowercase extension of a file name without the dot, or '', as the receiving
 * system will see it: Windows drops trailing dots and spaces ("evil.exe." runs as
 * evil.exe), and invisible format characters (zero-width, bidi marks) change nothing
 * for it either, so they are removed before the extension is read.
 */
export function fileExtension(name: string): string {
  const clean = name.replace(/[\p{Cc}\p{Cf}]/gu, '').replace(/[.\s]+$/u, '');
  const dot = clean.lastIndexOf('.');
  return dot > 0 ? clean.slice(dot + 1).toLowerCase() : '';
}

/** Subject prefixes that mark replies and forwards, in the languages our users write. */
const THREAD_PREFIX = /^\s*(?:(?:re|fw|fwd|aw|sv|答复|回复|转发)\s*(?:\[\d+\])?\s*[:：]\s*)+/i;

/** The subject a conversation is grouped by: reply and forward prefixes removed, case folded. */
export function threadSubject(subject: string): string {
  return subject.replace(THREAD_PREFIX, '').trim().toLowerCase();
}
