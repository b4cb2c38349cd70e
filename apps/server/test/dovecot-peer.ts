import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A real Dovecot (POP3 + IMAP) for collection tests: its own config, base_dir and
// ports in a temp dir, passwd-file users, maildirs the test fills, and a certificate
// made here for "localhost". Stopped by stop(). Mail is owned by `nobody`: Dovecot
// never accesses mail as root.

const MAIL_UID = 65534;
const MAIL_GID = 65534;

export interface DovecotPeer {
  host: 'localhost';
  ports: { pop3: number; pop3s: number; imap: number; imaps: number };
  /** The CA to trust (the self-signed certificate itself). */
  caFile: string;
  addUser(user: string, password: string): void;
  /** Changes a user's password; resolves once Dovecot accepts the new one (it re-reads the file at most once a second). */
  setPassword(user: string, password: string): Promise<void>;
  /** Drops a raw message into the user's INBOX (maildir new/). */
  seed(user: string, raw: string | Buffer): void;
  /** Drops a raw message into another folder of the user (Maildir++ `.Folder`, made on first use); `seen` files it read. */
  seedFolder(user: string, folder: string, raw: string | Buffer, seen?: boolean): void;
  /** Removes a folder and its mail (Maildir++ `.Folder`). */
  removeFolder(user: string, folder: string): void;
  /** Messages currently in the user's INBOX. */
  count(user: string): number;
  /** Makes Dovecot hand out a new UIDVALIDITY for the INBOX (its uidlist and indexes gone). */
  resetUidValidity(user: string): void;
  stop(): Promise<void>;
}

function findDovecot(): string {
  for (const p of ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot']) if (fs.existsSync(p)) return p;
  const imapd = fs.existsSync('/usr/lib/dovecot/imap') && fs.existsSync('/usr/lib/dovecot/pop3');
  if (!imapd && process.getuid?.() === 0) {
    // CI runs as root on a fresh machine: install the peers rather than skip the tests.
    execFileSync('apt-get', ['update'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'dovecot-pop3d', 'dovecot-imapd'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return '/usr/sbin/dovecot';
  }
  throw new Error('Dovecot is not installed: apt-get install dovecot-pop3d dovecot-imapd (the collection tests need a real POP3/IMAP peer)');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : ''}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`dovecot did not listen on ${port}`);
}

/** Whether USER/PASS succeed on the plain POP3 port. */
function pop3Login(port: number, user: string, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    let step = 0;
    sock.on('data', (d) => {
      buf += d.toString();
      while (buf.includes('\r\n')) {
        const line = buf.slice(0, buf.indexOf('\r\n'));
        buf = buf.slice(line.length + 2);
        if (step === 0) sock.write(`USER ${user}\r\n`);
        else if (step === 1) sock.write(`PASS ${password}\r\n`);
        else {
          sock.end('QUIT\r\n');
          resolve(line.startsWith('+OK'));
        }
        step += 1;
      }
    });
    sock.on('error', () => resolve(false));
  });
}

// The collect time-out (connect, greeting, socket idle) for tests that talk to this Dovecot but
// are not about time-outs. 3 s was too tight on a loaded CI machine (three suites, Chromium and
// Dovecot on 2 cores): the first POP3 check of a run once came back as a time-out. Tests of the
// time-out itself pass their own short value against a server that never answers.
export const PEER_TIMEOUT_MS = 30_000;

export async function startDovecot(): Promise<DovecotPeer> {
  const bin = findDovecot();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mw-dovecot-'));
  // The mail processes run as nobody and must reach the maildirs under this dir.
  fs.chmodSync(dir, 0o755);
  const mailRoot = path.join(dir, 'mail');
  fs.mkdirSync(mailRoot, { mode: 0o755 });
  fs.chownSync(mailRoot, MAIL_UID, MAIL_GID);
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  // One passwd-file per user: a file Dovecot has not read yet is never a stale cached one.
  const users = path.join(dir, 'users');
  fs.mkdirSync(users);
  const ports = { pop3: await freePort(), pop3s: await freePort(), imap: await freePort(), imaps: await freePort() };
  const log = path.join(dir, 'dovecot.log');
  const conf = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(conf, `
instance_name = mw-${path.basename(dir)}
base_dir = ${dir}/run
state_dir = ${dir}/state
protocols = pop3 imap
listen = 127.0.0.1
log_path = ${log}
ssl = yes
ssl_cert = <${cert}
ssl_key = <${key}
disable_plaintext_auth = no
auth_mechanisms = plain login
# Wrong-password tests log in many times; the default 2 s penalty would only slow them.
auth_failure_delay = 0
mail_location = maildir:${mailRoot}/%u
pop3_uidl_format = %08Xu%08Xv
default_internal_user = dovecot
default_login_user = dovenull
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${users}/%u
}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_GID} home=${mailRoot}/%u
}
# The auth penalty (anvil) delays every login from an IP after failures; all our logins come from 127.0.0.1.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  inet_listener imap {
    port = ${ports.imap}
  }
  inet_listener imaps {
    port = ${ports.imaps}
    ssl = yes
  }
}
service pop3-login {
  inet_listener pop3 {
    port = ${ports.pop3}
  }
  inet_listener pop3s {
    port = ${ports.pop3s}
    ssl = yes
  }
}
`);
  const child = spawn(bin, ['-F', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  try {
    for (const p of Object.values(ports)) await waitForPort(p, child, log);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
  }
  const box = (user: string) => path.join(mailRoot, user);
  const writePassword = (user: string, password: string) => {
    const file = path.join(users, user);
    const old = fs.existsSync(file) ? fs.statSync(file).mtimeMs : Date.now();
    fs.writeFileSync(file, `${user}:{PLAIN}${password}\n`);
    const later = new Date(old + 5_000);
    fs.utimesSync(file, later, later);
  };
  let seq = 0;
  const peer: DovecotPeer = {
    host: 'localhost', ports, caFile: cert,
    addUser(user, password) {
      writePassword(user, password);
      for (const sub of ['', 'new', 'cur', 'tmp']) {
        fs.mkdirSync(path.join(box(user), sub), { recursive: true });
        fs.chownSync(path.join(box(user), sub), MAIL_UID, MAIL_GID);
      }
    },
    async setPassword(user, password) {
      writePassword(user, password);
      for (let i = 0; i < 100; i++) {
        if (await pop3Login(ports.pop3, user, password)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`dovecot never took the new password of ${user}`);
    },
    seed(user, raw) {
      const name = `${Date.now()}.M${process.pid}P${++seq}.mw`;
      const tmp = path.join(box(user), 'tmp', name);
      // Maildir stores lines with LF; Dovecot serves them with CRLF.
      fs.writeFileSync(tmp, Buffer.isBuffer(raw) ? raw : raw.replace(/\r\n/g, '\n'));
      fs.chownSync(tmp, MAIL_UID, MAIL_GID);
      fs.renameSync(tmp, path.join(box(user), 'new', name));
    },
    seedFolder(user, folder, raw, seen = false) {
      const dir = path.join(box(user), `.${folder.replace(/\//g, '.')}`);
      if (!fs.existsSync(dir)) {
        for (const sub of ['', 'new', 'cur', 'tmp']) {
          fs.mkdirSync(path.join(dir, sub), { recursive: true });
          fs.chownSync(path.join(dir, sub), MAIL_UID, MAIL_GID);
        }
        fs.writeFileSync(path.join(dir, 'maildirfolder'), '');
        fs.chownSync(path.join(dir, 'maildirfolder'), MAIL_UID, MAIL_GID);
      }
      const name = `${Date.now()}.M${process.pid}P${++seq}.mw`;
      const tmp = path.join(dir, 'tmp', name);
      fs.writeFileSync(tmp, Buffer.isBuffer(raw) ? raw : raw.replace(/\r\n/g, '\n'));
      fs.chownSync(tmp, MAIL_UID, MAIL_GID);
      // In cur/ with the S flag: Dovecot reports it \Seen (maildir info ":2,S").
      fs.renameSync(tmp, seen ? path.join(dir, 'cur', `${name}:2,S`) : path.join(dir, 'new', name));
    },
    removeFolder(user, folder) {
      fs.rmSync(path.join(box(user), `.${folder.replace(/\//g, '.')}`), { recursive: true, force: true });
    },
    count(user) {
      return ['new', 'cur'].reduce((n, sub) => n + fs.readdirSync(path.join(box(user), sub)).length, 0);
    },
    resetUidValidity(user) {
      // A new V in the uidlist header, and no index that remembers the old one.
      const list = path.join(box(user), 'dovecot-uidlist');
      const text = fs.readFileSync(list, 'utf8').replace(/^(\d+) V(\d+)/, (_m, v: string, uv: string) => `${v} V${Number(uv) + 1000}`);
      for (const f of fs.readdirSync(box(user))) if (f.startsWith('dovecot.index')) fs.rmSync(path.join(box(user), f), { force: true });
      fs.writeFileSync(list, text);
      fs.chownSync(list, MAIL_UID, MAIL_GID);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return peer;
}
