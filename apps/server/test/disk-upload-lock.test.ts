import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbUploadLocker } from '../src/features/disk/upload-lock.js';
import { startTestServer, type TestServer } from './harness.js';

// The tus upload lock lives in the database: two lockers stand for two processes of a
// cluster sharing it (each with its own in-memory state, as separate processes have).

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); }, 400_000);
afterAll(async () => s?.stop());

const never = () => new AbortController().signal;
const noRelease = async () => undefined;

describe('tus upload lock across processes', () => {
  it('a second process waits while the first holds an upload, and gets it once released', async () => {
    const db = s.rt.services.db;
    const a = new DbUploadLocker(db, { acquireTimeoutMs: 300, pollMs: 20 });
    const b = new DbUploadLocker(db, { acquireTimeoutMs: 300, pollMs: 20 });
    const la = a.newLock('u1');
    await la.lock(never(), noRelease);
    await expect(b.newLock('u1').lock(never(), noRelease)).rejects.toMatchObject({ status_code: 500, body: expect.stringContaining('lock') });
    // Another upload is not held up.
    const other = b.newLock('u2');
    await other.lock(never(), noRelease);
    await other.unlock();
    await la.unlock();
    const lb = b.newLock('u1');
    await lb.lock(never(), noRelease);
    await lb.unlock();
  });

  it('a lock whose process died (its lease ran out) is taken over', async () => {
    const db = s.rt.services.db;
    await sql`INSERT INTO disk_upload_locks (upload_id, holder, lease_until) VALUES ('u3', 'dead:1', now() - interval '1 second')`.execute(db);
    const l = new DbUploadLocker(db, { acquireTimeoutMs: 300, pollMs: 20 }).newLock('u3');
    await l.lock(never(), noRelease);
    const row = await sql<{ holder: string }>`SELECT holder FROM disk_upload_locks WHERE upload_id = 'u3'`.execute(db);
    expect(row.rows[0]!.holder).not.toBe('dead:1');
    await l.unlock();
    expect((await sql`SELECT 1 FROM disk_upload_locks WHERE upload_id = 'u3'`.execute(db)).rows).toHaveLength(0);
  });

  it('inside one process a newer request asks the holder to let go, as tus expects', async () => {
    const locker = new DbUploadLocker(s.rt.services.db, { acquireTimeoutMs: 2_000, pollMs: 20 });
    const first = locker.newLock('u4');
    let asked = 0;
    await first.lock(never(), async () => { asked++; await first.unlock(); });
    const second = locker.newLock('u4');
    await second.lock(never(), noRelease);
    expect(asked).toBe(1);
    await second.unlock();
  });
});
