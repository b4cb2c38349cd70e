import type { Note, NoteFolder, NoteFolderList, NoteList, NoteSealedOut } from '@mailwing/shared';
import { PAGE_SIZE_DEFAULT } from '@mailwing/shared';
import { request, type Params } from './request';

// Typed calls of the cloud-notes pages (issue 18); loaded with those pages only.
// Calls are quiet: the pages say why a call failed in the user's language, by reason code.

const post = <T>(path: string, data: Params) => request<T>(path, { method: 'POST', data, quiet: true });

export interface NoteQuery { folder?: string; tag?: string; q?: string }

/** What a save sends: plain fields, or the sealed ones (with the proof of the password it is locked with). */
export type NoteBody =
  | { locked: false; title: string; html: string; folder?: string; tags?: string }
  | { locked: true; cipher: string; iv: string; salt: string; iterations: number; kdf: string; newProof: string; folder?: string; tags?: string };

export const notesApi = {
  list: (query: NoteQuery, page: number, size = PAGE_SIZE_DEFAULT) =>
    request<NoteList>('/note/list', { data: { ...query, page, size }, loading: false, quiet: true }),
  get: (id: string) => request<Note>('/note/get', { data: { id }, quiet: true }),
  create: (body: NoteBody) => post<Note>('/note/create', body),
  /** proof: the current password's, when the note is locked now. */
  update: (id: string, body: Partial<NoteBody> & { locked?: boolean }, proof?: string) => post<Note>('/note/update', { id, ...body, proof }),
  unlock: (id: string, proof: string) => post<NoteSealedOut>('/note/unlock', { id, proof }),
  remove: (id: string) => post<unknown>('/note/delete', { id }),
  move: (ids: string[], folder: string) => post<{ moved: number }>('/note/move', { ids: ids.join(','), folder }),
  folders: () => request<NoteFolderList>('/note/folders', { loading: false, quiet: true }),
  createFolder: (name: string) => post<NoteFolder>('/note/folder-create', { name }),
  renameFolder: (id: string, name: string) => post<NoteFolder>('/note/folder-rename', { id, name }),
  deleteFolder: (id: string) => post<unknown>('/note/folder-delete', { id }),
};
