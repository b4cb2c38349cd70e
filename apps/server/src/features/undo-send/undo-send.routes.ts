import { envelope, SavedDraft, UndoSendInput, UndoSendSetting } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { ComposeService } from '../compose/compose.service.js';
import * as repo from './undo-send.repository.js';

/** The undo window setting, and taking a held mail back (issue 14, scope 4). */
export function undoSendRoutes(app: App, compose: ComposeService, db: Db): void {
  const tags = ['compose'];
  app.get('/h5/setting/undo-send', { schema: { tags, response: { 200: envelope(UndoSendSetting) } } }, async (req) =>
    ok({ seconds: await repo.undoSeconds(db, caller(req).userId) }));
  app.post('/h5/setting/undo-send', { schema: { tags, body: UndoSendSetting, response: { 200: envelope(UndoSendSetting) } } }, async (req) => {
    await repo.setUndoSeconds(db, caller(req).userId, req.body.seconds);
    return ok({ seconds: req.body.seconds });
  });
  app.post('/h5/write/undo', { schema: { tags, body: UndoSendInput, response: { 200: envelope(SavedDraft) } } }, async (req) =>
    ok(await compose.undo(caller(req), req.body.mid)));
}
