import { ExportDownloadQuery } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { Db } from '../../db/connect.js';
import type { App } from '../../http/types.js';
import { sendUserStream } from '../../http/user-content.js';
import { openExport } from './export.service.js';

export function companyLifeRoutes(app: App, db: Db, blobs: BlobService, now: () => Date = () => new Date()): void {
  // Public: the link itself is the credential (signed, valid 7 days); every download is logged.
  app.get('/h5/west/export/download', { config: { public: true }, schema: { tags: ['west'], querystring: ExportDownloadQuery } }, async (req, reply) => {
    const file = await openExport(db, req.query, { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') }, now());
    return sendUserStream(reply, {
      name: file.name, size: file.size, declaredType: 'application/zip', head: Buffer.alloc(0),
      open: (range) => blobs.stream(file.hash, range),
    }, { inline: false, cache: 'private, no-store', range: req.headers.range });
  });
}
