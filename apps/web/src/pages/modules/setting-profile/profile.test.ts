import { describe, expect, it } from 'vitest';
import { enSettings } from '../../../i18n/en-settings';
import { en } from '../../../i18n/en';
import { zhSettings } from '../../../i18n/zh-settings';
import { zh } from '../../../i18n/zh';
import { nicknameError } from '../setting-nickname';
import { avatarReason } from '.';

describe('avatar upload failure (spec §8)', () => {
  it('gives the server’s known reasons in the user’s language', () => {
    const zhM = { ...zh, ...zhSettings };
    expect(avatarReason(zhM, 'avatar upload failed: must be a PNG, JPEG, GIF or WebP image')).toBe(zhSettings.avatarType);
    expect(avatarReason(zhM, 'avatar upload failed: must be at most 2 MB')).toBe(zhSettings.avatarSize);
  });

  it('passes any other reason on without repeating "avatar upload failed"', () => {
    expect(avatarReason({ ...en, ...enSettings }, 'avatar upload failed: the image is required')).toBe('the image is required');
    expect(avatarReason({ ...en, ...enSettings }, 'request failed, please retry')).toBe('request failed, please retry');
  });
});

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
