import { createHash, timingSafeEqual } from 'node:crypto';
import {
  Code, NOTE_LOCKOUT_S, NOTE_MAX_TRIES,
  type Note, type NoteList, type NoteListQuery, type NoteSealedOut, type NoteSummary, type NoteUpdateInput, type NoteWrite,
} from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { noteText, sanitizeNoteHtml } from './note-html.js';
import * as repo from './note.repository.js';
import { withNoteTables, type NotesDb } from './tables.js';
import { NoteFolderService } from './note-folder.service.js';

export interface NoteDeps { db: Db; now?: () => Date }

type Row = NonNullable<Awaited<ReturnType<typeof repo.findNote>>>;
const secs = (d: Date) => Math.floor(d.getTime() / 1000);
const verifierOf = (proof: string) => createHash('sha256').update(Buffer.from(proof, 'base64')).digest();

function summary(r: Pick<Row, 'id' | 'title' | 'folder_id' | 'tags' | 'updated_at' | 'cipher'> & { snippet?: string }): NoteSummary {
  const locked = r.cipher !== null;
  return {
    id: String(r.id), locked, title: locked ? null : r.title, snippet: locked ? '' : (r.snippet ?? ''),
    folder: r.folder_id === null ? null : String(r.folder_id), tags: r.tags, updated: secs(r.updated_at),
  };
}

/**
 * Cloud notes. The server never sees a locked note's password or plaintext; it checks a
 * proof derived from the password (packages/shared/src/note-crypto.ts) against the
 * SHA-256 it keeps, so it can count wrong tries and hand out the ciphertext only to a
 * caller who knows the password: NOTE_MAX_TRIES wrong ones close the note for NOTE_LOCKOUT_S.
 */
export class NoteService {
  private readonly db: NotesDb;
  private readonly now: () => Date;
  readonly folders: NoteFolderService;

  constructor(deps: NoteDeps) {
    this.db = withNoteTables(deps.db);
    this.now = deps.now ?? (() => new Date());
    this.folders = new NoteFolderService(this.db);
  }

  async list(userId: number, q: NoteListQuery): Promise<NoteList> {
    const folder = q.folder === undefined || q.folder === 'none' ? q.folder : Number(q.folder);
    const { rows, total } = await repo.listNotes(this.db, userId, { folder, tag: q.tag, q: q.q }, (q.page - 1) * q.size, q.size);
    return { list: rows.map(summary), total, page: q.page, size: q.size };
  }

  async get(userId: number, id: string): Promise<Note> {
    const r = await this.require(userId, id);
    return this.toNote(r);
  }

  async create(userId: number, input: NoteWrite): Promise<Note> {
    const folder = await this.folderOf(userId, input.folder);
    const content = this.content(input, input.locked ?? false);
    const id = await repo.insertNote(this.db, userId, { ...content, folder_id: folder ?? null, tags: input.tags ?? [] }, this.now());
    return this.get(userId, String(id));
  }

  async update(userId: number, input: NoteUpdateInput): Promise<Note> {
    const folder = await this.folderOf(userId, input.folder);
    const refused = await this.db.transaction().execute(async (trx) => {
      const row = await repo.lockNoteRow(trx, userId, Number(input.id));
      if (!row) throw notFound('Note');
      // A locked note changes only for a caller who knows its password (a wrong proof counts as a try).
      const wrong = row.cipher !== null ? await this.check(trx, row, input.proof) : null;
      if (wrong) return wrong;
      const wasLocked = row.cipher !== null;
      const locked = input.locked ?? wasLocked;
      const changesContent = input.title !== undefined || input.html !== undefined || input.cipher !== undefined || locked !== wasLocked;
      const values = {
        ...(changesContent ? this.content(input, locked) : {}),
        ...(folder !== undefined ? { folder_id: folder } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
      };
      await repo.updateNote(trx, userId, row.id, values, this.now());
      return null;
    });
    if (refused) throw refused;
    return this.get(userId, input.id);
  }

  /** The ciphertext, for a caller who proves the password. */
  async unlock(userId: number, id: string, proof: string): Promise<NoteSealedOut> {
    const out = await this.db.transaction().execute(async (trx) => {
      const row = await repo.lockNoteRow(trx, userId, Number(id));
      if (!row) throw notFound('Note');
      if (row.cipher === null) throw new AppError(Code.Invalid, { id: 'This note has no reading password' }, { reason: 'note.not_locked', reasons: { id: 'note.not_locked' } });
      return (await this.check(trx, row, proof)) ?? { id: String(row.id), cipher: row.cipher, iv: row.iv! };
    });
    if (out instanceof AppError) throw out;
    return out;
  }

  /** Deleting needs no password: a forgotten one must not leave a note that can never go. */
  async remove(userId: number, id: string): Promise<void> {
    if ((await repo.deleteNote(this.db, userId, Number(id))) === 0) throw notFound('Note');
  }

  async move(userId: number, ids: string[], folder: string): Promise<number> {
    const target = await this.folderOf(userId, folder);
    const wanted = [...new Set(ids.map(Number))];
    return this.db.transaction().execute(async (trx) => {
      if ((await repo.countOwned(trx, userId, wanted)) !== wanted.length) throw notFound('Note');
      return repo.moveNotes(trx, userId, wanted, target ?? null);
    });
  }

  /**
   * Checks a proof against the stored verifier. A wrong one is counted and its refusal
   * returned, not thrown: the caller's transaction must commit the count.
   */
  private async check(trx: Parameters<typeof repo.lockNoteRow>[0], row: Row, proof: string | undefined): Promise<AppError | null> {
    const now = this.now();
    if (row.lockout_until && row.lockout_until > now) {
      const retryAfter = Math.ceil((row.lockout_until.getTime() - now.getTime()) / 1000);
      return new AppError(Code.TooMany, 'Too many wrong passwords; try again later', { reason: 'note.locked_out', retryAfter });
    }
    if (proof === undefined) throw invalid('proof', 'The reading password is required', 'note.password_required');
    if (timingSafeEqual(verifierOf(proof), row.verifier!)) {
      if (row.failed_tries !== 0 || row.lockout_until) await repo.setTries(trx, row.id, 0, null);
      return null;
    }
    const failed = row.failed_tries + 1;
    if (failed >= NOTE_MAX_TRIES) {
      await repo.setTries(trx, row.id, 0, new Date(now.getTime() + NOTE_LOCKOUT_S * 1000));
      return new AppError(Code.TooMany, 'Too many wrong passwords; try again later', { reason: 'note.locked_out', retryAfter: NOTE_LOCKOUT_S });
    }
    await repo.setTries(trx, row.id, failed, null);
    return new AppError(Code.Forbidden, 'Wrong reading password', { reason: 'note.wrong_password', triesLeft: NOTE_MAX_TRIES - failed });
  }

  /** The columns for a write: plain (sanitised, with its text) or locked (only what the client sealed). */
  private content(input: NoteWrite, locked: boolean): repo.NoteValues {
    if (!locked) {
      if (input.cipher !== undefined) throw invalid('cipher', 'A plain note has no ciphertext', 'note.bad_lock');
      const html = sanitizeNoteHtml(input.html ?? '');
      const title = (input.title ?? '').trim();
      return { title, html, body_text: noteText(html), cipher: null, iv: null, salt: null, kdf: null, iterations: null, verifier: null };
    }
    if (input.title !== undefined || input.html !== undefined) {
      // A client that sends both would leak the plaintext it means to hide.
      throw invalid(input.title !== undefined ? 'title' : 'html', 'A locked note is sent only as ciphertext', 'note.plaintext_with_lock');
    }
    for (const f of ['cipher', 'iv', 'salt', 'iterations', 'newProof'] as const) {
      if (input[f] === undefined) throw invalid(f, 'is required for a locked note', 'note.bad_lock');
    }
    return {
      title: null, html: null, body_text: null, cipher: input.cipher!, iv: input.iv!, salt: input.salt!,
      kdf: input.kdf, iterations: input.iterations!, verifier: verifierOf(input.newProof!),
    };
  }

  private async folderOf(userId: number, folder: string | undefined): Promise<number | null | undefined> {
    if (folder === undefined) return undefined;
    if (folder === '') return null;
    if (!(await repo.findFolder(this.db, userId, Number(folder)))) {
      throw invalid('folder', 'No such folder', 'note.folder_unknown');
    }
    return Number(folder);
  }

  private toNote(r: Row): Note {
    const locked = r.cipher !== null;
    const now = this.now();
    const retryAfter = r.lockout_until && r.lockout_until > now ? Math.ceil((r.lockout_until.getTime() - now.getTime()) / 1000) : 0;
    return {
      ...summary({ ...r, snippet: (r.body_text ?? '').slice(0, 120) }),
      html: locked ? null : r.html,
      created: secs(r.created_at),
      lock: locked ? { salt: r.salt!, iterations: r.iterations!, kdf: r.kdf!, triesLeft: retryAfter ? 0 : NOTE_MAX_TRIES - r.failed_tries, retryAfter } : null,
    };
  }

  private async require(userId: number, id: string): Promise<Row> {
    const r = await repo.findNote(this.db, userId, Number(id));
    if (!r) throw notFound('Note');
    return r;
  }
}
