import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as tus from 'tus-js-client';
import type { DiskList } from '@mailwing/shared';
import { startDemo, type TestServer } from './harness.js';

let s: TestServer;
let alice: string;
beforeAll(async () => { ({ s, alice } = await startDemo()); });
afterAll(async () => s?.stop());

const MB = 1024 * 1024;

/** Runs an upload, calling each interrupt once when its byte count has gone; resolves when it ends or is aborted. */
function run(opts: tus.UploadOptions & { data: Buffer; interrupts?: { at: number; fn: (u: tus.Upload) => 'go-on' | 'stopped' }[] }): Promise<{ upload: tus.Upload; done: boolean; fileId?: string }> {
  return new Promise((resolve, reject) => {
    const pending = [...(opts.interrupts ?? [])];
    const upload: tus.Upload = new tus.Upload(opts.data, {
      ...opts,
      onProgress: (sent) => {
        if (pending[0] && sent >= pending[0].at && pending.shift()!.fn(upload) === 'stopped') resolve({ upload, done: false });
      },
      onSuccess: (payload) => resolve({ upload, done: true, fileId: payload.lastResponse.getHeader('X-Disk-File-Id') ?? undefined }),
      onError: reject,
    });
    upload.start();
  });
}

it('uploads 300 MB interrupted twice (a dropped connection, then a killed client), resumes each time and verifies the sha256', { timeout: 240_000 }, async () => {
  const data = randomBytes(300 * MB);
  const sha256 = createHash('sha256').update(data).digest('hex');
  const common = {
    endpoint: `${s.base}/h5/disk/tus`,
    headers: { authorization: `Bearer ${alice}` },
    metadata: { filename: 'big.bin', sha256 },
    retryDelays: [0, 100, 200],
    chunkSize: 64 * MB,
  };
  let drops = 0;
  // 1. At ~100 MB the server drops every connection: tus-js-client asks HEAD for the offset and goes on.
  // 2. At ~200 MB the client is killed (aborted, never resumed by itself).
  const first = await run({
    ...common, data,
    interrupts: [
      { at: 100 * MB, fn: () => { drops += 1; s.rt.app.server.closeAllConnections(); return 'go-on'; } },
      { at: 200 * MB, fn: (u) => { void u.abort(); return 'stopped'; } },
    ],
  });
  expect(drops).toBe(1);
  expect(first.done).toBe(false);
  const head = await fetch(first.upload.url!, { method: 'HEAD', headers: { authorization: `Bearer ${alice}`, 'tus-resumable': '1.0.0' } });
  const kept = Number(head.headers.get('upload-offset'));
  expect(kept).toBeGreaterThanOrEqual(100 * MB);
  expect(kept).toBeLessThan(data.length);

  // 3. A new client resumes from the upload's URL (what tus-js-client's URL storage gives it after a reload) and sends only the rest.
  let firstOffset = -1;
  const rest = await run({ ...common, data, uploadUrl: first.upload.url!, onProgress: undefined, onChunkComplete: (_c, accepted) => { if (firstOffset < 0) firstOffset = accepted; } });
  expect(rest.done).toBe(true);
  expect(firstOffset).toBeGreaterThan(kept);

  const list = (await s.get<DiskList>('/h5/disk/list', { size: 100 }, alice)).data.list;
  expect(list.filter((n) => n.name.startsWith('big'))).toHaveLength(1);
  const file = list.find((n) => n.id === rest.fileId)!;
  expect(file).toMatchObject({ size: data.length, name: 'big.bin' });
  const res = await fetch(`${s.base}/h5/disk/download?id=${file.id}`, { headers: { authorization: `Bearer ${alice}` } });
  const got = createHash('sha256');
  for await (const chunk of res.body!) got.update(chunk);
  expect(got.digest('hex')).toBe(sha256);
});
