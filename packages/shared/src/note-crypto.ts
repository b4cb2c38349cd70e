// Reading passwords for cloud notes (issue 18): the note is encrypted in the client, so
// the server keeps only ciphertext. Pure WebCrypto, the same in browsers and Node 20+.
//
// password --PBKDF2-SHA256 (600k, OWASP 2023)--> master --HKDF--> AES-256-GCM key
//                                                        \--HKDF--> proof (32 bytes)
// The proof is what the server checks to count wrong tries (it keeps only its SHA-256);
// HKDF makes it independent of the content key, so knowing it decrypts nothing.

// This package is built without DOM or Node types; these are the parts of the
// standard globals it uses, declared here rather than pulling either in.
interface SubtleLike {
  importKey(f: 'raw', k: Uint8Array, a: unknown, x: boolean, u: string[]): Promise<unknown>;
  deriveBits(a: unknown, k: unknown, n: number): Promise<ArrayBuffer>;
  deriveKey(a: unknown, k: unknown, d: unknown, x: boolean, u: string[]): Promise<unknown>;
  encrypt(a: unknown, k: unknown, d: Uint8Array): Promise<ArrayBuffer>;
  decrypt(a: unknown, k: unknown, d: Uint8Array): Promise<ArrayBuffer>;
}
declare const crypto: { subtle: SubtleLike; getRandomValues<T extends Uint8Array>(a: T): T };
declare const btoa: (s: string) => string;
declare const atob: (s: string) => string;
declare class TextEncoder { encode(s: string): Uint8Array }
declare class TextDecoder { constructor(label?: string, o?: { fatal?: boolean }); decode(b: ArrayBuffer | Uint8Array): string }

export const NOTE_KDF = 'pbkdf2-sha256';
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
export const NOTE_KDF_ITERATIONS = 600_000;
/** Below this a stored note is refused: a server cannot lower the cost it asks a client to pay. */
export const NOTE_KDF_MIN_ITERATIONS = 100_000;
export const NOTE_KDF_MAX_ITERATIONS = 10_000_000;
export const NOTE_PASSWORD_MIN = 4;

const ENC_INFO = 'mailwing note v1 content key';
const PROOF_INFO = 'mailwing note v1 proof';
/** Binds a ciphertext to its purpose, so a blob from another use of the key does not open as a note. */
const AAD = 'mailwing note v1';

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i += 1) out[i] = s.charCodeAt(i);
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

export interface NoteKeys {
  /** AES-GCM key for the content; never leaves the client. */
  key: unknown;
  /** Base64 of 32 bytes shown to the server to count tries. */
  proof: string;
}

export async function deriveNoteKeys(password: string, salt: string, iterations: number): Promise<NoteKeys> {
  const subtle = crypto.subtle;
  const pw = await subtle.importKey('raw', utf8(password.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const master = await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: fromBase64(salt), iterations }, pw, 256);
  const hkdf = await subtle.importKey('raw', new Uint8Array(master), 'HKDF', false, ['deriveBits', 'deriveKey']);
  const hk = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(info) });
  const key = await subtle.deriveKey(hk(ENC_INFO), hkdf, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const proof = toBase64(new Uint8Array(await subtle.deriveBits(hk(PROOF_INFO), hkdf, 256)));
  return { key, proof };
}

export interface NotePlain { title: string; html: string }
export interface NoteSealed { cipher: string; iv: string }
export interface NoteLockParams { salt: string; iterations: number; kdf: typeof NOTE_KDF }

/** A fresh random IV for every encryption: GCM must never reuse one under a key. */
export async function sealNote(key: unknown, plain: NotePlain): Promise<NoteSealed> {
  const iv = random(12);
  const data = utf8(JSON.stringify({ t: plain.title, h: plain.html }));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(AAD) }, key, data);
  return { cipher: toBase64(new Uint8Array(cipher)), iv: toBase64(iv) };
}

/** Thrown for a wrong key or a ciphertext that was changed: GCM cannot tell them apart. */
export class NoteOpenError extends Error {
  constructor() {
    super('The note could not be decrypted');
    this.name = 'NoteOpenError';
  }
}

export async function openNote(key: unknown, sealed: NoteSealed): Promise<NotePlain> {
  let bytes: ArrayBuffer;
  try {
    bytes = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: utf8(AAD) }, key, fromBase64(sealed.cipher));
  } catch {
    throw new NoteOpenError();
  }
  const v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as { t?: unknown; h?: unknown };
  if (typeof v.t !== 'string' || typeof v.h !== 'string') throw new NoteOpenError();
  return { title: v.t, html: v.h };
}

/** Locks a note with a new password: new salt, new keys, sealed content. */
export async function lockNote(password: string, plain: NotePlain, iterations = NOTE_KDF_ITERATIONS): Promise<NoteSealed & NoteLockParams & { proof: string; key: unknown }> {
  const salt = toBase64(random(16));
  const { key, proof } = await deriveNoteKeys(password, salt, iterations);
  return { ...(await sealNote(key, plain)), salt, iterations, kdf: NOTE_KDF, proof, key };
}
