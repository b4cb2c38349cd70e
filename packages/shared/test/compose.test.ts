import { describe, expect, it } from 'vitest';
import { attachmentNameProblem, fileExtension, parseAddress, threadSubject } from '../src/validators.js';
import { SendInput } from '../src/index.js';

describe('compose helpers', () => {
  it('parses typed recipients with and without a name', () => {
    expect(parseAddress('Bob@Demo.test')).toEqual({ name: '', address: 'bob@demo.test' });
    expect(parseAddress('Bob Lee <bob@demo.test>')).toEqual({ name: 'Bob Lee', address: 'bob@demo.test' });
    expect(parseAddress('"李雷" <li@demo.test>')).toEqual({ name: '李雷', address: 'li@demo.test' });
    expect(parseAddress('bob')).toBeNull();
    expect(parseAddress('Bob <bob@demo>')).toBeNull();
  });

  it('groups replies and forwards with their original subject', () => {
    for (const s of ['Re: 第三季度报告', 'RE:第三季度报告', 'Fwd: Re: 第三季度报告', '回复：第三季度报告', '转发: 第三季度报告', 'Re[2]: 第三季度报告']) {
      expect(threadSubject(s), s).toBe('第三季度报告');
    }
    expect(threadSubject('Regarding the plan')).toBe('regarding the plan');
  });

  it('judges attachment names (spec §5) and extensions', () => {
    expect(attachmentNameProblem('report.pdf')).toBeNull();
    expect(attachmentNameProblem('a"b.pdf')).toBe('forbidden');
    expect(attachmentNameProblem('a\\b.pdf')).toBe('forbidden');
    expect(attachmentNameProblem('  ')).toBe('empty');
    expect(fileExtension('Setup.EXE')).toBe('exe');
    expect(fileExtension('.bashrc')).toBe('');
    // Spellings that Windows still runs as .exe (issue 12, finding 8).
    for (const name of ['evil.exe.', 'evil.exe ', 'evil.exe. . ', 'evil.exe\u200b', 'evil.ex\u00ade', 'evil.exe\u202e', 'evil.exe\t', 'evil.exe\u3000']) {
      expect(fileExtension(name)).toBe('exe');
    }
    expect(attachmentNameProblem('evil\u0000.pdf')).toBe('forbidden');
    expect(attachmentNameProblem('a\r\nb.pdf')).toBe('forbidden');
  });

  it('validates a send form as spec §5 says, accepting form-encoded lists', () => {
    const ok = SendInput.safeParse({ to: 'a@x.test, B <b@x.test>; a@x.test', subject: 'Hi', urgent: '1', attachIds: '3,12.0' });
    expect(ok.success && ok.data).toMatchObject({ to: [{ address: 'a@x.test' }, { name: 'B', address: 'b@x.test' }], urgent: true, attachIds: ['3', '12.0'] });
    const bad = SendInput.safeParse({ to: '', subject: '' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['to', 'Add at least one recipient'], ['subject', 'Mail subject must not be empty'],
    ]);
  });
});
