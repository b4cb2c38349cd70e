import { describe, expect, it } from 'vitest';
import { nicknameError } from '../setting-nickname';

describe('nickname', () => {
  it('is required after trimming and at most 40 characters', () => {
    expect(nicknameError('  ')).toBe('required');
    expect(nicknameError('Alice')).toBeNull();
    expect(nicknameError('a'.repeat(40))).toBeNull();
    expect(nicknameError('a'.repeat(41))).toBe('tooLong');
    expect(nicknameError('李'.repeat(40))).toBeNull();
    // Counted as the server's schema counts: UTF-16 units.
    expect(nicknameError('😀'.repeat(21))).toBe('tooLong');
  });
});
