import net from 'node:net';
import tls from 'node:tls';
import { OutboundRefused, type AddressPolicy } from '../../net/ssrf.js';
import { CollectError } from './collect-error.js';

export type TlsMode = 'tls' | 'starttls' | 'none';

export interface RemoteEndpoint {
  host: string;
  port: number;
  tls: TlsMode;
}

export interface DialOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  ca?: string | Buffer;
}

/**
 * The address to connect to for `host`, checked against the outbound policy (ssrf.ts):
 * a user must not make the server log in to something on its own network.
 */
export async function resolveRemote(host: string, policy: AddressPolicy): Promise<string> {
  try {
    const [first] = await policy.targets(host);
    return first!.address;
  } catch (err) {
    if (err instanceof OutboundRefused) {
      throw new CollectError(err.reason === 'outbound.unresolvable' ? 'dns' : 'address', err.message);
    }
    throw err;
  }
}

/** Opens TCP (implicit TLS when asked) to the checked address; the certificate is checked against the host name. */
export function openSocket(address: string, ep: RemoteEndpoint, o: DialOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const servername = net.isIP(ep.host) ? undefined : ep.host;
    const socket = ep.tls === 'tls'
      ? tls.connect({ host: address, port: ep.port, servername, ca: caList(o.ca), checkServerIdentity: (_h, cert) => tls.checkServerIdentity(ep.host, cert) })
      : net.connect({ host: address, port: ep.port });
    const timer = setTimeout(() => { socket.destroy(); reject(new CollectError('timeout', `no connection to ${ep.host}:${ep.port} within ${o.timeoutMs} ms`)); }, o.timeoutMs);
    socket.once(ep.tls === 'tls' ? 'secureConnect' : 'connect', () => { clearTimeout(timer); resolve(socket); });
    socket.once('error', (err) => { clearTimeout(timer); reject(err); });
  });
}

/** STARTTLS / STLS: the plain socket, after the server said go ahead, wrapped in TLS. */
export function upgradeSocket(plain: net.Socket, ep: RemoteEndpoint, o: DialOptions): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const servername = net.isIP(ep.host) ? undefined : ep.host;
    const socket = tls.connect({ socket: plain, servername, ca: caList(o.ca), checkServerIdentity: (_h, cert) => tls.checkServerIdentity(ep.host, cert) });
    const timer = setTimeout(() => { socket.destroy(); reject(new CollectError('timeout', `TLS handshake with ${ep.host} took over ${o.timeoutMs} ms`)); }, o.timeoutMs);
    socket.once('secureConnect', () => { clearTimeout(timer); resolve(socket); });
    socket.once('error', (err) => { clearTimeout(timer); reject(new CollectError('tls', err.message)); });
  });
}

/** Our extra CAs are added to Node's public ones, not put in their place. */
function caList(ca: string | Buffer | undefined): (string | Buffer)[] | undefined {
  return ca ? [...tls.rootCertificates, ca] : undefined;
}
