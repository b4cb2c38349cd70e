import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../errors.js';
import { Code, type ReasonCode } from '@mailwing/shared';
import { ensureAppKey } from '../system/app-keys.repository.js';
import { buildArchive, type ArchiveDeps } from './export-archive.js';
import * as repo from './export.repository.js';
import * as jobs from './job.repository.js';
import type { JobRow } from './job.repository.js';

/** A download link works this long after the archive is built. */
export const LINK_DAYS = 7;
const DAY_MS = 86_400_000;
export const EXPORT_DOWNLOAD_PATH = '/h5/west/export/download';

export interface ExportView {
  id: number;
  state: 'pending' | 'done' | 'failed' | 'expired';
  size: number;
  /** Relative URL with its signature; null until built, and after it expires. */
  link: string | null;
  /** Unix seconds. */
  linkExpiresAt: number | null;
  createdAt: number;
  downloads: number;
  lastError: string;
}

/** The key that signs export links, made on first use and shared by every node. */
export async function linkKey(db: Db): Promise<Buffer> {
  return Buffer.from(await ensureAppKey(db, 'west_export_link_key', randomBytes(32).toString('hex')), 'hex');
}

function sign(key: Buffer, id: number, expires: number): string {
  return createHmac('sha256', key).update(`export:${id}:${expires}`).digest('base64url');
}

/** `/h5/west/export/download?id=…&e=<unix expiry>&s=<HMAC>`: anyone holding it may download until it expires. */
export function exportLink(key: Buffer, id: number, expiresAt: Date): string {
  const e = Math.floor(expiresAt.getTime() / 1000);
  return `${EXPORT_DOWNLOAD_PATH}?id=${id}&e=${e}&s=${sign(key, id, e)}`;
}

/**
 * Asks for an archive of everything a customer's companies hold (in the caller's transaction if
 * given one). An export already being built is returned instead of starting a second.
 */
export async function requestExport(db: Db, customerId: number, now: Date = new Date()): Promise<{ exportId: number; jobId: number }> {
  const open = (await repo.exportsOf(db, customerId)).find((e) => e.state === 'pending');
  if (open) return { exportId: open.id, jobId: 0 };
  const jobId = await jobs.insertJob(db, { kind: 'export', customerId, payload: {}, runAt: now });
  return { exportId: await repo.insertExport(db, customerId, jobId), jobId };
}

/**
 * Cancelling starts with an export (issue 19 §7: "a data export first"): unless one is being built
 * or a built one can still be downloaded, a new one is asked for in the caller's transaction.
 */
export async function ensureExport(db: Db, customerId: number, now: Date = new Date()): Promise<void> {
  const usable = (await repo.exportsOf(db, customerId)).some((e) => e.state === 'pending'
    || (e.state === 'done' && e.blob_hash !== null && e.link_expires_at !== null && e.link_expires_at.getTime() > now.getTime()));
  if (!usable) await requestExport(db, customerId, now);
}

/** A customer's exports, newest first, with signed links for the ones that can be downloaded. */
export async function exportsOfCustomer(db: Db, customerId: number, now: Date = new Date()): Promise<ExportView[]> {
  const key = await linkKey(db);
  return (await repo.exportsOf(db, customerId)).map((e) => {
    const live = e.blob_hash !== null && e.link_expires_at !== null && e.link_expires_at.getTime() > now.getTime();
    const state = e.state === 'done' ? (live ? 'done' : 'expired') : e.state === 'pending' ? 'pending' : 'failed';
    return {
      id: e.id, state, size: Number(e.size), link: live ? exportLink(key, e.id, e.link_expires_at!) : null,
      linkExpiresAt: e.link_expires_at ? Math.floor(e.link_expires_at.getTime() / 1000) : null,
      createdAt: Math.floor(e.created_at.getTime() / 1000), downloads: Number(e.downloads ?? 0), lastError: e.last_error,
    };
  });
}

/** Builds the archive of a claimed export job; a retry after the archive was stored only finishes the job. */
export async function runExport(d: ArchiveDeps, job: JobRow, now: Date): Promise<void> {
  const current = await jobs.findJob(d.db, job.id);
  if (!current || current.state !== 'pending') return;
  const { staged, messages } = await buildArchive(d, job.customer_id, now);
  try {
    await d.db.transaction().execute(async (trx) => {
      const row = await repo.exportOfJob(trx, job.id);
      if (!row) throw new Error('export row missing');
      if (row.blob_hash === null) {
        await d.blobs.reference(trx, [{ staged, n: 1 }]);
        await repo.setArchive(trx, row.id, { hash: staged.hash, size: staged.size, linkExpiresAt: new Date(now.getTime() + LINK_DAYS * DAY_MS) });
      }
      await jobs.finish(trx, job.id, now, { exportId: row.id, size: staged.size, messages });
    });
  } finally {
    await d.blobs.store.release(staged);
  }
}

const refused = (reason: ReasonCode, message: string) => new AppError(Code.Forbidden, message, { reason });

/** Checks a link and logs the download; the caller streams the returned blob. */
export async function openExport(db: Db, q: { id: number; e: number; s: string }, client: { ip: string; userAgent: string }, now: Date = new Date()) {
  const key = await linkKey(db);
  const want = Buffer.from(sign(key, q.id, q.e));
  const got = Buffer.from(q.s);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw refused('export.link_invalid', 'This download link is not valid');
  if (q.e * 1000 <= now.getTime()) throw refused('export.link_expired', 'This download link has expired');
  const row = await repo.findExport(db, q.id);
  if (!row || row.blob_hash === null) throw refused('export.link_expired', 'This download link has expired');
  await repo.logDownload(db, row.id, { ip: client.ip, userAgent: client.userAgent, at: now });
  return { hash: row.blob_hash, size: Number(row.size), name: `mailwing-export-${row.id}.zip` };
}

/** Drops the blobs of archives whose links expired; the collector removes the files. */
export async function sweepExports(db: Db, blobs: BlobService, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const old = await repo.takeExpiredArchives(trx, now, 50);
    const counts = new Map<string, number>();
    for (const o of old) counts.set(o.blob_hash, (counts.get(o.blob_hash) ?? 0) + 1);
    await blobs.unreference(trx, counts);
    return old.length;
  });
}
