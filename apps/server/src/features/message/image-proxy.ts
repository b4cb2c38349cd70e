import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 10_000;

/** Loopback, private, link-local, CGNAT and unique-local ranges: never proxied in production (SSRF). */
export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  const v = ip.toLowerCase();
  return v === '::1' || v === '::' || v.startsWith('fc') || v.startsWith('fd') || v.startsWith('fe80') || v.startsWith('::ffff:127.') || v.startsWith('::ffff:10.') || v.startsWith('::ffff:192.168.');
}

export interface ProxiedImage { contentType: string; body: Buffer }

/**
 * Fetches a remote image on the reader's behalf, so the sender never sees the
 * reader's address or cookies. Only images, only http(s), bounded in size and time.
 */
export async function fetchImage(url: string, allowPrivate: boolean): Promise<ProxiedImage | null> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!allowPrivate) {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const addrs = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
    if (addrs.some((a) => isPrivateAddress(a.address))) return null;
  }
  const res = await fetch(u, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'image/*' } });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || !/^image\/(png|jpe?g|gif|webp|bmp|x-icon|avif)\b/i.test(type)) return null;
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_IMAGE_BYTES) return null;
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_IMAGE_BYTES) return null;
  return { contentType: type, body };
}
