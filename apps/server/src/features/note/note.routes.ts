import {
  Empty, envelope, Note, NoteCreateInput, NoteFolder, NoteFolderCreateInput, NoteFolderIdInput, NoteFolderList, NoteFolderRenameInput,
  NoteIdInput, NoteList, NoteListQuery, NoteMoved, NoteMoveInput, NoteSealedOut, NoteUnlockInput, NoteUpdateInput,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { NoteService } from './note.service.js';

/** A note with small data: images in it, or its ciphertext, is larger than the default 1 MB body. */
const bodyLimit = 6 * 1024 * 1024;

export function noteRoutes(app: App, notes: NoteService): void {
  const tags = ['note'];
  app.get('/h5/note/list', { schema: { tags, querystring: NoteListQuery, response: { 200: envelope(NoteList) } } }, async (req) =>
    ok(await notes.list(caller(req).userId, req.query)));
  app.get('/h5/note/get', { schema: { tags, querystring: NoteIdInput, response: { 200: envelope(Note) } } }, async (req) =>
    ok(await notes.get(caller(req).userId, req.query.id)));
  app.post('/h5/note/create', { bodyLimit, schema: { tags, body: NoteCreateInput, response: { 200: envelope(Note) } } }, async (req) =>
    ok(await notes.create(caller(req).userId, req.body)));
  app.post('/h5/note/update', { bodyLimit, schema: { tags, body: NoteUpdateInput, response: { 200: envelope(Note) } } }, async (req) =>
    ok(await notes.update(caller(req).userId, req.body)));
  app.post('/h5/note/unlock', { schema: { tags, body: NoteUnlockInput, response: { 200: envelope(NoteSealedOut) } } }, async (req) =>
    ok(await notes.unlock(caller(req).userId, req.body.id, req.body.proof)));
  app.post('/h5/note/delete', { schema: { tags, body: NoteIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await notes.remove(caller(req).userId, req.body.id);
    return ok({});
  });
  app.post('/h5/note/move', { schema: { tags, body: NoteMoveInput, response: { 200: envelope(NoteMoved) } } }, async (req) =>
    ok({ moved: await notes.move(caller(req).userId, req.body.ids, req.body.folder) }));

  app.get('/h5/note/folders', { schema: { tags, response: { 200: envelope(NoteFolderList) } } }, async (req) =>
    ok(await notes.folders.list(caller(req).userId)));
  app.post('/h5/note/folder-create', { schema: { tags, body: NoteFolderCreateInput, response: { 200: envelope(NoteFolder) } } }, async (req) =>
    ok(await notes.folders.create(caller(req).userId, req.body.name)));
  app.post('/h5/note/folder-rename', { schema: { tags, body: NoteFolderRenameInput, response: { 200: envelope(NoteFolder) } } }, async (req) =>
    ok(await notes.folders.rename(caller(req).userId, req.body.id, req.body.name)));
  app.post('/h5/note/folder-delete', { schema: { tags, body: NoteFolderIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await notes.folders.remove(caller(req).userId, req.body.id);
    return ok({});
  });
}
