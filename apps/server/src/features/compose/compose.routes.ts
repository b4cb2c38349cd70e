import {
  ComposeData, ComposeLimits, ComposeMessages, DraftInput, envelope, LoadComposeQuery, MailIdInput, RecallResult, SavedDraft, SendInput, SendResult,
  SuggestQuery, Suggestions, UploadQuery, UploadResult,
} from '@mailwing/shared';
import { invalid } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import { readUpload } from '../../http/multipart.js';
import { sendUserFile } from '../../http/user-content.js';
import { caller, type App } from '../../http/types.js';
import type { ComposeService } from './compose.service.js';
import type { UploadService } from './upload.service.js';

export function composeRoutes(app: App, compose: ComposeService, uploads: UploadService): void {
  const tags = ['compose'];

  app.get('/h5/write/limits', { schema: { tags, response: { 200: envelope(ComposeLimits) } } }, async () => ok(uploads.limits()));

  app.post('/h5/write/upload', { schema: { tags, consumes: ['multipart/form-data'], response: { 200: envelope(UploadResult) } } }, async (req) => {
    const file = await readUpload(req, { tooLarge: () => invalid('file', ComposeMessages.fileTooLarge, 'upload.too_large'), checkName: (n) => uploads.checkName(n) });
    // part.mimetype is the uploader's claim; the stored type comes from the bytes (user-content.ts).
    return ok(await uploads.store(caller(req).userId, { name: file.filename, data: file.data }));
  });

  // The uploaded bytes, for the editor's inline images and a preview before sending.
  app.get('/h5/write/file', { schema: { tags, querystring: UploadQuery } }, async (req, reply) => {
    const part = await uploads.get(caller(req).userId, Number(req.query.id));
    return sendUserFile(reply, { body: part.content, name: part.filename, declaredType: part.contentType }, { inline: true, cache: 'private, max-age=86400', range: req.headers.range });
  });

  // The editor's HTML may be long (pasted tables, data: images): above the 1 MB default, within the schema's 5 MB per field.
  const bodyLimit = 12 * 1024 * 1024;
  app.post('/h5/write/draft', { bodyLimit, schema: { tags, body: DraftInput, response: { 200: envelope(SavedDraft) } } }, async (req) =>
    ok(await compose.saveDraft(caller(req), req.body)));

  app.post('/h5/write/send', { bodyLimit, schema: { tags, body: SendInput, response: { 200: envelope(SendResult) } } }, async (req) =>
    ok(await compose.send(caller(req), req.body, req.idempotency)));

  app.get('/h5/write/load', { schema: { tags, querystring: LoadComposeQuery, response: { 200: envelope(ComposeData) } } }, async (req) =>
    ok(await compose.load(caller(req), req.query.mid, req.query.mode, { lang: req.query.lang, tz: req.query.tz })));

  app.get('/h5/write/suggest', { schema: { tags, querystring: SuggestQuery, response: { 200: envelope(Suggestions) } } }, async (req) =>
    ok(await compose.suggest(caller(req), req.query.q)));

  app.post('/h5/write/recall', { schema: { tags, body: MailIdInput, response: { 200: envelope(RecallResult) } } }, async (req) =>
    ok(await compose.recall(caller(req), req.body.mid)));

  app.post('/h5/write/cancel-timed', { schema: { tags, body: MailIdInput, response: { 200: envelope(SavedDraft) } } }, async (req) =>
    ok(await compose.cancelTimed(caller(req), req.body.mid)));
}
