import { attachmentNameProblem, ComposeMessages, fileExtension, UPLOAD_MAX_FILES, type ComposeLimits, type UploadResult } from '@mailwing/shared';
import type { BlobService } from '../../blob/blob.service.js';
import type { AttachmentConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import type { StoredAttachment } from '../../db/types.js';
import { invalid, notFound } from '../../errors.js';
import { detectType } from '../../http/user-content.js';
import { extractAttachments } from '../message/mail-parse.js';
import * as messages from '../message/message.repository.js';
import * as repo from './compose.repository.js';

/** A file that goes into an outgoing mail. */
export interface Part { filename: string; content: Buffer; contentType: string; size: number; cid?: string }

const UPLOAD_TTL_MS = 24 * 3600_000;

/** Attachments for mail being written: uploads, and parts of the writer's own mails (forwards, reopened drafts). */
export class UploadService {
  constructor(private readonly db: Db, private readonly blobs: BlobService, private readonly cfg: AttachmentConfig) {}

  limits(): ComposeLimits {
    return { maxFiles: UPLOAD_MAX_FILES, maxFileBytes: this.cfg.maxFileBytes, maxTotalBytes: this.cfg.maxTotalBytes, blockedExtensions: this.cfg.blockedExtensions };
  }

  /** Spec §5 and §9 checks on a file name; the size is checked while the upload streams. */
  checkName(name: string): void {
    const problem = attachmentNameProblem(name);
    if (problem === 'empty') throw invalid('file', ComposeMessages.badFormat, 'upload.name_empty');
    if (problem === 'forbidden') throw invalid('file', ComposeMessages.badFileName, 'upload.name_forbidden');
    if (this.cfg.blockedExtensions.includes(fileExtension(name))) throw invalid('file', ComposeMessages.badFormat, 'upload.type_blocked');
  }

  async store(userId: number, file: { name: string; data: Buffer }): Promise<UploadResult> {
    this.checkName(file.name);
    const contentType = await detectType(file.data, file.name);
    if (file.data.length > this.cfg.maxFileBytes) throw invalid('file', ComposeMessages.fileTooLarge, 'upload.too_large');
    const staged = await this.blobs.store.stage(file.data);
    try {
      const id = await this.db.transaction().execute(async (trx) => {
        await this.blobs.reference(trx, [{ staged, n: 1 }]);
        return repo.insertUpload(trx, { userId, hash: staged.hash, name: file.name, size: file.data.length, contentType });
      });
      return { id: String(id), name: file.name, size: file.data.length, contentType };
    } finally {
      await this.blobs.store.release(staged);
    }
  }

  async get(userId: number, id: number): Promise<Part> {
    const [row] = await repo.uploadsOf(this.db, userId, [id]);
    if (!row) throw notFound('Attachment');
    return { filename: row.name, contentType: row.content_type, size: row.size, content: await this.blobs.get(row.blob_hash) };
  }

  /**
   * The files named by attachIds, in order: "12" is an upload, "<mailId>.<index>" an
   * attachment of one of the caller's mails. Any id that is not the caller's refuses all.
   */
  async collect(userId: number, attachIds: string[]): Promise<Part[]> {
    const uploadIds = attachIds.filter((a) => !a.includes('.')).map(Number);
    const uploads = new Map((await repo.uploadsOf(this.db, userId, uploadIds)).map((u) => [u.id, u]));
    const byMail = new Map<number, number[]>();
    for (const a of attachIds.filter((x) => x.includes('.'))) {
      const [mailId, idx] = a.split('.').map(Number) as [number, number];
      byMail.set(mailId, [...(byMail.get(mailId) ?? []), idx === 9999 ? -1 : idx]);
    }
    const partsOf = new Map<string, Part>();
    for (const [mailId, indices] of byMail) {
      for (const [key, part] of await this.mailParts(userId, mailId, (a) => indices.includes(a.index))) partsOf.set(key, part);
    }
    const out: Part[] = [];
    for (const id of attachIds) {
      if (!id.includes('.')) {
        const u = uploads.get(Number(id));
        if (!u) throw notFound('Attachment');
        out.push({ filename: u.name, contentType: u.content_type, size: u.size, content: await this.blobs.get(u.blob_hash) });
      } else {
        const [mailId, idx] = id.split('.').map(Number) as [number, number];
        const part = partsOf.get(`${mailId}.${idx === 9999 ? -1 : idx}`);
        if (!part) throw notFound('Attachment');
        out.push(part);
      }
    }
    return out;
  }

  /** Inline parts of a mail by Content-ID, for images the editor shows from a draft or a quoted mail. */
  async partsByCid(userId: number, mailId: number, cids: string[]): Promise<Map<string, Part>> {
    const found = await this.mailParts(userId, mailId, (a) => a.cid !== null && cids.includes(a.cid));
    const out = new Map<string, Part>();
    for (const part of found.values()) if (part.cid) out.set(part.cid, part);
    return out;
  }

  private async mailParts(userId: number, mailId: number, want: (a: StoredAttachment) => boolean): Promise<Map<string, Part>> {
    const row = await messages.findOne(this.db, userId, mailId);
    if (!row) throw notFound('Attachment');
    const metas = (row.attachments as StoredAttachment[]).filter(want);
    const bodies = await extractAttachments(await this.blobs.get(row.blob_hash), metas.map((m) => m.index));
    const out = new Map<string, Part>();
    for (const m of metas) {
      const content = bodies.get(m.index);
      if (content) out.set(`${mailId}.${m.index}`, { filename: m.name, contentType: m.contentType, size: content.length, content, cid: m.cid ?? undefined });
    }
    return out;
  }

  /** Drops uploads nobody sent within a day, with their blob references. */
  async sweep(now = new Date()): Promise<number> {
    const counts = await this.db.transaction().execute(async (trx) => {
      const c = await repo.deleteOldUploads(trx, new Date(now.getTime() - UPLOAD_TTL_MS));
      await this.blobs.unreference(trx, c);
      return c;
    });
    return [...counts.values()].reduce((a, b) => a + b, 0);
  }
}
