import { z } from 'zod';
import { NOTE_KDF, NOTE_KDF_MAX_ITERATIONS, NOTE_KDF_MIN_ITERATIONS } from '../note-crypto.js';
import { flag, page, Paged, size } from './common.js';

// Cloud notes (issue 18, scope 2). A note is either plain (title and sanitised HTML on
// the server) or locked with a reading password (only ciphertext, salt, IV and KDF
// parameters on the server; the title is inside the ciphertext).

export const NOTE_TITLE_MAX = 200;
/** Plain HTML, small data: images included (a note's images live inside it, so a locked note's images are encrypted with it). */
export const NOTE_HTML_MAX = 1_500_000;
/** Base64 of the encrypted {title, html}: the HTML limit plus JSON escaping and base64's third. */
export const NOTE_CIPHER_MAX = 2_800_000;
export const NOTE_TAGS_MAX = 10;
export const NOTE_TAG_MAX = 32;
export const NOTE_FOLDER_NAME_MAX = 40;
export const NOTE_FOLDERS_MAX = 100;
/** Wrong reading passwords before the note is closed for NOTE_LOCKOUT_S seconds. */
export const NOTE_MAX_TRIES = 5;
export const NOTE_LOCKOUT_S = 15 * 60;
/** The client locks an opened note again after this long without use. */
export const NOTE_IDLE_LOCK_MS = 5 * 60 * 1000;

const id = (what: string) => z.string({ error: 'is required' }).regex(/^\d{1,15}$/, `is not a valid ${what} id`);
export const NoteId = id('note');
/** A folder id, or '' for "no folder". */
const folderRef = id('folder').or(z.literal('')).optional();
const b64 = (max: number) => z.string({ error: 'is required' }).max(max, `is at most ${max} characters`).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');
/** Base64 of exactly 32 bytes. */
export const NoteProof = z.string({ error: 'is required' }).regex(/^[A-Za-z0-9+/]{43}=$/, 'must be a 32-byte proof');

/** "a, b,c" or an array; blanks dropped, duplicates (case-insensitively) removed. */
export const NoteTags = z.preprocess((v) => {
  const list = typeof v === 'string' ? v.split(',') : v;
  if (!Array.isArray(list)) return list;
  const seen = new Set<string>();
  return list.map((t) => (typeof t === 'string' ? t.trim() : t)).filter((t) => {
    if (typeof t !== 'string') return true;
    const k = t.toLowerCase();
    if (t === '' || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}, z.array(z.string().max(NOTE_TAG_MAX, `A tag is at most ${NOTE_TAG_MAX} characters`)).max(NOTE_TAGS_MAX, `At most ${NOTE_TAGS_MAX} tags`));

/** A lock's parameters the client's crypto got wrong: note.bad_lock (schema-reasons.ts). */
export const NoteMessages = { iv: 'must be a 12-byte IV', salt: 'must be at least 16 bytes' } as const;

const lockFields = {
  cipher: b64(NOTE_CIPHER_MAX),
  iv: b64(24).refine((v) => v.length === 16, NoteMessages.iv),
  salt: b64(44).refine((v) => v.length >= 24, NoteMessages.salt),
  iterations: z.coerce.number().int().min(NOTE_KDF_MIN_ITERATIONS, `at least ${NOTE_KDF_MIN_ITERATIONS}`).max(NOTE_KDF_MAX_ITERATIONS),
  kdf: z.literal(NOTE_KDF).default(NOTE_KDF),
};

/**
 * Create or replace a note's content. Plain: title + html. Locked: cipher + iv + salt +
 * iterations + proof (the proof of the password it is locked with, stored hashed).
 */
export const NoteWrite = z.object({
  /** Create: default plain. Update: left out keeps the note as it is (plain or locked). */
  locked: flag.optional(),
  title: z.string().max(NOTE_TITLE_MAX, `A title is at most ${NOTE_TITLE_MAX} characters`).optional(),
  html: z.string().max(NOTE_HTML_MAX, 'The note is too large').optional(),
  cipher: lockFields.cipher.optional(),
  iv: lockFields.iv.optional(),
  salt: lockFields.salt.optional(),
  iterations: lockFields.iterations.optional(),
  kdf: lockFields.kdf,
  /** The proof of the new password (locking). */
  newProof: NoteProof.optional(),
  folder: folderRef,
  tags: NoteTags.optional(),
});
export type NoteWrite = z.infer<typeof NoteWrite>;
export const NoteCreateInput = NoteWrite;
export const NoteUpdateInput = NoteWrite.extend({
  id: NoteId,
  /** Changing a locked note needs the proof of its current password. */
  proof: NoteProof.optional(),
});
export type NoteUpdateInput = z.infer<typeof NoteUpdateInput>;

export const NoteIdInput = z.object({ id: NoteId });
export const NoteUnlockInput = z.object({ id: NoteId, proof: NoteProof });
export const NoteMoveInput = z.object({
  ids: z.preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v), z.array(NoteId).min(1).max(500)),
  folder: id('folder').or(z.literal('')),
});

export const NoteListQuery = z.object({
  page,
  size,
  folder: id('folder').or(z.literal('none')).optional().or(z.literal('').transform(() => undefined)),
  tag: z.string().trim().max(NOTE_TAG_MAX).optional().or(z.literal('').transform(() => undefined)),
  q: z.string().trim().max(200).optional().or(z.literal('').transform(() => undefined)),
});
export type NoteListQuery = z.infer<typeof NoteListQuery>;

export const NoteSummary = z.object({
  id: z.string(),
  locked: z.boolean(),
  /** Null for a locked note: its title is inside the ciphertext. */
  title: z.string().nullable(),
  snippet: z.string(),
  folder: z.string().nullable(),
  tags: z.array(z.string()),
  updated: z.number().int(),
});
export type NoteSummary = z.infer<typeof NoteSummary>;
export const NoteList = Paged(NoteSummary);
export type NoteList = z.infer<typeof NoteList>;

export const NoteLock = z.object({ salt: z.string(), iterations: z.number().int(), kdf: z.string(), triesLeft: z.number().int(), retryAfter: z.number().int() });
export type NoteLock = z.infer<typeof NoteLock>;
/** A note as note/get answers: a locked one without its ciphertext (that comes from note/unlock). */
export const Note = NoteSummary.extend({ html: z.string().nullable(), lock: NoteLock.nullable(), created: z.number().int() });
export type Note = z.infer<typeof Note>;
export const NoteSealedOut = z.object({ id: z.string(), cipher: z.string(), iv: z.string() });
export type NoteSealedOut = z.infer<typeof NoteSealedOut>;

export const NoteFolder = z.object({ id: z.string(), name: z.string(), count: z.number().int() });
export type NoteFolder = z.infer<typeof NoteFolder>;
export const NoteFolderList = z.object({ list: z.array(NoteFolder), tags: z.array(z.object({ name: z.string(), count: z.number().int() })) });
export type NoteFolderList = z.infer<typeof NoteFolderList>;
const FolderName = z.string({ error: 'is required' }).trim().min(1, 'Folder name must not be empty').max(NOTE_FOLDER_NAME_MAX, `Folder name is at most ${NOTE_FOLDER_NAME_MAX} characters`);
export const NoteFolderCreateInput = z.object({ name: FolderName });
export const NoteFolderRenameInput = z.object({ id: id('folder'), name: FolderName });
export const NoteFolderIdInput = z.object({ id: id('folder') });
export const NoteMoved = z.object({ moved: z.number().int() });
