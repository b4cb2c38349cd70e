import { CreateFolderInput, DeletedFolder, DeleteFolderInput, envelope, Folder, MboxIndex, RenameFolderInput } from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { MailboxService } from './mailbox.service.js';

export function mailboxRoutes(app: App, mailbox: MailboxService): void {
  app.get('/h5/mbox/index', { schema: { tags: ['mailbox'], response: { 200: envelope(MboxIndex) } } }, async (req) =>
    ok(await mailbox.index(caller(req).userId)));

  app.post('/h5/mboxop/create-folder', { schema: { tags: ['mailbox'], body: CreateFolderInput, response: { 200: envelope(Folder) } } }, async (req) =>
    ok(await mailbox.createFolder(caller(req).userId, req.body)));

  app.post('/h5/mboxop/rename-folder', { schema: { tags: ['mailbox'], body: RenameFolderInput, response: { 200: envelope(Folder) } } }, async (req) =>
    ok(await mailbox.renameFolder(caller(req).userId, req.body.mid, req.body.name)));

  app.post('/h5/mboxop/delete-folder', { schema: { tags: ['mailbox'], body: DeleteFolderInput, response: { 200: envelope(DeletedFolder) } } }, async (req) =>
    ok(await mailbox.deleteFolder(caller(req).userId, req.body.mid)));
}
