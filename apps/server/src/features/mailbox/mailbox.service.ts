import { FIRST_CUSTOM_FOLDER_ID, FOLDER_MAX_DEPTH, SystemFolder, type CreateFolderInput, type Folder, type MboxIndex } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import * as repo from './mailbox.repository.js';

type FolderRow = { mid: number; parent_mid: number | null; name: string; unread: number; total: number };

const toFolder = (r: FolderRow): Folder => ({
  mid: String(r.mid), name: r.name, ...(r.parent_mid !== null ? { parent: String(r.parent_mid) } : {}), count: r.unread, total: r.total,
});

export class MailboxService {
  constructor(private readonly db: Db) {}

  async index(userId: number): Promise<MboxIndex> {
    const rows = await repo.listFolders(this.db, userId);
    return {
      system: rows.filter((r) => r.mid < FIRST_CUSTOM_FOLDER_ID).map(toFolder),
      custom: rows.filter((r) => r.mid >= FIRST_CUSTOM_FOLDER_ID).map(toFolder),
    };
  }

  /** A folder id the caller owns, or 404 (the same for missing and foreign). */
  async requireFolder(userId: number, mid: string) {
    const row = await repo.findFolder(this.db, userId, Number(mid));
    if (!row) throw notFound('Folder');
    return row;
  }

  async createFolder(userId: number, input: CreateFolderInput): Promise<Folder> {
    let depth = 1;
    let parentMid: number | null = null;
    if (input.parent !== undefined) {
      const parent = await this.requireFolder(userId, input.parent);
      // System folders hold mail, not sub-folders; custom trees hang from the root.
      if (parent.mid < FIRST_CUSTOM_FOLDER_ID) throw invalid('parent', 'Folders can only be created inside your own folders', 'folder.parent_system');
      depth = parent.depth + 1;
      parentMid = parent.mid;
    }
    if (depth > FOLDER_MAX_DEPTH) throw invalid('parent', `Only ${FOLDER_MAX_DEPTH} levels of folders may be created`, 'folder.too_deep');
    if (await repo.siblingNameTaken(this.db, userId, parentMid, input.name)) throw invalid('name', 'A folder with this name already exists here', 'folder.name_taken');
    return toFolder(await repo.insertFolder(this.db, { userId, parentMid, name: input.name, depth }));
  }

  async renameFolder(userId: number, mid: string, name: string): Promise<Folder> {
    const folder = await this.requireCustom(userId, mid);
    if (folder.name.toLowerCase() !== name.toLowerCase() && (await repo.siblingNameTaken(this.db, userId, folder.parent_mid, name))) {
      throw invalid('name', 'A folder with this name already exists here', 'folder.name_taken');
    }
    await repo.renameFolder(this.db, userId, folder.mid, name);
    return toFolder({ ...folder, name });
  }

  /** Deletes a custom folder and its sub-folders; their mail goes to Deleted, never lost. */
  async deleteFolder(userId: number, mid: string): Promise<{ folders: number; moved: number }> {
    const folder = await this.requireCustom(userId, mid);
    return this.db.transaction().execute(async (trx) => {
      const mids = await repo.subtree(trx, userId, folder.mid);
      const moved = await repo.moveFolderMail(trx, userId, mids, Number(SystemFolder.Deleted));
      await repo.deleteFolders(trx, userId, mids);
      return { folders: mids.length, moved };
    });
  }

  private async requireCustom(userId: number, mid: string) {
    const folder = await this.requireFolder(userId, mid);
    if (folder.mid < FIRST_CUSTOM_FOLDER_ID) throw invalid('mid', 'System folders cannot be renamed or deleted', 'folder.system');
    return folder;
  }
}
