import { describe, expect, it } from 'vitest';
import { deriveNoteKeys, fromBase64, lockNote, NOTE_KDF_ITERATIONS, NoteOpenError, openNote, sealNote, toBase64 } from '../src/note-crypto.js';

// This package is typed without DOM or Node globals; the one the test uses directly.
declare const crypto: { subtle: { importKey(f: 'raw', k: Uint8Array, a: string, x: boolean, u: string[]): Promise<unknown> } };

const plain = { title: '季度报告 Q3', html: '<p>Secret <b>plan</b> 🚀</p><img src="data:image/png;base64,iVBORw0KGgo=">' };
// Tests use a lower count where the cost itself is not what is tested; one test uses the real one.
const FAST = 1_000;

describe('note crypto', () => {
  it('round-trips title and content with the real iteration count', async () => {
    const locked = await lockNote('correct horse', plain);
    expect(locked.iterations).toBe(NOTE_KDF_ITERATIONS);
    expect(locked.kdf).toBe('pbkdf2-sha256');
    expect(fromBase64(locked.salt)).toHaveLength(16);
    expect(fromBase64(locked.iv)).toHaveLength(12);
    expect(locked.cipher).not.toContain('Secret');
    const again = await deriveNoteKeys('correct horse', locked.salt, locked.iterations);
    expect(again.proof).toBe(locked.proof);
    expect(await openNote(again.key, locked)).toEqual(plain);
  });

  it('refuses a wrong password, and its proof differs', async () => {
    const locked = await lockNote('correct horse', plain, FAST);
    const wrong = await deriveNoteKeys('correct horsE', locked.salt, FAST);
    expect(wrong.proof).not.toBe(locked.proof);
    await expect(openNote(wrong.key, locked)).rejects.toBeInstanceOf(NoteOpenError);
  });

  it('refuses a tampered ciphertext or IV', async () => {
    const locked = await lockNote('pw12', plain, FAST);
    const { key } = await deriveNoteKeys('pw12', locked.salt, FAST);
    const bytes = fromBase64(locked.cipher);
    bytes[3] = bytes[3]! ^ 1;
    await expect(openNote(key, { cipher: toBase64(bytes), iv: locked.iv })).rejects.toBeInstanceOf(NoteOpenError);
    const iv = fromBase64(locked.iv);
    iv[0] = iv[0]! ^ 1;
    await expect(openNote(key, { cipher: locked.cipher, iv: toBase64(iv) })).rejects.toBeInstanceOf(NoteOpenError);
    // A truncated one (the tag cut off) too.
    await expect(openNote(key, { cipher: toBase64(fromBase64(locked.cipher).slice(0, -16)), iv: locked.iv })).rejects.toBeInstanceOf(NoteOpenError);
  });

  it('uses a fresh IV and salt each time, and the proof is not the content key', async () => {
    const a = await lockNote('pw12', plain, FAST);
    const b = await lockNote('pw12', plain, FAST);
    expect(a.salt).not.toBe(b.salt);
    expect(a.cipher).not.toBe(b.cipher);
    const { key } = await deriveNoteKeys('pw12', a.salt, FAST);
    const s1 = await sealNote(key, plain);
    const s2 = await sealNote(key, plain);
    expect(s1.iv).not.toBe(s2.iv);
    // Someone holding the proof (the server) cannot use it as the AES key.
    const proofAsKey = await crypto.subtle.importKey('raw', fromBase64(a.proof), 'AES-GCM', false, ['decrypt']);
    await expect(openNote(proofAsKey, a)).rejects.toBeInstanceOf(NoteOpenError);
  });

  it('treats the password as Unicode text in NFC', async () => {
    const salt = toBase64(new Uint8Array(16));
    const composed = await deriveNoteKeys('caf\u00e9', salt, FAST);
    const decomposed = await deriveNoteKeys('cafe\u0301', salt, FAST);
    expect(composed.proof).toBe(decomposed.proof);
  });
});
