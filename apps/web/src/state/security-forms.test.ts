import { describe, expect, it } from 'vitest';
import { SecurityMessages } from '@mailwing/shared';
import { enSecurity } from '../i18n/en-security';
import { en } from '../i18n/en';
import { zhSecurity } from '../i18n/zh-security';
import { zh } from '../i18n/zh';
import { challengeWays, groupSecret, localFields, normaliseRecoveryCode, passwordProblems, securityText, showRecoveryCode } from './security-forms';

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

describe('the server’s words in the UI language', () => {
  const zhM = { ...zh, ...zhSecurity };
  const enM = { ...en, ...enSecurity };

  it('knows the shared schema messages', () => {
    expect(securityText(zhM, SecurityMessages.codeEmpty)).toBe(zhSecurity.codeEmpty);
    expect(securityText(zhM, SecurityMessages.codeSixDigits)).toBe(zhSecurity.codeSixDigits);
    expect(securityText(zhM, SecurityMessages.answerEmpty)).toBe(zhSecurity.answerEmpty);
    expect(securityText(zhM, SecurityMessages.passwordMismatch)).toBe(zhSecurity.passwordMismatch);
    expect(securityText(zhM, SecurityMessages.passwordLength)).toBe(zhSecurity.passwordTooShort);
  });

  it('translates known refusals and leaves the rest as sent', () => {
    expect(securityText(zhM, 'The password is incorrect.')).toBe('密码不正确。');
    expect(securityText(enM, 'The password is incorrect.')).toBe('The password is incorrect.');
    expect(securityText(zhM, 'Too many failed attempts. Try again in 42 seconds.')).toBe(zhSecurity.srvTooMany(42));
    expect(securityText(zhM, 'Something new')).toBe('Something new');
    expect(localFields(zhM, { code: SecurityMessages.codeEmpty, other: 'x' })).toEqual({ code: zhSecurity.codeEmpty, other: 'x' });
  });
});
