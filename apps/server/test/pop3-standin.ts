import net from 'node:net';

// A loopback POP3 server speaking RFC 1939, for what Dovecot will not do: UIDLs longer
// than the 70 characters the RFC allows, and bodies written byte for byte as given.

export interface StandInMessage { uidl: string; raw: Buffer }

export interface Pop3StandIn {
  port: number;
  messages: StandInMessage[];
  /** Commands received, passwords masked. */
  commands: string[];
  close(): Promise<void>;
}

/** Byte-stuffs a message for RETR (RFC 1939 §3): a line starting with "." gets another. */
function stuff(raw: Buffer): Buffer {
  const text = raw.toString('latin1').replace(/\r?\n/g, '\r\n');
  const body = text.split('\r\n').map((l) => (l.startsWith('.') ? `.${l}` : l)).join('\r\n');
  return Buffer.from(body.endsWith('\r\n') ? body : `${body}\r\n`, 'latin1');
}

export async function startPop3StandIn(messages: StandInMessage[], password = 'secret'): Promise<Pop3StandIn> {
  const commands: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const deleted = new Set<number>();
    let authed = false;
    let buf = '';
    const say = (s: string | Buffer) => socket.write(s);
    say('+OK stand-in ready\r\n');
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\r\n'); i !== -1; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const [cmd = '', arg = ''] = line.split(' ');
        commands.push(cmd.toUpperCase() === 'PASS' ? 'PASS ***' : line);
        const n = Number(arg);
        const live = (k: number) => k >= 1 && k <= messages.length && !deleted.has(k);
        switch (cmd.toUpperCase()) {
          case 'USER': say('+OK\r\n'); break;
          case 'PASS': authed = arg === password; say(authed ? '+OK logged in\r\n' : '-ERR [AUTH] bad password\r\n'); break;
          case 'STAT': say(`+OK ${messages.length - deleted.size} 0\r\n`); break;
          case 'UIDL':
            if (!authed) { say('-ERR not logged in\r\n'); break; }
            say(`+OK\r\n${messages.map((m, k) => (deleted.has(k + 1) ? '' : `${k + 1} ${m.uidl}\r\n`)).join('')}.\r\n`);
            break;
          case 'RETR':
            if (!live(n)) { say('-ERR no such message\r\n'); break; }
            say(Buffer.concat([Buffer.from(`+OK ${messages[n - 1]!.raw.length} octets\r\n`), stuff(messages[n - 1]!.raw), Buffer.from('.\r\n')]));
            break;
          case 'DELE': if (live(n)) { deleted.add(n); say('+OK\r\n'); } else say('-ERR no such message\r\n'); break;
          case 'QUIT': {
            // RFC 1939 §6: deletions happen in the UPDATE state, after QUIT.
            const gone = new Set([...deleted].map((k) => messages[k - 1]));
            messages.splice(0, messages.length, ...messages.filter((m) => !gone.has(m)));
            socket.end('+OK bye\r\n');
            break;
          }
          default: say('-ERR unknown command\r\n');
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port, messages, commands,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
