import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Pop3Client } from '../src/features/collect/pop3-client.js';
import { AddressPolicy } from '../src/net/ssrf.js';

// The POP3 client against scripted servers on loopback: replies cut at every byte,
// bare LFs, byte-stuffing at the edges, servers that stop or lie.

type Script = (cmd: string, write: (s: string | Buffer) => void, sock: net.Socket) => void;
const servers: net.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server that greets, logs anyone in, and answers other commands by `script`; `dribble` sends one byte per write. */
async function server(script: Script, opts: { dribble?: boolean; greeting?: string } = {}): Promise<number> {
  const srv = net.createServer((sock) => {
    sock.setNoDelay(true);
    const write = (s: string | Buffer) => {
      const b = Buffer.isBuffer(s) ? s : Buffer.from(s, 'latin1');
      if (!opts.dribble) return void sock.write(b);
      for (let i = 0; i < b.length; i++) sock.write(b.subarray(i, i + 1));
    };
    write(opts.greeting ?? '+OK hi\r\n');
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\r\n'); i !== -1; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (/^(USER|PASS) /.test(line)) write('+OK\r\n');
        else if (line === 'QUIT') sock.end('+OK bye\r\n');
        else script(line, write, sock);
      }
    });
    sock.on('error', () => undefined);
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return (srv.address() as net.AddressInfo).port;
}

const open = (port: number, o: { timeoutMs?: number; max?: number; tls?: 'none' | 'starttls' } = {}) =>
  Pop3Client.open('127.0.0.1', { host: '127.0.0.1', port, tls: o.tls ?? 'none' }, 'u', 'p', {
    policy: new AddressPolicy({ allowPrivate: true }), timeoutMs: o.timeoutMs ?? 2_000, maxMessageBytes: o.max ?? 1024 * 1024,
  });

describe('POP3 client', () => {
  it('reassembles replies cut at every byte and undoes byte-stuffing exactly', async () => {
    const wire = '+OK 5 octets\r\n..\r\n...\r\n..x\r\nplain\r\n.\r\n';
    const port = await server((cmd, write) => {
      if (cmd === 'UIDL') write('+OK\r\n1 a\r\n2 b-with-~!chars\r\n.\r\n');
      else if (cmd === 'RETR 1') write(wire);
    }, { dribble: true });
    const c = await open(port);
    expect([...(await c.uidl()).entries()]).toEqual([[1, 'a'], [2, 'b-with-~!chars']]);
    expect((await c.retr(1)).toString('latin1')).toBe('.\r\n..\r\n.x\r\nplain\r\n');
    await c.quit();
  });

  it('takes bare LF line ends and keeps 8-bit bytes as they are', async () => {
    const body = Buffer.concat([Buffer.from('Subject: x\n\n'), Buffer.from([0xe4, 0xb8, 0xad, 0xff]), Buffer.from('\n.\n')]);
    const port = await server((cmd, write) => { if (cmd === 'RETR 1') write(Buffer.concat([Buffer.from('+OK\n'), body])); });
    const c = await open(port);
    const got = await c.retr(1);
    expect(got.equals(Buffer.concat([Buffer.from('Subject: x\r\n\r\n'), Buffer.from([0xe4, 0xb8, 0xad, 0xff]), Buffer.from('\r\n')]))).toBe(true);
    c.close();
  });

  it('fails cleanly on a server that stops mid-message, one that goes quiet, and one that sends too much', async () => {
    const cut = await server((cmd, write, sock) => { if (cmd === 'RETR 1') { write('+OK\r\nline one\r\nline tw'); sock.destroy(); } });
    const c1 = await open(cut);
    await expect(c1.retr(1)).rejects.toMatchObject({ kind: 'network' });

    const quiet = await server(() => undefined);
    const c2 = await open(quiet, { timeoutMs: 300 });
    await expect(c2.stat()).rejects.toMatchObject({ kind: 'timeout' });

    const big = await server((cmd, write) => { if (cmd === 'RETR 1') write(`+OK\r\n${'x'.repeat(100)}\r\n`.repeat(50) + '.\r\n'); });
    const c3 = await open(big, { max: 1_000 });
    await expect(c3.retr(1)).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('reports -ERR replies, a bad greeting and a refused STLS with the server line', async () => {
    const err = await server((cmd, write) => write(cmd === 'RETR 9' ? '-ERR no such message\r\n' : '+OK 0 0\r\n'));
    const c = await open(err);
    await expect(c.retr(9)).rejects.toMatchObject({ kind: 'protocol', reply: '-ERR no such message' });
    c.close();
    const greet = await server(() => undefined, { greeting: '-ERR go away\r\n' });
    await expect(open(greet)).rejects.toMatchObject({ kind: 'protocol', reply: '-ERR go away' });
    const nostls = await server((cmd, write) => { if (cmd === 'STLS') write('-ERR not here\r\n'); });
    await expect(open(nostls, { tls: 'starttls' })).rejects.toMatchObject({ kind: 'tls', reply: '-ERR not here' });
  });

  it('refuses a STARTTLS upgrade when the server sent more after its +OK (RFC 2595 §3 injection)', async () => {
    const inject = await server((cmd, write) => { if (cmd === 'STLS') write('+OK begin TLS\r\n+OK injected\r\n'); });
    await expect(open(inject, { tls: 'starttls' })).rejects.toMatchObject({ kind: 'tls' });
  });
});
