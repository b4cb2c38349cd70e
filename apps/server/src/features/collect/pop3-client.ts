import type net from 'node:net';
import { CollectError, classify } from './collect-error.js';
import { openSocket, upgradeSocket, type DialOptions, type RemoteEndpoint } from './dial.js';

// A small POP3 client (RFC 1939, STLS from RFC 2595, CAPA from RFC 2449). The npm
// clients we looked at do not upgrade with STLS; this one is only what collection needs.

const LF = 0x0a;

interface Waiter { resolve: (line: Buffer) => void; reject: (err: Error) => void }

export interface Pop3Options extends DialOptions {
  /** A message bigger than this is refused (the server could otherwise fill our memory). */
  maxMessageBytes: number;
}

export class Pop3Client {
  private buf: Buffer = Buffer.alloc(0);
  private lines: Buffer[] = [];
  private waiters: Waiter[] = [];
  private failure: Error | null = null;

  private constructor(private socket: net.Socket, private readonly o: Pop3Options) {
    this.attach(socket);
  }

  /** Connects, reads the greeting, upgrades with STLS when asked, and logs in. */
  static async open(address: string, ep: RemoteEndpoint, user: string, pass: string, o: Pop3Options): Promise<Pop3Client> {
    let client: Pop3Client | undefined;
    try {
      client = new Pop3Client(await openSocket(address, ep, o), o);
      await client.expectOk(await client.line());
      if (ep.tls === 'starttls') {
        const reply = await client.command('STLS');
        if (!reply.startsWith('+OK')) throw new CollectError('tls', reply);
        await client.upgrade(ep);
      }
      await client.login(user, pass);
      return client;
    } catch (err) {
      client?.close();
      throw classify(err);
    }
  }

  private attach(socket: net.Socket): void {
    socket.setTimeout(this.o.timeoutMs, () => this.fail(new CollectError('timeout', `the server sent nothing for ${this.o.timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.fail(classify(err)));
    socket.on('close', () => this.fail(new CollectError('network', 'the server closed the connection')));
  }

  private async upgrade(ep: RemoteEndpoint): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data').removeAllListeners('close').removeAllListeners('error').removeAllListeners('timeout');
    plain.setTimeout(0);
    // Anything the server sent after its +OK and before the handshake would be a STARTTLS injection (RFC 2595 §3 / CVE-2011-0411).
    if (this.buf.length > 0 || this.lines.length > 0) throw new CollectError('tls', 'the server sent data before the TLS handshake');
    this.socket = await upgradeSocket(plain, ep, this.o);
    this.attach(this.socket);
  }

  private async login(user: string, pass: string): Promise<void> {
    const u = await this.command(`USER ${user}`);
    if (!u.startsWith('+OK')) throw new CollectError('auth', u);
    const p = await this.command(`PASS ${pass}`);
    if (!p.startsWith('+OK')) throw new CollectError('auth', p);
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    let start = 0;
    for (let i = this.buf.indexOf(LF); i !== -1; i = this.buf.indexOf(LF, start)) {
      // A line ends with CRLF; a bare LF is taken as one too, as most clients do.
      const end = i > start && this.buf[i - 1] === 0x0d ? i - 1 : i;
      this.lines.push(this.buf.subarray(start, end));
      start = i + 1;
    }
    this.buf = start === 0 ? this.buf : Buffer.from(this.buf.subarray(start));
    if (this.buf.length > this.o.maxMessageBytes) this.fail(new CollectError('protocol', 'a line longer than the message limit'));
    while (this.lines.length > 0 && this.waiters.length > 0) this.waiters.shift()!.resolve(this.lines.shift()!);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const w of this.waiters.splice(0)) w.reject(err);
    this.socket.destroy();
  }

  private line(): Promise<Buffer> {
    const ready = this.lines.shift();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private expectOk(line: Buffer): string {
    const text = line.toString('latin1');
    if (!text.startsWith('+OK')) throw new CollectError('protocol', text.slice(0, 300));
    return text;
  }

  /** Sends one command line and returns the status line. */
  private async command(cmd: string): Promise<string> {
    // A CR or LF inside an argument would smuggle in a second command.
    if (/[\r\n\0]/.test(cmd)) throw new CollectError('protocol', 'refused to send a line with CR, LF or NUL');
    this.socket.write(`${cmd}\r\n`);
    return (await this.line()).toString('latin1').slice(0, 300);
  }

  /**
   * The body of a multi-line reply (RFC 1939 §3): lines up to a line of a single ".",
   * where a line starting with "." had one more "." put in front (byte-stuffing).
   */
  private async block(): Promise<Buffer> {
    const parts: Buffer[] = [];
    let size = 0;
    const crlf = Buffer.from('\r\n');
    for (;;) {
      const line = await this.line();
      if (line.length === 1 && line[0] === 0x2e) break;
      const body = line[0] === 0x2e ? line.subarray(1) : line;
      size += body.length + 2;
      if (size > this.o.maxMessageBytes) throw new CollectError('protocol', `a message over ${this.o.maxMessageBytes} bytes`);
      parts.push(body, crlf);
    }
    return Buffer.concat(parts, size);
  }

  private async multi(cmd: string): Promise<Buffer> {
    this.expectOk(Buffer.from(await this.command(cmd), 'latin1'));
    return this.block();
  }

  async stat(): Promise<{ count: number; size: number }> {
    const [, count, size] = this.expectOk(Buffer.from(await this.command('STAT'), 'latin1')).split(' ');
    return { count: Number(count), size: Number(size) };
  }

  /** Message number → unique id. RFC 1939 §7 caps an id at 70 characters; longer ones are kept whole. */
  async uidl(): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const line of (await this.multi('UIDL')).toString('latin1').split('\r\n')) {
      const m = /^(\d+) +(\S+)/.exec(line);
      if (m) out.set(Number(m[1]), m[2]!);
    }
    return out;
  }

  async retr(n: number): Promise<Buffer> {
    return this.multi(`RETR ${n}`);
  }

  async dele(n: number): Promise<void> {
    this.expectOk(Buffer.from(await this.command(`DELE ${n}`), 'latin1'));
  }

  /** QUIT enters the UPDATE state (RFC 1939 §6): only now do the DELEs take effect. */
  async quit(): Promise<void> {
    try {
      this.expectOk(Buffer.from(await this.command('QUIT'), 'latin1'));
    } finally {
      this.close();
    }
  }

  close(): void {
    this.failure ??= new CollectError('network', 'closed');
    this.socket.destroy();
  }
}
