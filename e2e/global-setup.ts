import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { ARTIFACTS, BASE_URL, DIST_DIR, HTTP_PORT, MX_DIR, MX_PORT, REPO_ROOT, SMTP_PORT } from './env';

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

/** Starts the real server on a fresh data dir (demo seed) and stops it afterwards. */
export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error(`${DIST_DIR}/index.html is missing: build the web client first (npm run build)`);
  }
  if (await answers()) throw new Error(`something already listens on port ${HTTP_PORT}; stop it first`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const mx = await startOutsideMx();
  const dataDir = mkdtempSync(join(tmpdir(), 'mailwing-e2e-'));
  const log = openSync(join(ARTIFACTS, 'server.log'), 'w');
  const child = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(HTTP_PORT), SMTP_PORT: String(SMTP_PORT), DATA_DIR: dataDir,
      // Mail for other domains goes to the stand-in, and a failed try comes back within seconds.
      SMTP_RELAY: `smtp://127.0.0.1:${MX_PORT}`, DELIVERY_RETRY_BASE_MS: '1000',
    },
    stdio: ['ignore', log, log],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  while (!(await answers())) {
    if (child.exitCode !== null) {
      mx.close();
      throw new Error(`server exited with ${child.exitCode}; see e2e/artifacts/server.log`);
    }
    if (Date.now() > deadline) {
      await stop(child);
      mx.close();
      throw new Error('server did not answer within 120 s; see e2e/artifacts/server.log');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return async () => {
    await stop(child);
    await new Promise<void>((resolve) => mx.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
