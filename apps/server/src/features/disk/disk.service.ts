import type { DiskBinList, DiskList, DiskNode } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import { notFound } from '../../errors.js';
import * as repo from './disk.repository.js';
import { checkName, refuse, toNode } from './disk-rules.js';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** Files and folders of one user's disk, and its recycle bin. */
export class DiskService {
  constructor(private readonly db: Db, private readonly blobs: BlobService, private readonly now: () => Date = () => new Date()) {}

  /** A live node of the caller: not in the bin, nor under a binned folder. Anything else is 404. */
  async live(userId: number, id: number, want?: 'folder' | 'file', db: Db = this.db): Promise<repo.NodeRow> {
    const node = await repo.findNode(db, userId, id);
    if (!node || (want === 'folder' && !node.is_folder) || (want === 'file' && node.is_folder)) throw notFound('Disk item');
    const path = await repo.pathOf(db, userId, id);
    if (path.some((p) => p.deleted)) throw notFound('Disk item');
    return node;
  }

  /** The folder to put something in: null for the root. */
  async folder(userId: number, id: string | undefined, db: Db = this.db): Promise<number | null> {
    if (id === undefined) return null;
    return (await this.live(userId, Number(id), 'folder', db)).id;
  }

  async list(userId: number, parent: string | undefined, page: number, size: number): Promise<DiskList> {
    const parentId = await this.folder(userId, parent);
    const { rows, total } = await repo.listChildren(this.db, userId, parentId, (page - 1) * size, size);
    const path = parentId === null ? [] : (await repo.pathOf(this.db, userId, parentId)).map((p) => ({ id: String(p.id), name: p.name }));
    return { list: rows.map(toNode), total, page, size, path };
  }

  async bin(userId: number, page: number, size: number): Promise<DiskBinList> {
    const { rows, total } = await repo.listBin(this.db, userId, (page - 1) * size, size);
    return { list: rows.map(toNode), total, page, size };
  }

  async createFolder(userId: number, parent: string | undefined, rawName: string): Promise<DiskNode> {
    const name = checkName(rawName);
    return this.db.transaction().execute(async (trx) => {
      const parentId = await this.folder(userId, parent, trx);
      if (await repo.nameTaken(trx, userId, parentId, name)) throw refuse('name', 'nameTaken');
      return toNode(await this.unique(() => repo.insertNode(trx, { userId, parentId, folder: true, name, now: this.now() })));
    });
  }

  /** Inside the finishing transaction of an upload: the file's row, under a free name. */
  async addFile(trx: Db, userId: number, parent: number | null, name: string, v: { size: number; blobHash: string; contentType: string }): Promise<DiskNode> {
    let parentId = parent;
    // The folder may have been binned or purged while the file uploaded: it lands in the root then.
    if (parentId !== null && !(await this.live(userId, parentId, 'folder', trx).catch(() => null))) parentId = null;
    const free = await this.freeName(trx, userId, parentId, name);
    return toNode(await repo.insertNode(trx, { userId, parentId, folder: false, name: free, size: v.size, blobHash: v.blobHash, contentType: v.contentType, now: this.now() }));
  }

  async rename(userId: number, id: string, rawName: string): Promise<DiskNode> {
    const name = checkName(rawName);
    return this.db.transaction().execute(async (trx) => {
      const node = await this.live(userId, Number(id), undefined, trx);
      if (await repo.nameTaken(trx, userId, node.parent_id, name, node.id)) throw refuse('name', 'nameTaken');
      await this.unique(() => repo.update(trx, userId, node.id, { name, now: this.now() }));
      return toNode((await repo.findNode(trx, userId, node.id))!);
    });
  }

  async move(userId: number, ids: string[], parent: string | undefined): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const target = await this.folder(userId, parent, trx);
      const nodes = await this.lockedLive(trx, userId, ids);
      if (target !== null) {
        const ancestors = (await repo.pathOf(trx, userId, target)).map((p) => p.id);
        if (nodes.some((n) => ancestors.includes(n.id))) throw refuse('parent', 'moveIntoSelf');
      }
      for (const n of nodes) {
        if (n.parent_id === target) continue;
        if (await repo.nameTaken(trx, userId, target, n.name, n.id)) throw refuse('ids', 'nameTaken');
        await this.unique(() => repo.update(trx, userId, n.id, { parentId: target, now: this.now() }));
      }
      return nodes.length;
    });
  }

  /** To the recycle bin; the subtree goes with a folder without being marked. */
  async trash(userId: number, ids: string[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const nodes = await this.lockedLive(trx, userId, ids);
      const now = this.now();
      for (const n of nodes) await repo.update(trx, userId, n.id, { deletedAt: now, now });
      return nodes.length;
    });
  }

  /** Back from the bin, to the folder it left, or to the root when that folder is gone too. */
  async restore(userId: number, ids: string[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const nodes = await this.lockedBinned(trx, userId, ids);
      for (const n of nodes) {
        const parentOk = n.parent_id !== null && (await this.live(userId, n.parent_id, 'folder', trx).catch(() => null)) !== null;
        const parentId = parentOk ? n.parent_id : null;
        if (await repo.nameTaken(trx, userId, parentId, n.name, n.id)) throw refuse('ids', 'nameTaken');
        await this.unique(() => repo.update(trx, userId, n.id, { parentId, deletedAt: null, now: this.now() }));
      }
      return nodes.length;
    });
  }

  /** Deletes binned items for good and lets their blobs go. */
  async purge(userId: number, ids: string[]): Promise<number> {
    const n = await this.db.transaction().execute(async (trx) => {
      const nodes = await this.lockedBinned(trx, userId, ids);
      const ownIds = nodes.map((x) => x.id);
      const counts = await repo.subtreeBlobs(trx, userId, ownIds);
      await repo.deleteNodes(trx, userId, ownIds);
      await this.blobs.unreference(trx, counts);
      return nodes.length;
    });
    await this.blobs.collect();
    return n;
  }

  private async lockedLive(trx: Db, userId: number, ids: string[]): Promise<repo.NodeRow[]> {
    const wanted = [...new Set(ids.map(Number))];
    const rows = await repo.lockOwned(trx, userId, wanted);
    if (rows.length !== wanted.length) throw notFound('Disk item');
    for (const r of rows) await this.live(userId, r.id, undefined, trx);
    return rows;
  }

  private async lockedBinned(trx: Db, userId: number, ids: string[]): Promise<repo.NodeRow[]> {
    const wanted = [...new Set(ids.map(Number))];
    const rows = await repo.lockOwned(trx, userId, wanted);
    if (rows.length !== wanted.length || rows.some((r) => r.deleted_at === null)) throw notFound('Disk item');
    return rows;
  }

  private async freeName(trx: Db, userId: number, parentId: number | null, name: string): Promise<string> {
    if (!(await repo.nameTaken(trx, userId, parentId, name))) return name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let i = 1; ; i++) {
      const candidate = `${stem} (${i})${ext}`;
      if (!(await repo.nameTaken(trx, userId, parentId, candidate))) return candidate;
    }
  }

  // Two requests racing past nameTaken meet the unique index: the loser gets the same refusal.
  private async unique<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err)) throw refuse('name', 'nameTaken');
      throw err;
    }
  }
}
