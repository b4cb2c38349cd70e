import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { startDnsStandIn } from '../apps/server/test/dns-standin';
import { startDovecot } from '../apps/server/test/dovecot-peer';
import { startMapStandIn } from './map-standin';
import { MAP_PORT } from './env';
import { ARTIFACTS, BASE_URL, DIST_DIR, DOVECOT_FILE, HTTP_PORT, MX_DIR, MX_PORT, REPO_ROOT, SMTP_PORT, WECHAT_OPENID, WECHAT_PORT } from './env';

async function answers(): Promise<boolean> {
  try {
    const res = await fetch(`${BASE_URL}/h5/uniapp/version`);
    return res.ok;
  } catch {
    return false;
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    // The server runs under npx/tsx; signal the whole process group.
    process.kill(-child.pid, 'SIGTERM');
  });
}

/**
 * Another company's mail server: accepts any mail over plain SMTP and writes
 * each message to MX_DIR, so tests can see what left our server. DESIGN.md:
 * a stand-in that speaks the real protocol, not a mock of our code.
 */
async function startOutsideMx(): Promise<SMTPServer> {
  rmSync(MX_DIR, { recursive: true, force: true });
  mkdirSync(MX_DIR, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const header = `X-Mx-Envelope-To: ${to}\r\n`;
        writeFileSync(join(MX_DIR, `${Date.now()}-${count}.eml`), Buffer.concat([Buffer.from(header), ...chunks]));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(MX_PORT, '127.0.0.1', () => resolve());
  });
  return server;
}

const WECHAT_APPID = 'wxe2e0000000000001';
const WECHAT_SECRET = 'e2e-wechat-secret';
/** Where WeChat sends the browser back: the start page (WeChat checks the redirect's domain). */
const WECHAT_REDIRECT_URI = `${BASE_URL}/`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * WeChat's OAuth 2.0 (web authorization), as documented: the authorize page
 * (open.weixin.qq.com/connect/oauth2/authorize) sends the browser back to
 * redirect_uri?code&state (declining sends the state alone), and the code
 * exchange (api.weixin.qq.com/sns/oauth2/access_token) answers HTTP 200 with JSON
 * labelled text/plain: the openid, or {errcode, errmsg}. Each code works once,
 * for 5 minutes. Every code is for one WeChat account, WECHAT_OPENID.
 */
async function startWechat(): Promise<http.Server> {
  const codes = new Map<string, { openid: string; expires: number }>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${WECHAT_PORT}`);
    const q = url.searchParams;
    if (req.method === 'GET' && url.pathname === '/connect/oauth2/authorize') {
      const redirect = q.get('redirect_uri') ?? '';
      const state = q.get('state') ?? '';
      const problem = q.get('appid') !== WECHAT_APPID ? 'appid'
        : q.get('response_type') !== 'code' ? 'response_type'
          : !['snsapi_base', 'snsapi_userinfo'].includes(q.get('scope') ?? '') ? 'scope'
            : !redirect.startsWith(WECHAT_REDIRECT_URI) ? 'redirect_uri'
              : !/^[a-zA-Z0-9]{0,128}$/.test(state) ? 'state' : null;
      if (problem) {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`${problem} 参数错误`);
        return;
      }
      const code = randomBytes(16).toString('hex');
      codes.set(code, { openid: WECHAT_OPENID, expires: Date.now() + 5 * 60_000 });
      const back = (query: string) => `${redirect}${redirect.includes('?') ? '&' : '?'}${query}`;
      const button = 'display:block;margin:16px auto;padding:12px;width:220px;border-radius:6px;text-decoration:none;font-size:17px';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>authorize</title></head>
<body style="font-family:sans-serif;text-align:center;padding:64px 24px">
<h1 style="font-size:20px">WeChat (e2e stand-in)</h1>
<p>An app asks for your WeChat identity (${escapeHtml(q.get('scope') ?? '')}).</p>
<a id="allow" style="${button};background:#07c160;color:#fff" href="${escapeHtml(back(`code=${code}&state=${state}`))}">Allow</a>
<a id="deny" style="${button};background:#eee;color:#333" href="${escapeHtml(back(`state=${state}`))}">Deny</a>
</body></html>`);
      return;
    }
    let answer: Record<string, unknown>;
    if (req.method !== 'GET' || url.pathname !== '/sns/oauth2/access_token') answer = { errcode: 40066, errmsg: 'invalid url' };
    else if (q.get('appid') !== WECHAT_APPID) answer = { errcode: 40013, errmsg: 'invalid appid' };
    else if (q.get('secret') !== WECHAT_SECRET) answer = { errcode: 40125, errmsg: 'invalid appsecret' };
    else if (q.get('grant_type') !== 'authorization_code') answer = { errcode: 40002, errmsg: 'invalid grant_type' };
    else {
      const code = q.get('code') ?? '';
      const issued = codes.get(code);
      codes.delete(code);
      answer = issued && issued.expires > Date.now()
        ? { access_token: randomBytes(24).toString('hex'), expires_in: 7200, refresh_token: randomBytes(24).toString('hex'), openid: issued.openid, scope: 'snsapi_base' }
        : { errcode: 40029, errmsg: 'invalid code' };
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(WECHAT_PORT, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Starts the real server on a fresh data dir (demo seed) and stops it afterwards. */
export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error(`${DIST_DIR}/index.html is missing: build the web client first (npm run build)`);
  }
  if (await answers()) throw new Error(`something already listens on port ${HTTP_PORT}; stop it first`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const mx = await startOutsideMx();
  const wechat = await startWechat().catch(async (error: unknown) => {
    await new Promise<void>((resolve) => mx.close(() => resolve()));
    throw error;
  });
  // Inbound mail is checked with SPF, DKIM and DMARC: its DNS stays on loopback (every name NXDOMAIN).
  const dns = await startDnsStandIn({});
  // Map tiles and place search for the location pages (issue 15 §6).
  const mapStandIn = await startMapStandIn();
  // Another mailbox to collect from (issue 16): a real Dovecot; the tests read where it is from DOVECOT_FILE.
  const dovecot = await startDovecot();
  dovecot.addUser('e2e-remote', 'remote-pass');
  for (const n of [1, 2]) {
    dovecot.seed('e2e-remote', `From: Remote Friend <friend@remote.test>\r\nTo: e2e-remote@remote.test\r\nSubject: From the other mailbox ${n}\r\n` +
      `Message-ID: <e2e-remote-${n}@remote.test>\r\nDate: ${new Date().toUTCString()}\r\n\r\nCollected over POP3, number ${n}.\r\n`);
  }
  writeFileSync(DOVECOT_FILE, JSON.stringify({ host: '127.0.0.1', ports: dovecot.ports, user: 'e2e-remote', password: 'remote-pass' }));
  const closeStandIns = async () => {
    await dovecot.stop();
    await dns.close();
    mapStandIn.closeAllConnections();
    await new Promise<void>((resolve) => mapStandIn.close(() => resolve()));
    await new Promise<void>((resolve) => mx.close(() => resolve()));
    wechat.closeAllConnections();
    await new Promise<void>((resolve) => wechat.close(() => resolve()));
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'mailwing-e2e-'));
  const log = openSync(join(ARTIFACTS, 'server.log'), 'w');
  const child = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(HTTP_PORT), SMTP_PORT: String(SMTP_PORT), DATA_DIR: dataDir,
      // Mail for other domains goes to the stand-in, and a failed try comes back within seconds.
      SMTP_RELAY: `smtp://127.0.0.1:${MX_PORT}`, DELIVERY_RETRY_BASE_MS: '1000', DNS_SERVERS: dns.server,
      // A timed send's test moves the timed-send clock instead of waiting a minute (features/dev-clock).
      DEV_CLOCK: '1',
      // Password hashes at the lowest cost a test rig may use: the suite signs in again and again.
      PASSWORD_SCRYPT_N: '1024',
      // WeChat login is on, against the stand-in.
      WECHAT_APPID, WECHAT_SECRET, WECHAT_REDIRECT_URI,
      WECHAT_API_BASE: `http://127.0.0.1:${WECHAT_PORT}`, WECHAT_OAUTH_BASE: `http://127.0.0.1:${WECHAT_PORT}`,
      // The outbound guard refuses loopback unless allowed: the WeChat stand-in is there.
      OUTBOUND_ALLOW: '127.0.0.1/32',
      // Collection may dial the loopback Dovecot, whose certificate the test made.
      COLLECT_ALLOW_PRIVATE: '1', COLLECT_CA: dovecot.caFile,
      // The location pages' tiles and geocoder: the stand-in (OUTBOUND_ALLOW above lets the server reach it).
      MAP_TILE_URL: `http://127.0.0.1:${MAP_PORT}/tiles/{z}/{x}/{y}.png`, MAP_TILE_ATTRIBUTION: '© e2e tiles', MAP_GEOCODER_URL: `http://127.0.0.1:${MAP_PORT}/search`,
    },
    stdio: ['ignore', log, log],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  while (!(await answers())) {
    if (child.exitCode !== null) {
      await closeStandIns();
      throw new Error(`server exited with ${child.exitCode}; see e2e/artifacts/server.log`);
    }
    if (Date.now() > deadline) {
      await stop(child);
      await closeStandIns();
      throw new Error('server did not answer within 120 s; see e2e/artifacts/server.log');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return async () => {
    await stop(child);
    await closeStandIns();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
