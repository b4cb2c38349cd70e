import { describe, expect, it } from 'vitest';
import { fillTemplate, formatTemplateDate, resolveSignatureId, type TemplateContext } from '../src/index.js';

const now = new Date('2026-03-31T20:30:00Z');
const ctx: TemplateContext = {
  recipient: { name: 'Bob <Lee>', email: 'bob@demo.test' },
  sender: { name: 'Alice & Co', email: 'alice@demo.test' },
  company: 'Demo Co',
  now,
  language: 'en',
  timeZone: 'UTC',
};

describe('template variables', () => {
  it('fills every known variable, HTML-escaped in a body', () => {
    const out = fillTemplate('<p>Dear {{recipient.name}} ({{recipient.email}}), from {{sender.name}} {{ sender.email }} at {{company}} on {{date}}</p>', ctx);
    expect(out).toBe('<p>Dear Bob &lt;Lee&gt; (bob@demo.test), from Alice &amp; Co alice@demo.test at Demo Co on March 31, 2026</p>');
  });

  it('takes values as they are in a plain-text subject', () => {
    expect(fillTemplate('Re: {{sender.name}}', ctx, false)).toBe('Re: Alice & Co');
  });

  it('leaves unknown variables, and known ones with no value yet, visibly as written', () => {
    expect(fillTemplate('{{recipient.phone}} {{nope}} {{ recipient.name }}', { ...ctx, recipient: null })).toBe('{{recipient.phone}} {{nope}} {{ recipient.name }}');
    expect(fillTemplate('{{company}}', { ...ctx, company: '' })).toBe('{{company}}');
    expect(fillTemplate('{{ single }} {broken}} {{a.b.c}}', ctx)).toBe('{{ single }} {broken}} {{a.b.c}}');
  });

  it('greets a recipient without a name by address, and a sender likewise', () => {
    expect(fillTemplate('{{recipient.name}}/{{sender.name}}', { ...ctx, recipient: { email: 'x@y.test' }, sender: { email: 's@y.test', name: ' ' } })).toBe('x@y.test/s@y.test');
  });

  it('writes the date in the language and time zone of the user', () => {
    // 20:30 UTC on 31 March is already 1 April in Shanghai.
    expect(fillTemplate('{{date}}', { ...ctx, language: 'zh', timeZone: 'Asia/Shanghai' })).toBe('2026年4月1日');
    expect(formatTemplateDate(now, 'en', 'America/New_York')).toBe('March 31, 2026');
    // An unknown zone falls back to the device's instead of throwing.
    expect(formatTemplateDate(now, 'en', 'Mars/Olympus')).toMatch(/2026/);
  });

  it('does not let a value inject markup or another variable', () => {
    const out = fillTemplate('{{recipient.name}}', { ...ctx, recipient: { name: '{{sender.email}}<img src=x onerror=alert(1)>', email: 'e@x.test' } });
    expect(out).toBe('{{sender.email}}&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('signature defaults', () => {
  it('replies use the new-mail signature while "same as new", else their own', () => {
    expect(resolveSignatureId({ newMail: '1', reply: '2', replySameAsNew: true }, 'reply')).toBe('1');
    expect(resolveSignatureId({ newMail: '1', reply: '2', replySameAsNew: false }, 'forward')).toBe('2');
    expect(resolveSignatureId({ newMail: '1', reply: null, replySameAsNew: false }, 'reply')).toBeNull();
    expect(resolveSignatureId({ newMail: null, reply: '2', replySameAsNew: true }, 'reply')).toBeNull();
    expect(resolveSignatureId({ newMail: '1', reply: '2', replySameAsNew: false }, 'new')).toBe('1');
  });
});
