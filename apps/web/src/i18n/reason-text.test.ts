import { describe, expect, it } from 'vitest';
import { allReasonCodes } from '@mailwing/shared';
import { enReasons } from './reasons/en';
import { zhReasons } from './reasons/zh';
import { reasonText, refusalText } from './reason-text';

describe('refusals in the user’s language, by reason code (API.md)', () => {
  it('has words in zh and en for every code the server may send, and none for codes it never sends', () => {
    for (const code of allReasonCodes) {
      expect(enReasons[code]?.trim(), code).toBeTruthy();
      expect(zhReasons[code], code).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(Object.keys(enReasons).sort()).toEqual([...allReasonCodes]);
    expect(Object.keys(zhReasons).sort()).toEqual([...allReasonCodes]);
  });

  it('says a known refusal in Chinese and never passes the server’s English through', async () => {
    const out = await refusalText({ code: 403, reason: 'password.old_wrong', english: 'The old password is incorrect.', englishFields: {} }, 'x', 'zh');
    expect(out.text).toBe('当前密码不正确。');
    // A code this client does not know: the generic words for the envelope code, not the English.
    const unknown = await refusalText({ code: 404, reason: 'thing.from_the_future', english: 'Thing not found', englishFields: {} }, 'x', 'zh');
    expect(unknown.text).toBe(zhReasons['object.not_found']);
    expect(await reasonText('login.bad_credentials', 'en')).toBe(enReasons['login.bad_credentials']);
  });

  it('words each field of a 422 by its own reason, and the whole by the first field', async () => {
    const out = await refusalText({
      code: 422, reason: 'input.invalid', reasons: { code: 'code.empty', email: 'send.no_such_mailbox' },
      english: 'code is empty', englishFields: { code: 'code is empty', email: 'x@demo.test: no such mailbox' },
    }, 'x', 'zh');
    expect(out.fields).toEqual({ code: zhReasons['code.empty'], email: zhReasons['send.no_such_mailbox'] });
    expect(out.text).toBe(zhReasons['code.empty']);
    // English readers keep a schema message's detail (it names the limit).
    const en = await refusalText({ code: 422, reason: 'input.invalid', reasons: { name: 'input.too_long' }, english: '', englishFields: { name: 'at most 50 characters' } }, 'x', 'en');
    expect(en.fields.name).toBe('at most 50 characters');
  });

  it('says how long to wait when the server gave Retry-After', async () => {
    const out = await refusalText({ code: 429, reason: 'rate.limited', retryAfter: 42, english: 'Too many failed attempts. Try again in 42 seconds.', englishFields: {} }, 'x', 'zh');
    expect(out.text).toBe('失败次数过多，请 42 秒后再试。');
  });
});
