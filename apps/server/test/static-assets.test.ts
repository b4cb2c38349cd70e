import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

// The built client as the build leaves it (vite.config.ts writes .br and .gz beside
// each text file), served over a real socket: compressed bytes, and caching that
// never serves a stale index.html or service worker.
describe('static client files', () => {
  let s: TestServer;
  let dist: string;
  const js = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'mw-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Mailwing</title>');
    await fs.writeFile(path.join(dist, 'sw.js'), '// worker');
    const file = path.join(dist, 'assets', 'index-Ab12Cd34.js');
    await fs.writeFile(file, js);
    await fs.writeFile(`${file}.br`, brotliCompressSync(js));
    await fs.writeFile(`${file}.gz`, gzipSync(js));
    s = await startTestServer({ webDist: dist });
  });
  afterAll(async () => {
    await s?.stop();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('sends a hashed asset brotli-compressed, cached for a year as immutable', async () => {
    const res = await fetch(`${s.base}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    // fetch undoes the encoding; the bytes on the wire were the .br file.
    expect(await res.text()).toBe(js);
    expect(Number(res.headers.get('content-length'))).toBeLessThan(js.length / 4);
    expect(brotliDecompressSync(await fs.readFile(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'))).toString()).toBe(js);
  });

  it('falls back to gzip, then to the plain file, by what the browser accepts', async () => {
    const gz = await fetch(`${s.base}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(js);
    const plain = await fetch(`${s.base}/assets/index-Ab12Cd34.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(js);
  });

  it('revalidates index.html and the service worker on every load', async () => {
    for (const url of ['/', '/index.html', '/sw.js']) {
      const res = await fetch(`${s.base}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control'), url).toBe('no-cache');
    }
  });

  it('keeps the API out of the file server and uncacheable', async () => {
    const res = await fetch(`${s.base}/h5/mbox/index`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
