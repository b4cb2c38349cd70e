import { describe, expect, it } from 'vitest';
import { readEntryParams } from './index';

describe('password-free entry params (spec §1)', () => {
  it('takes the token from ltoken, t or token with an email', () => {
    expect(readEntryParams('?ltoken=a&email=x@demo.test', '')).toEqual({ token: 'a', email: 'x@demo.test' });
    expect(readEntryParams('?t=b&email=x@demo.test', '')).toEqual({ token: 'b', email: 'x@demo.test' });
    expect(readEntryParams('?token=c&email=x@demo.test', '')).toEqual({ token: 'c', email: 'x@demo.test' });
  });

  it('accepts domain + user instead of an email', () => {
    expect(readEntryParams('?t=b&domain=demo.test&user=alice', '')).toEqual({ token: 'b', domain: 'demo.test', user: 'alice' });
  });

  it('reads the hash route query too', () => {
    expect(readEntryParams('', '?t=h&email=x@demo.test')).toEqual({ token: 'h', email: 'x@demo.test' });
    expect(readEntryParams('?t=s', '?email=x@demo.test')).toEqual({ token: 's', email: 'x@demo.test' });
  });

  it('needs a token and either an email or both domain and user', () => {
    expect(readEntryParams('?email=x@demo.test', '')).toBeNull();
    expect(readEntryParams('?t=a', '')).toBeNull();
    expect(readEntryParams('?t=a&domain=demo.test', '')).toBeNull();
  });
});
