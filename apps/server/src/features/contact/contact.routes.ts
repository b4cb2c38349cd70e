import { create as contentDisposition } from 'content-disposition';
import {
  Changed, ContactInput, ContactList, ContactListQuery, Empty, envelope, ExportQuery, GroupIdInput, GroupInput, GroupMembersInput, IdsBody, ImportantInput,
  ImportResult, SavedDraft, SenderRuleInput, SenderRules,
} from '@mailwing/shared';
import { invalid } from '../../errors.js';
import { ok } from '../../http/envelope.js';
import { readUpload } from '../../http/multipart.js';
import { caller, type App } from '../../http/types.js';
import type { ContactService } from './contact.service.js';
import { userContentHeaders } from '../../http/user-content.js';

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export function contactRoutes(app: App, contacts: ContactService): void {
  const tags = ['contact'];
  const idResult = { response: { 200: envelope(SavedDraft) } };

  app.get('/h5/contact/list', { schema: { tags, querystring: ContactListQuery, response: { 200: envelope(ContactList) } } }, async (req) =>
    ok(await contacts.list(caller(req).userId, req.query.q, req.query.group)));
  app.post('/h5/contact/save', { schema: { tags, body: ContactInput, ...idResult } }, async (req) => ok(await contacts.save(caller(req).userId, req.body)));
  app.post('/h5/contact/delete', { schema: { tags, body: IdsBody, response: { 200: envelope(Changed) } } }, async (req) =>
    ok({ changed: await contacts.remove(caller(req).userId, req.body.ids) }));
  app.post('/h5/contact/important', { schema: { tags, body: ImportantInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await contacts.setImportant(caller(req).userId, req.body.id, req.body.important);
    return ok({});
  });

  app.post('/h5/contact/group-save', { schema: { tags, body: GroupInput, ...idResult } }, async (req) =>
    ok(await contacts.saveGroup(caller(req).userId, req.body.id, req.body.name)));
  app.post('/h5/contact/group-delete', { schema: { tags, body: GroupIdInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await contacts.deleteGroup(caller(req).userId, req.body.id);
    return ok({});
  });
  app.post('/h5/contact/group-members', { schema: { tags, body: GroupMembersInput, response: { 200: envelope(Empty) } } }, async (req) => {
    await contacts.groupMembers(caller(req).userId, req.body.id, req.body.add, req.body.remove);
    return ok({});
  });

  app.post('/h5/contact/import', { schema: { tags, consumes: ['multipart/form-data'], response: { 200: envelope(ImportResult) } } }, async (req) => {
    const file = await readUpload(req, { maxBytes: MAX_IMPORT_BYTES, tooLarge: () => invalid('file', 'File too large', 'upload.too_large') });
    return ok(await contacts.import(caller(req).userId, file.filename, file.data.toString('utf8')));
  });

  app.get('/h5/contact/export', { schema: { tags, querystring: ExportQuery } }, async (req, reply) => {
    const body = await contacts.export(caller(req).userId, req.query.format);
    const csv = req.query.format === 'csv';
    return userContentHeaders(reply).header('Content-Type', csv ? 'text/csv; charset=utf-8' : 'text/vcard; charset=utf-8')
      .header('Content-Disposition', contentDisposition(csv ? 'contacts.csv' : 'contacts.vcf')).send(body);
  });

  app.get('/h5/contact/rules', { schema: { tags, response: { 200: envelope(SenderRules) } } }, async (req) => ok(await contacts.rules(caller(req).userId)));
  app.post('/h5/contact/rule-add', { schema: { tags, body: SenderRuleInput, response: { 200: envelope(SenderRules) } } }, async (req) =>
    ok(await contacts.addRule(caller(req).userId, req.body.kind, req.body.pattern)));
  app.post('/h5/contact/rule-delete', { schema: { tags, body: SenderRuleInput, response: { 200: envelope(SenderRules) } } }, async (req) =>
    ok(await contacts.deleteRule(caller(req).userId, req.body.kind, req.body.pattern)));
}
