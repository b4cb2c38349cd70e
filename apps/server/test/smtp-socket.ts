import net from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A raw SMTP client over one loopback socket, for the limit tests: it can hold many
 * sessions open at once, trickle bytes, and stream a large body with backpressure.
 */
export interface SmtpSocket {
  socket: net.Socket;
  /** The next whole reply (RFC 5321 §4.2.1: the last line has no dash after the code); rejects if the socket closes first. */
  reply(): Promise<string>;
  send(line: string): void;
  /** Writes and waits until the socket takes more, so a large body never piles up in this process. */
  write(data: string | Buffer): Promise<void>;
  closed: Promise<void>;
  /** Milliseconds from opening until the socket closed, once it has. */
  closedAfterMs(): number | undefined;
  destroy(): void;
}

const REPLY = /^((?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n)/;

/** Reads SMTP replies from a stream: a plain socket, or the TLS socket after STARTTLS. */
export function replies(stream: Duplex): { reply(): Promise<string>; closed: Promise<void>; closedAt(): number | undefined } {
  let buffer = '';
  let closedAt: number | undefined;
  const waiters: { resolve(s: string): void; reject(e: Error): void }[] = [];
  const take = (): string | undefined => {
    const m = REPLY.exec(buffer);
    if (!m) return undefined;
    buffer = buffer.slice(m[1]!.length);
    return m[1]!.trim();
  };
  const pump = () => {
    while (waiters.length > 0) {
      const r = take();
      if (r === undefined) return;
      waiters.shift()!.resolve(r);
    }
  };
  stream.on('data', (d: Buffer) => { buffer += d.toString('latin1'); pump(); });
  stream.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => stream.on('close', () => {
    closedAt = performance.now();
    for (const w of waiters.splice(0)) w.reject(new Error(`closed before a reply; unparsed: ${JSON.stringify(buffer)}`));
    resolve();
  }));
  return {
    closed,
    closedAt: () => closedAt,
    reply: () => new Promise<string>((resolve, reject) => {
      const ready = waiters.length === 0 ? take() : undefined;
      if (ready !== undefined) return resolve(ready);
      if (closedAt !== undefined) return reject(new Error('closed'));
      waiters.push({ resolve, reject });
    }),
  };
}

export async function openSmtp(port: number): Promise<SmtpSocket> {
  const socket = net.connect(port, '127.0.0.1');
  const opened = performance.now();
  const r = replies(socket);
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('error', reject); });
  return {
    socket,
    closed: r.closed,
    reply: r.reply,
    send: (line) => { socket.write(`${line}\r\n`); },
    write: (data) => new Promise<void>((resolve, reject) => {
      if (socket.destroyed) return reject(new Error('socket closed'));
      if (socket.write(data)) return resolve();
      const done = () => { socket.off('close', gone); resolve(); };
      const gone = () => { socket.off('drain', done); reject(new Error('socket closed')); };
      socket.once('drain', done);
      socket.once('close', gone);
    }),
    closedAfterMs: () => { const at = r.closedAt(); return at === undefined ? undefined : at - opened; },
    destroy: () => socket.destroy(),
  };
}

/** Greeting, EHLO, MAIL FROM: a session ready for RCPT TO. */
export async function startTransaction(c: SmtpSocket, from = 'sender@outside.example'): Promise<void> {
  const greeting = await c.reply();
  if (!greeting.startsWith('220 ')) throw new Error(`no greeting: ${greeting}`);
  c.send('EHLO client.outside.example');
  await c.reply();
  c.send(`MAIL FROM:<${from}>`);
  const mail = await c.reply();
  if (!mail.startsWith('250 ')) throw new Error(`MAIL FROM refused: ${mail}`);
}
