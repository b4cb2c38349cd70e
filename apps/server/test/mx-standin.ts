import { SMTPServer } from 'smtp-server';

// A stand-in for another organisation's mail server: a real smtp-server on a
// loopback port that our outbound queue talks to. Tests decide its answers.

export interface Received { from: string; to: string[]; raw: Buffer; secure: boolean }

export interface MxStandIn {
  port: number;
  received: Received[];
  /** The reply to a message's end of data: null for 250, or e.g. "451 4.3.0 busy". Called once per message. */
  answer: (rcpt: string, attempt: number) => string | null;
  /** Called with each message before it is answered (e.g. to kill the sender mid-transaction). */
  beforeAnswer?: (msg: Received) => Promise<void>;
  /** Called as each client connects, with the client's source port (to tell which process is sending). */
  onConnect?: (remotePort: number) => void;
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startMxStandIn(): Promise<MxStandIn> {
  const attempts = new Map<string, number>();
  const mx: MxStandIn = {
    port: 0,
    received: [],
    answer: () => null,
    async waitFor(count, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (mx.received.length < count) {
        if (Date.now() > deadline) throw new Error(`stand-in MX got ${mx.received.length} of ${count} messages`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return mx.received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    logger: false,
    onConnect(session, cb) {
      mx.onConnect?.(session.remotePort);
      cb();
    },
    // STARTTLS stays on (smtp-server's built-in certificate), so opportunistic TLS is exercised.
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const msg: Received = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, raw: Buffer.concat(chunks), secure: session.secure };
        const rcpt = to[0] ?? '';
        const n = (attempts.get(rcpt) ?? 0) + 1;
        attempts.set(rcpt, n);
        void (async () => {
          await mx.beforeAnswer?.(msg);
          const reply = mx.answer(rcpt, n);
          if (reply === null) {
            mx.received.push(msg);
            return cb(null, '2.0.0 queued');
          }
          const code = Number(reply.slice(0, 3));
          cb(Object.assign(new Error(reply.slice(4)), { responseCode: code }));
        })();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const addr = server.server.address();
  mx.port = typeof addr === 'object' && addr ? addr.port : 0;
  return mx;
}
