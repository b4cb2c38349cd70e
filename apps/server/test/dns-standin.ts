import dgram from 'node:dgram';
import * as packet from 'dns-packet';

// A loopback DNS server for delivery tests (the outbound queue's resolver is pointed
// at it with DNS_SERVERS). It answers MX, A and AAAA questions from a table; other names
// get NXDOMAIN, and a name with records of other types gets an empty answer (NODATA).
// An `a` given as a function is asked on every query (a name that rebinds); every
// question is logged in `queries`. TXT records serve SPF, DKIM and DMARC for inbound
// sender authentication; a name marked `servfail` answers SERVFAIL, and one marked
// `silent` never answers, to stand for a broken or unreachable DNS server.

type Addresses = string[] | (() => string[]);
export type Zone = Record<string, {
  mx?: { priority: number; exchange: string }[]; a?: Addresses; aaaa?: string[];
  /** One entry per TXT record, split into 255-byte strings as RFC 1035 §3.3.14 requires. */
  txt?: string[];
  servfail?: boolean;
  silent?: boolean;
}>;

const chunks = (s: string) => Array.from({ length: Math.max(1, Math.ceil(s.length / 255)) }, (_, i) => s.slice(i * 255, (i + 1) * 255));

export async function startDnsStandIn(zone: Zone): Promise<{ server: string; queries: { name: string; type: string }[]; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  const queries: { name: string; type: string }[] = [];
  socket.on('message', (msg, rinfo) => {
    const query = packet.decode(msg);
    const q = query.questions?.[0];
    if (q) queries.push({ name: q.name.toLowerCase(), type: q.type });
    const entry = q ? zone[q.name.toLowerCase()] : undefined;
    if (entry?.silent) return;
    const answers: packet.Answer[] = [];
    // Every answer has TTL 0: tests change the zone between questions, and Node's own resolver
    // (c-ares' query cache, on in Node 20.19.0) keeps an answer for its TTL. Our own caches are
    // tested with injected clocks, never through this.
    const ttl = 0;
    if (q && entry && q.type === 'MX') for (const m of entry.mx ?? []) answers.push({ type: 'MX', name: q.name, ttl, data: { preference: m.priority, exchange: m.exchange } });
    if (q && entry && q.type === 'A') for (const ip of typeof entry.a === 'function' ? entry.a() : entry.a ?? []) answers.push({ type: 'A', name: q.name, ttl, data: ip });
    if (q && entry && q.type === 'AAAA') for (const ip of entry.aaaa ?? []) answers.push({ type: 'AAAA', name: q.name, ttl, data: ip });
    if (q && entry && q.type === 'TXT') for (const t of entry.txt ?? []) answers.push({ type: 'TXT', name: q.name, ttl, data: chunks(t) });
    const rcode = !entry ? 3 : entry.servfail ? 2 : 0; // 3 = NXDOMAIN, 2 = SERVFAIL
    const reply = packet.encode({
      id: query.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | rcode,
      questions: query.questions, answers: rcode === 0 ? answers : [],
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  // A stand-in is never what keeps a process alive (a bench that leaves its data behind ends without closing it).
  socket.unref();
  return { server: `127.0.0.1:${socket.address().port}`, queries, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
