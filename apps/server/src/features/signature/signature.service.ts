import {
  resolveSignatureId, SIGNATURE_MAX_BYTES, SIGNATURE_MAX_COUNT,
  type Signature, type SignatureDefaults, type SignatureList, type SignatureMode, type SignatureSaved,
} from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import { sanitizeRichHtml, utf8Bytes } from './rich-html.js';
import * as repo from './signature.repository.js';

type Row = { id: number; name: string; html: string; updated_at: Date };
const toSignature = (r: Row): Signature => ({ id: String(r.id), name: r.name, html: r.html, updatedAt: Math.floor(new Date(r.updated_at).getTime() / 1000) });

export interface SignatureDeps { db: Db; now?: () => Date }

/** A mailbox's signatures and which one new mail and replies/forwards get. */
export class SignatureService {
  private readonly db: Db;
  private readonly now: () => Date;
  constructor(deps: SignatureDeps) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
  }

  async list(userId: number): Promise<SignatureList> {
    const [rows, defaults] = await Promise.all([repo.listSignatures(this.db, userId), this.defaults(userId)]);
    return { list: rows.map(toSignature), defaults };
  }

  async defaults(userId: number): Promise<SignatureDefaults> {
    const d = await repo.getDefaults(this.db, userId);
    return { newMail: d?.new_id ? String(d.new_id) : null, reply: d?.reply_id ? String(d.reply_id) : null, replySameAsNew: d?.reply_same ?? true };
  }

  /** The signature compose inserts for a mode, after the "same as new" fallback. */
  async resolve(userId: number, mode: SignatureMode): Promise<Signature | null> {
    const id = resolveSignatureId(await this.defaults(userId), mode);
    if (!id) return null;
    const row = await repo.findSignature(this.db, userId, Number(id));
    return row ? toSignature(row) : null;
  }

  async create(userId: number, name: string, rawHtml: string): Promise<SignatureSaved> {
    const { html, removedImages } = clean(rawHtml);
    return this.db.transaction().execute(async (trx) => {
      if ((await repo.lockAndCount(trx, userId)) >= SIGNATURE_MAX_COUNT) {
        throw invalid('name', `At most ${SIGNATURE_MAX_COUNT} signatures per mailbox`, 'signature.limit');
      }
      if (await repo.nameTaken(trx, userId, name)) throw nameTaken();
      const row = await repo.insertSignature(trx, userId, name, html, this.now());
      return { ...toSignature(row), removedImages };
    });
  }

  async update(userId: number, id: string, v: { name?: string; html?: string }): Promise<SignatureSaved> {
    const sig = await this.require(userId, id);
    const cleaned = v.html === undefined ? undefined : clean(v.html);
    if (v.name !== undefined && (await repo.nameTaken(this.db, userId, v.name, sig.id))) throw nameTaken();
    await repo.updateSignature(this.db, userId, sig.id, { name: v.name, html: cleaned?.html }, this.now());
    return { ...toSignature((await repo.findSignature(this.db, userId, sig.id))!), removedImages: cleaned?.removedImages ?? 0 };
  }

  /** A default that named it is cleared by the database (ON DELETE SET NULL). */
  async remove(userId: number, id: string): Promise<SignatureList> {
    const sig = await this.require(userId, id);
    await repo.deleteSignature(this.db, userId, sig.id);
    return this.list(userId);
  }

  async setDefaults(userId: number, input: { newMail?: string; reply?: string }): Promise<SignatureList> {
    const v: { new_id?: number | null; reply_id?: number | null; reply_same?: boolean } = {};
    if (input.newMail !== undefined) v.new_id = input.newMail === '' ? null : (await this.require(userId, input.newMail)).id;
    if (input.reply === 'same') v.reply_same = true;
    else if (input.reply !== undefined) {
      v.reply_same = false;
      v.reply_id = input.reply === '' ? null : (await this.require(userId, input.reply)).id;
    }
    await repo.setDefaults(this.db, userId, v);
    return this.list(userId);
  }

  private async require(userId: number, id: string) {
    const sig = await repo.findSignature(this.db, userId, Number(id));
    if (!sig) throw notFound('Signature');
    return sig;
  }
}

const nameTaken = () => invalid('name', 'A signature with this name already exists', 'signature.name_taken');

function clean(raw: string): { html: string; removedImages: number } {
  const out = sanitizeRichHtml(raw);
  if (utf8Bytes(out.html) > SIGNATURE_MAX_BYTES) {
    throw invalid('html', `A signature is at most ${SIGNATURE_MAX_BYTES / 1024} KB`, 'signature.too_large');
  }
  return out;
}
