import { NOTE_FOLDERS_MAX, type NoteFolder, type NoteFolderList } from '@mailwing/shared';
import { invalid, notFound } from '../../errors.js';
import * as repo from './note.repository.js';
import type { NotesDb } from './tables.js';

/** A mailbox's note folders (one level: notes are few next to mail) and the tags in use. */
export class NoteFolderService {
  constructor(private readonly db: NotesDb) {}

  async list(userId: number): Promise<NoteFolderList> {
    const folders = await repo.listFolders(this.db, userId);
    return { list: folders.map((f) => ({ id: String(f.id), name: f.name, count: f.count })), tags: await repo.listTags(this.db, userId) };
  }

  async create(userId: number, name: string): Promise<NoteFolder> {
    if (await repo.folderNameTaken(this.db, userId, name)) throw invalid('name', 'A folder with this name already exists', 'note.folder_exists');
    if ((await repo.countFolders(this.db, userId)) >= NOTE_FOLDERS_MAX) throw invalid('name', `At most ${NOTE_FOLDERS_MAX} folders`, 'note.folder_limit');
    const f = await repo.insertFolder(this.db, userId, name);
    return { id: String(f.id), name: f.name, count: 0 };
  }

  async rename(userId: number, id: string, name: string): Promise<NoteFolder> {
    await this.require(userId, id);
    if (await repo.folderNameTaken(this.db, userId, name, Number(id))) throw invalid('name', 'A folder with this name already exists', 'note.folder_exists');
    await repo.renameFolder(this.db, userId, Number(id), name);
    return (await this.list(userId)).list.find((f) => f.id === id)!;
  }

  /** The folder goes; its notes stay, in no folder. */
  async remove(userId: number, id: string): Promise<void> {
    await this.require(userId, id);
    await repo.deleteFolder(this.db, userId, Number(id));
  }

  private async require(userId: number, id: string) {
    const f = await repo.findFolder(this.db, userId, Number(id));
    if (!f) throw notFound('Note folder');
    return f;
  }
}
