import type { FastifyRequest } from 'fastify';
import { AppError, invalid } from '../errors.js';

export interface UploadedFile { filename: string; data: Buffer }

/**
 * Reads the one file of a multipart upload (field "file"). Every way a body can be
 * wrong ends as a 422 with a reason, never a 500: not multipart, no file, over the
 * size limit (multipart stops reading there), or cut off / malformed (busboy's
 * errors). `checkName` runs before the body is read, so a refused name costs nothing.
 */
export async function readUpload(req: FastifyRequest, opts: {
  maxBytes?: number;
  tooLarge: () => AppError;
  checkName?: (name: string) => void;
  /** Prefix for this feature's messages (spec §8 "avatar upload failed: …"). */
  prefix?: string;
}): Promise<UploadedFile> {
  const say = (text: string) => (opts.prefix ? `${opts.prefix}: ${text}` : text);
  if (!req.isMultipart()) throw invalid('file', say('send the file as multipart/form-data in the field "file"'), 'upload.not_multipart');
  try {
    const part = await req.file(opts.maxBytes ? { limits: { fileSize: opts.maxBytes } } : undefined);
    if (!part || part.fieldname !== 'file') throw invalid('file', say('the file is required'), 'upload.missing');
    opts.checkName?.(part.filename);
    return { filename: part.filename, data: await part.toBuffer() };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw opts.tooLarge();
    throw invalid('file', say('the upload is incomplete or not valid multipart/form-data'), 'upload.malformed');
  }
}
