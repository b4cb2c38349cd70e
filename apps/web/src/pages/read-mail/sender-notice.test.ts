import { describe, expect, it } from 'vitest';
import type { MailAuth } from '@mailwing/shared';
import { enOrganise } from '../../i18n/en-organise';
import { zhOrganise } from '../../i18n/zh-organise';
import { authSummary, senderNoticeKind } from './sender-notice';

const outside = (verdict: MailAuth['verdict']): MailAuth => ({ external: true, verdict, spf: 'pass', dkim: 'none', dmarc: 'none' });

describe('sender notice on the read page', () => {
  it('shows nothing for mail between our own users (no auth)', () => {
    expect(senderNoticeKind(undefined)).toBeNull();
  });

  it('marks outside mail external, and a failed check forged whether or not it also passed something', () => {
    expect(senderNoticeKind(outside('pass'))).toBe('external');
    expect(senderNoticeKind(outside('none'))).toBe('external');
    expect(senderNoticeKind(outside('fail'))).toBe('forged');
  });

  it('spells the results in the reader’s language, and an unknown one as it came', () => {
    const a: MailAuth = { external: true, verdict: 'fail', spf: 'fail', dkim: 'temperror', dmarc: 'weird' };
    expect(authSummary(a, enOrganise.authResult)).toBe('SPF fail · DKIM not checked (DNS error) · DMARC weird');
    expect(authSummary(a, zhOrganise.authResult)).toBe('SPF 未通过 · DKIM 未能检查（DNS 错误） · DMARC weird');
  });
});
