import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// `npm start` in development: a person reads the console, so start-up prints the banner
// (address, SMTP port, demo logins) and no JSON log lines before it (issue 15). The seed,
// Fastify's "listening" line and "Mailwing is up" are debug there (main.ts, runtime.ts).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

it('development start-up prints the banner alone', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-banner-'));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', SMTP_PORT: '0', PROCESSES: '1' };
  delete env.DATABASE_URL;
  delete env.LOG_LEVEL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { output += d.toString(); });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (/SMTP for @demo\.test listens on \S+:\d+/.test(output)) { clearInterval(timer); resolve(); }
        if (child.exitCode !== null) { clearInterval(timer); reject(new Error(`exited ${child.exitCode}:\n${output}`)); }
      }, 100);
    });
    // Some work that runs statements side by side (three logins at once), so a warning the
    // server prints only once it is busy (as pg's deprecation of queued queries was, on the
    // PGlite thread) shows up here too.
    const base = /open (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)![1]!;
    const logins = await Promise.all(['alice', 'bob', 'admin'].map((u) => fetch(`${base}/h5/login/h5`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${u}@demo.test&password=demo1234`,
    }).then((r) => r.json() as Promise<{ code: number }>)));
    expect(logins.map((l) => l.code)).toEqual([200, 200, 200]);
    // Let anything written meanwhile reach our pipes.
    await new Promise((resolve) => setImmediate(resolve));
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    expect(lines[0]).toMatch(/^Mailwing demo: open http:\/\/127\.0\.0\.1:\d+\/ and log in as alice@demo\.test/);
    expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
    expect(lines).toHaveLength(2);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}, 180_000);
