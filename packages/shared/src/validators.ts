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
