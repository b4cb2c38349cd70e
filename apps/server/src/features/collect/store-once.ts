import type { Db } from '../../db/connect.js';
import type { IngestService } from '../message/ingest.service.js';
import * as repo from './collect.repository.js';
import { fingerprintRaw, returnPath } from './fingerprint.js';
import type { Mark } from './sink.js';

export interface FetchedFrom { db: Db; ingest: IngestService; accountId: number; userId: number; source: string }

/**
 * Stores a fetched mail into one folder and records its fingerprint in the same commit,
 * unless the fingerprint is known (then only the record is written): the one rule that
 * keeps collection and migration from storing a mail twice. Returns whether it was new.
 */
export async function storeOnce(f: FetchedFrom, folderMid: number, raw: Buffer, mark: Mark, asIs = false): Promise<boolean> {
  const fetched: repo.Fetched = { accountId: f.accountId, userId: f.userId, source: f.source, fingerprint: fingerprintRaw(raw), uidl: mark.uidl };
  if ((await repo.seenFingerprints(f.db, f.userId, f.source, [fetched.fingerprint])).size > 0) {
    await repo.recordFetched(f.db, fetched);
    return false;
  }
  await f.ingest.deliver(raw, returnPath(raw), [{ userId: f.userId, folderMid, ...(asIs ? { seen: !!mark.seen } : {}) }], undefined, {
    inCommit: (trx) => repo.recordFetched(trx, fetched), asIs,
  });
  return true;
}
