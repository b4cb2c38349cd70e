import net from 'node:net';

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

export async function openSmtp(port: number): Promise<SmtpSocket> {
  const socket = net.connect(port, '127.0.0.1');
  const opened = performance.now();
  let buffer = '';
  let closedAt: number | undefined;
  const waiters: { resolve(s: string): void; reject(e: Error): void }[] = [];
  const pump = () => {
    for (;;) {
      const m = /^((?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n)/.exec(buffer);
      if (!m || waiters.length === 0) return;
      buffer = buffer.slice(m[1]!.length);
      waiters.shift()!.resolve(m[1]!.trim());
    }
  };
  socket.on('data', (d) => { buffer += d.toString('latin1'); pump(); });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => {
    closedAt = performance.now();
    for (const w of waiters.splice(0)) w.reject(new Error(`closed before a reply; unparsed: ${JSON.stringify(buffer)}`));
    resolve();
  }));
  await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('error', reject); });
  return {
    socket,
    closed,
    reply: () => new Promise<string>((resolve, reject) => {
      if (closedAt !== undefined) {
        pump();
        const m = /^((?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n)/.exec(buffer);
        if (m) { buffer = buffer.slice(m[1]!.length); return resolve(m[1]!.trim()); }
        return reject(new Error('closed'));
      }
      waiters.push({ resolve, reject });
      pump();
    }),
    send: (line) => { socket.write(`${line}\r\n`); },
    write: (data) => new Promise<void>((resolve, reject) => {
      if (socket.destroyed) return reject(new Error('socket closed'));
      if (socket.write(data)) return resolve();
      const done = () => { socket.off('close', gone); resolve(); };
      const gone = () => { socket.off('drain', done); reject(new Error('socket closed')); };
      socket.once('drain', done);
      socket.once('close', gone);
    }),
    closedAfterMs: () => (closedAt === undefined ? undefined : closedAt - opened),
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
