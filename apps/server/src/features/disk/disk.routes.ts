import {
  DiskBinList, DiskBinQuery, DiskChanged, DiskCreateFolderInput, DiskIdQuery, DiskIdsInput, DiskList, DiskListQuery, DiskMoveInput,
  DiskNode, DiskRenameInput, DiskUsage, envelope,
} from '@mailwing/shared';
import { ok } from '../../http/envelope.js';
import { caller, type App } from '../../http/types.js';
import { sendUserStream } from '../../http/user-content.js';
import type { BlobService } from '../../blob/blob.service.js';
import type { QuotaService } from '../quota/quota.service.js';
import type { DiskService } from './disk.service.js';

export function diskRoutes(app: App, disk: DiskService, quota: QuotaService, blobs: BlobService): void {
  const tags = ['disk'];
  app.get('/h5/disk/list', { schema: { tags, querystring: DiskListQuery, response: { 200: envelope(DiskList) } } }, async (req) =>
    ok(await disk.list(caller(req).userId, req.query.parent, req.query.page, req.query.size)));
  app.get('/h5/disk/bin', { schema: { tags, querystring: DiskBinQuery, response: { 200: envelope(DiskBinList) } } }, async (req) =>
    ok(await disk.bin(caller(req).userId, req.query.page, req.query.size)));
  app.get('/h5/disk/usage', { schema: { tags, response: { 200: envelope(DiskUsage) } } }, async (req) => ok(await quota.usage(caller(req).userId)));
  app.post('/h5/disk/create-folder', { schema: { tags, body: DiskCreateFolderInput, response: { 200: envelope(DiskNode) } } }, async (req) =>
    ok(await disk.createFolder(caller(req).userId, req.body.parent, req.body.name)));
  app.post('/h5/disk/rename', { schema: { tags, body: DiskRenameInput, response: { 200: envelope(DiskNode) } } }, async (req) =>
    ok(await disk.rename(caller(req).userId, req.body.id, req.body.name)));
  app.post('/h5/disk/move', { schema: { tags, body: DiskMoveInput, response: { 200: envelope(DiskChanged) } } }, async (req) =>
    ok({ changed: await disk.move(caller(req).userId, req.body.ids, req.body.parent) }));
  app.post('/h5/disk/delete', { schema: { tags, body: DiskIdsInput, response: { 200: envelope(DiskChanged) } } }, async (req) =>
    ok({ changed: await disk.trash(caller(req).userId, req.body.ids) }));
  app.post('/h5/disk/restore', { schema: { tags, body: DiskIdsInput, response: { 200: envelope(DiskChanged) } } }, async (req) =>
    ok({ changed: await disk.restore(caller(req).userId, req.body.ids) }));
  app.post('/h5/disk/purge', { schema: { tags, body: DiskIdsInput, response: { 200: envelope(DiskChanged) } } }, async (req) =>
    ok({ changed: await disk.purge(caller(req).userId, req.body.ids) }));

  app.get('/h5/disk/download', { schema: { tags, querystring: DiskIdQuery } }, async (req, reply) => {
    const node = await disk.live(caller(req).userId, Number(req.query.id), 'file');
    const hash = node.blob_hash!;
    return sendUserStream(reply, {
      name: node.name, size: Number(node.size), declaredType: node.content_type, head: await blobs.head(hash, 8192),
      open: (range) => blobs.stream(hash, range),
    }, { inline: req.query.inline === '1', cache: 'private, no-store', range: req.headers.range });
  });
}
