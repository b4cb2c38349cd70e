import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { dropTemplate, type DbTemplate } from './db-template.js';

/*
 * vitest globalSetup of the server project: builds the seeded database template once per
 * run (db-template.ts), hands it to the test files, and removes it when the run ends.
 *
 * Measured on the shared 2-core machine (load ~7-11; medians of 3; ms), one boot split up:
 *   PGlite:     new cluster 21 500, migrations 2 400, seed 6 500, runtime start 8 200
 *   PostgreSQL: CREATE DATABASE 400, migrations 3 750, seed 3 300, runtime start 1 000
 * A boot from the template skips the first three and copies instead (load ~12, medians of 3
 * interleaved pairs): PGlite 39.6 s -> 16.2 s (fs.cp of the 43 MB data dir: ~4 s),
 * PostgreSQL 6.8 s -> 2.2 s (CREATE DATABASE ... TEMPLATE: ~0.8 s).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL;
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'build-template.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { maxBuffer: 1 << 20 });
  const template = JSON.parse(stdout.trim().split('\n').pop()!) as DbTemplate;
  project.provide('mwDbTemplate', template);
  return () => dropTemplate(template, adminUrl);
}
