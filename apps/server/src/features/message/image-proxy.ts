import type { OutboundGuard } from '../../net/guarded-fetch.js';

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
// Image hosts and CDNs redirect; each hop is checked again by the guard.
const MAX_REDIRECTS = 3;
const IMAGE_TYPE = /^image\/(png|jpe?g|gif|webp|bmp|x-icon|avif)\b/i;

export interface ProxiedImage { contentType: string; body: Buffer }

/**
 * Fetches a remote image on the reader's behalf, so the sender never sees the
 * reader's address or cookies. Only images, only http(s), bounded in size and time,
 * and only to addresses the guard allows (SSRF): a refusal is thrown as
 * OutboundRefused, anything else that goes wrong is null.
 */
export async function fetchImage(url: string, guard: OutboundGuard): Promise<ProxiedImage | null> {
  const res = await guard.fetch(url, {
    headers: { accept: 'image/*' }, timeoutMs: TIMEOUT_MS, maxBytes: MAX_IMAGE_BYTES, maxRedirects: MAX_REDIRECTS,
    wantBody: (status, headers) => status === 200 && IMAGE_TYPE.test(headers['content-type'] ?? ''),
  });
  const type = res.headers['content-type'] ?? '';
  if (res.status !== 200 || !IMAGE_TYPE.test(type)) return null;
  return { contentType: type, body: res.body };
}
