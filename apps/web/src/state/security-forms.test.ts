import { describe, expect, it } from 'vitest';
import { challengeWays, groupSecret, normaliseRecoveryCode, passwordProblems, showRecoveryCode } from './security-forms';

describe('second verification forms', () => {
  it('offers the challenge’s ways in a fixed order, authenticator and recovery when none is named', () => {
    expect(challengeWays('recovery,email,totp')).toEqual(['totp', 'email', 'recovery']);
    expect(challengeWays('email')).toEqual(['email']);
    expect(challengeWays('sms,email')).toEqual(['email']);
    expect(challengeWays(null)).toEqual(['totp', 'recovery']);
    expect(challengeWays('')).toEqual(['totp', 'recovery']);
  });

  it('accepts a recovery code with or without its dash, in any case', () => {
    expect(normaliseRecoveryCode('abcde-12345')).toBe('abcde12345');
    expect(normaliseRecoveryCode(' ABCDE 12345 ')).toBe('abcde12345');
    expect(normaliseRecoveryCode('abcde12345')).toBe('abcde12345');
    expect(normaliseRecoveryCode('abcde-1234')).toBe('');
    expect(normaliseRecoveryCode('abcde-1234!')).toBe('');
    expect(showRecoveryCode('abcde12345')).toBe('abcde-12345');
    expect(showRecoveryCode('abcde-12345')).toBe('abcde-12345');
  });

  it('groups the authenticator secret by four', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPJBSWY3DP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
  });
});

describe('password forms (spec §5)', () => {
  it('needs every entry, 8 characters, and the same new password twice', () => {
    expect(passwordProblems({ old: '', password: '', confirm: '' })).toEqual({ old: 'required', password: 'required', confirm: 'mismatch' });
    expect(passwordProblems({ old: 'x', password: 'short', confirm: 'short' })).toEqual({ password: 'short' });
    expect(passwordProblems({ old: 'x', password: 'long enough', confirm: 'long enougH' })).toEqual({ confirm: 'mismatch' });
    expect(passwordProblems({ old: 'x', password: 'long enough', confirm: 'long enough' })).toEqual({});
    expect(passwordProblems({ password: 'long enough', confirm: 'long enough' })).toEqual({});
    expect(passwordProblems({ password: 'x'.repeat(129), confirm: 'x'.repeat(129) })).toEqual({ password: 'short' });
  });
});
