import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACTS, BASE_URL, DIST_DIR, HTTP_PORT, REPO_ROOT, SMTP_PORT } from './env';

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

/** Starts the real server on a fresh data dir (demo seed) and stops it afterwards. */
export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error(`${DIST_DIR}/index.html is missing: build the web client first (npm run build)`);
  }
  if (await answers()) throw new Error(`something already listens on port ${HTTP_PORT}; stop it first`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'mailwing-e2e-'));
  const log = openSync(join(ARTIFACTS, 'server.log'), 'w');
  const child = spawn('npx', ['tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(HTTP_PORT), SMTP_PORT: String(SMTP_PORT), DATA_DIR: dataDir },
    stdio: ['ignore', log, log],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  while (!(await answers())) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see e2e/artifacts/server.log`);
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error('server did not answer within 120 s; see e2e/artifacts/server.log');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return async () => {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
