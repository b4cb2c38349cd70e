import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../message/image-proxy.js';

/**
 * Why the server must not POST to this push endpoint, or null when it may. A
 * subscription is user input, so without this anyone could make the server send
 * requests into the private network (SSRF). Real push services are public https.
 */
export async function endpointProblem(endpoint: string, allowPrivate: boolean): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return 'is not a valid URL';
  }
  if (allowPrivate) return u.protocol === 'https:' || u.protocol === 'http:' ? null : 'must be an http(s) URL';
  if (u.protocol !== 'https:') return 'must be an https URL of a push service';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  try {
    const addrs = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
    if (addrs.length === 0 || addrs.some((a) => isPrivateAddress(a.address))) return 'must be a public push service';
  } catch {
    return 'is not reachable';
  }
  return null;
}
