import {
  envelope, ResolvedSignature, SignatureDefaultsInput, SignatureIdInput, SignatureInput, SignatureList, SignatureModeQuery,
  SignatureSaved, SignatureUpdateInput,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import type { SignatureService } from './signature.service.js';

export function signatureRoutes(app: App, signatures: SignatureService): void {
  const tags = ['signature'];
  const list = { response: { 200: envelope(SignatureList) } };
  const saved = { response: { 200: envelope(SignatureSaved) } };
  app.get('/h5/signature/list', { schema: { tags, ...list } }, async (req) => ok(await signatures.list(caller(req).userId)));
  app.get('/h5/signature/default', { schema: { tags, querystring: SignatureModeQuery, response: { 200: envelope(ResolvedSignature) } } }, async (req) =>
    ok({ signature: await signatures.resolve(caller(req).userId, req.query.mode) }));
  app.post('/h5/signature/create', { schema: { tags, body: SignatureInput, ...saved } }, async (req) =>
    ok(await signatures.create(caller(req).userId, req.body.name, req.body.html)));
  app.post('/h5/signature/update', { schema: { tags, body: SignatureUpdateInput, ...saved } }, async (req) =>
    ok(await signatures.update(caller(req).userId, req.body.id, { name: req.body.name, html: req.body.html })));
  app.post('/h5/signature/delete', { schema: { tags, body: SignatureIdInput, ...list } }, async (req) =>
    ok(await signatures.remove(caller(req).userId, req.body.id)));
  app.post('/h5/signature/defaults', { schema: { tags, body: SignatureDefaultsInput, ...list } }, async (req) =>
    ok(await signatures.setDefaults(caller(req).userId, req.body)));
}
