import dgram from 'node:dgram';
import * as packet from 'dns-packet';

// A loopback DNS server for delivery tests (the outbound queue's resolver is pointed
// at it with DNS_SERVERS). It answers MX, A and AAAA questions from a table; other names
// get NXDOMAIN, and a name with records of other types gets an empty answer (NODATA).
// An `a` given as a function is asked on every query (a name that rebinds); every
// question is logged in `queries`.

type Addresses = string[] | (() => string[]);
export type Zone = Record<string, { mx?: { priority: number; exchange: string }[]; a?: Addresses; aaaa?: string[] }>;

export async function startDnsStandIn(zone: Zone): Promise<{ server: string; queries: { name: string; type: string }[]; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  const queries: { name: string; type: string }[] = [];
  socket.on('message', (msg, rinfo) => {
    const query = packet.decode(msg);
    const q = query.questions?.[0];
    if (q) queries.push({ name: q.name.toLowerCase(), type: q.type });
    const entry = q ? zone[q.name.toLowerCase()] : undefined;
    const answers: packet.Answer[] = [];
    if (q && entry && q.type === 'MX') for (const m of entry.mx ?? []) answers.push({ type: 'MX', name: q.name, ttl: 60, data: { preference: m.priority, exchange: m.exchange } });
    if (q && entry && q.type === 'A') {
      // TTL 0 for a rebinding name, or a caching resolver would answer the second question itself.
      const dynamic = typeof entry.a === 'function';
      for (const ip of typeof entry.a === 'function' ? entry.a() : entry.a ?? []) answers.push({ type: 'A', name: q.name, ttl: dynamic ? 0 : 60, data: ip });
    }
    if (q && entry && q.type === 'AAAA') for (const ip of entry.aaaa ?? []) answers.push({ type: 'AAAA', name: q.name, ttl: 60, data: ip });
    const reply = packet.encode({
      id: query.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (entry ? 0 : 3), // rcode 3 = NXDOMAIN
      questions: query.questions, answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return { server: `127.0.0.1:${socket.address().port}`, queries, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
