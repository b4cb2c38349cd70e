import { describe, expect, it } from 'vitest';
import { hasForbiddenNameChar, isEmail, isSixDigitCode, splitAddresses } from '../src/validators.js';
import { CreateFolderInput, idList, LoginInput } from '../src/index.js';

describe('validators (spec §5)', () => {
  it('checks addresses', () => {
    expect(isEmail('alice@demo.test')).toBe(true);
    expect(isEmail('a.b+tag@mail.example.com')).toBe(true);
    expect(isEmail('alice@demo')).toBe(false);
    expect(isEmail('alice demo@x.test')).toBe(false);
    expect(isEmail('<alice@x.test>')).toBe(false);
  });
  it('accepts six digits only as a code', () => {
    expect(isSixDigitCode('123456')).toBe(true);
    expect(isSixDigitCode('12345')).toBe(false);
    expect(isSixDigitCode('12345a')).toBe(false);
    expect(isSixDigitCode('1234567')).toBe(false);
  });
  it('refuses the forbidden name characters', () => {
    for (const c of ['/', '?', ':', '*', '"', '<', '>', '|']) expect(hasForbiddenNameChar(`a${c}b`)).toBe(true);
    expect(hasForbiddenNameChar('季度 reports')).toBe(false);
  });
  it('splits address lists', () => {
    expect(splitAddresses('a@x.test, b@x.test;c@x.test，')).toEqual(['a@x.test', 'b@x.test', 'c@x.test']);
  });
});

describe('schemas', () => {
  it('reads id lists from form strings', () => {
    expect(idList.parse('1,2, 3')).toEqual(['1', '2', '3']);
    expect(idList.safeParse('').success).toBe(false);
    expect(idList.safeParse('1,x').success).toBe(false);
  });
  it('normalises the login address and needs a password', () => {
    expect(LoginInput.parse({ email: ' Alice@Demo.TEST ', password: 'p' }).email).toBe('alice@demo.test');
    const bad = LoginInput.safeParse({ email: 'alice@demo.test', password: '' });
    expect(bad.success).toBe(false);
  });
  it('applies folder name rules', () => {
    expect(CreateFolderInput.safeParse({ name: '  ' }).success).toBe(false);
    expect(CreateFolderInput.safeParse({ name: 'a|b' }).success).toBe(false);
    expect(CreateFolderInput.parse({ name: '项目', parent: '' })).toEqual({ name: '项目' });
  });
});
