import { Code, DISK_MAX_FILE_BYTES, DiskMessages, DiskReasons, hasForbiddenNameChar, type DiskNode } from '@mailwing/shared';
import { AppError } from '../../errors.js';
import type { NodeRow } from './disk.repository.js';

/** A 422 with the disk's text and reason code on one field. */
export function refuse(field: string, key: keyof typeof DiskMessages & keyof typeof DiskReasons): AppError {
  return new AppError(Code.Invalid, { [field]: DiskMessages[key] }, { reason: DiskReasons[key], reasons: { [field]: DiskReasons[key] } });
}

/** Spec §5: a name may not contain / ? : * " < > |; nor a backslash or control characters, which break paths, headers and logs. */
export function checkName(raw: string, field = 'name'): string {
  const name = raw.trim();
  if (name === '' || name === '.' || name === '..') throw refuse(field, 'emptyName');
  if (hasForbiddenNameChar(name) || name.includes('\\') || /\p{Cc}/u.test(name)) throw refuse(field, 'badName');
  return name;
}

/** Spec §9: a single file is at most 2G. */
export function checkSize(bytes: number, field = 'file'): void {
  if (!Number.isSafeInteger(bytes) || bytes < 0 || bytes > DISK_MAX_FILE_BYTES) throw refuse(field, 'tooLarge');
}

const secs = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function toNode(r: NodeRow): DiskNode {
  return {
    id: String(r.id), parentId: r.parent_id === null ? null : String(r.parent_id), folder: r.is_folder, name: r.name,
    size: Number(r.size), contentType: r.content_type, createdAt: secs(r.created_at)!, updatedAt: secs(r.updated_at)!, deletedAt: secs(r.deleted_at),
  };
}
