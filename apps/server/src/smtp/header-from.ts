import { domainToASCII } from 'node:url';
import addressparser from 'nodemailer/lib/addressparser/index.js';

const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * The header block, unfolded (RFC 5322 §2.2.3), at most 1 MB of it. It ends at the first
 * empty line (CRLF or bare LF). The end is found in the bytes, so only the header block
 * becomes a string: both checks of every received mail call this (issue 13).
 */
function headerLines(raw: Buffer): string[] {
  const bytes = raw.subarray(0, MAX_HEADER_BYTES);
  const end = headerEnd(bytes);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString('latin1').replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/);
}

/** Where the first `\r?\n\r?\n` starts in `bytes`, or -1. */
function headerEnd(bytes: Buffer): number {
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) {
    if (bytes[bytes[i + 1] === 0x0d ? i + 2 : i + 1] === 0x0a) return i > 0 && bytes[i - 1] === 0x0d ? i - 1 : i;
  }
  return -1;
}

// RFC 2047 §5 keeps encoded words out of an addr-spec, but mailparser decodes one
// that decodes to a plain address, and shows that: so we must see it too.
function decodeWord(s: string): string {
  return s.replace(/=\?[^?]+\?([bq])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('latin1')
      : text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));
}

/** The domain in ASCII (punycode) and lower case, so one spelling matches the other. */
export function domainOf(address: string): string {
  const d = address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase().replace(/\.$/, '');
  return domainToASCII(d) || d;
}

/**
 * Every domain a reader could be shown as the sender: the addresses of every From
 * header, inside groups too, with encoded-word addresses decoded. Wider than what
 * mailauth reads for DMARC (it skips groups), because the reader does not skip them.
 */
export function headerFromDomains(raw: Buffer): string[] {
  return domainsOf(headerFromAddresses(raw));
}

/** The distinct domains of `addresses`, as domainOf spells them. */
export function domainsOf(addresses: string[]): string[] {
  return [...new Set(addresses.map(domainOf))].filter(Boolean);
}

/** The addresses of every From header (lower case), for the company block/allow lists. */
export function headerFromAddresses(raw: Buffer): string[] {
  const out = new Set<string>();
  for (const line of headerLines(raw)) {
    const m = /^from[ \t]*:(.*)$/is.exec(line);
    if (!m) continue;
    for (const a of addressparser(m[1] ?? '', { flatten: true })) {
      const address = (a.address.includes('=?') ? decodeWord(a.address) : a.address).trim().toLowerCase();
      if (address.includes('@')) out.add(address);
    }
  }
  return [...out];
}
