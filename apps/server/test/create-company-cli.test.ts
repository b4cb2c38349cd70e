import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig } from '../src/config.js';
import { openServices } from '../src/runtime.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-cli-'));
afterAll(async () => fs.rm(dataDir, { recursive: true, force: true }));

// The command runs as an operator would run it: a separate process on an embedded
// database in its own data dir (DATABASE_URL is cleared so the PostgreSQL pass does not share one).
function run(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/create-company.ts', ...args], { cwd: serverDir, env, encoding: 'utf8', timeout: 150_000 });
}

// Each run is a cold process: tsx, PGlite's start and every migration (about 24 s on a
// busy 2-core machine, where CI runs two suites at once), so the tests allow minutes.
const COLD_PROCESS_MS = 180_000;

describe('npm run setup:company', () => {
  const args = ['--company', 'Acme', '--domain', 'acme.example', '--admin', 'admin@acme.example', '--password', 'correct horse battery'];

  it('creates the company, its domain and an administrator who can log in, then exits', async () => {
    const r = run(...args);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Created Acme (acme.example) with administrator admin@acme.example.');
    expect(r.stdout).toMatch(/mw1\._domainkey\.acme\.example TXT "v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}"/);
    const { services, close } = await openServices(testConfig({ dataDir }));
    try {
      const session = await services.auth.login({ email: 'admin@acme.example', password: 'correct horse battery' }, { ip: '127.0.0.1', userAgent: 'test' });
      if (!('token' in session)) throw new Error('no second verification is set up for a new administrator');
      expect(session.email).toBe('admin@acme.example');
      const ctx = await services.auth.authenticate(session.token);
      expect(ctx?.role).toBe('admin');
    } finally {
      await close();
    }
  }, COLD_PROCESS_MS);

  it('refuses a domain that is already hosted, and bad arguments, with a clear message', () => {
    const again = run(...args);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('domain: is already hosted here');
    const outside = run('--company', 'X', '--domain', 'x.example', '--admin', 'root@elsewhere.example', '--password', 'long enough pw');
    expect(outside.status).toBe(2);
    expect(outside.stderr).toContain('the administrator address must be in x.example');
    expect(run('--company', 'X').status).toBe(2);
  }, COLD_PROCESS_MS);
});
