import dgram from 'node:dgram';
import * as packet from 'dns-packet';

// A loopback DNS server for delivery tests (the outbound queue's resolver is pointed
// at it with DNS_SERVERS). It answers MX and A questions from a table; other names
// get NXDOMAIN, and a name with records of other types gets an empty answer (NODATA).

export type Zone = Record<string, { mx?: { priority: number; exchange: string }[]; a?: string[] }>;

export async function startDnsStandIn(zone: Zone): Promise<{ server: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const query = packet.decode(msg);
    const q = query.questions?.[0];
    const entry = q ? zone[q.name.toLowerCase()] : undefined;
    const answers: packet.Answer[] = [];
    if (q && entry && q.type === 'MX') for (const m of entry.mx ?? []) answers.push({ type: 'MX', name: q.name, ttl: 60, data: { preference: m.priority, exchange: m.exchange } });
    if (q && entry && q.type === 'A') for (const ip of entry.a ?? []) answers.push({ type: 'A', name: q.name, ttl: 60, data: ip });
    const reply = packet.encode({
      id: query.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (entry ? 0 : 3), // rcode 3 = NXDOMAIN
      questions: query.questions, answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return { server: `127.0.0.1:${socket.address().port}`, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
