import { describe, expect, it } from 'vitest';
import { newPartOfHtml, splitQuotedText } from './quote-fold';

describe('quoted text folding', () => {
  it('folds plain text at "On … wrote:", at > lines, and at a 原始邮件 separator', () => {
    expect(splitQuotedText('Yes, noon.\n\nOn Tue, 3 Mar 2026, Carol <c@x.example> wrote:\n> lunch?')).toEqual({ main: 'Yes, noon.', quoted: 'On Tue, 3 Mar 2026, Carol <c@x.example> wrote:\n> lunch?' });
    expect(splitQuotedText('ok\n> a\n> b').main).toBe('ok');
    expect(splitQuotedText('好的\n\n------------------ 原始邮件 ------------------\n发件人: 张三').main).toBe('好的');
    // A > line in the middle of new text is not a quote, and all-quote mail stays whole.
    expect(splitQuotedText('a\n> b\nc').quoted).toBe('');
    expect(splitQuotedText('> only quote').quoted).toBe('');
  });

  it('folds HTML at a blockquote, a Gmail quote, or a marker paragraph, keeping what comes before', () => {
    expect(newPartOfHtml('<p>Yes!</p><p>On 2026-03-03 10:00, Carol wrote:</p><blockquote><p>Lunch?</p></blockquote>')).toBe('<p>Yes!</p>');
    expect(newPartOfHtml('<div>Fine</div><div class="gmail_quote"><div>old</div></div>')).toBe('<div>Fine</div>');
    expect(newPartOfHtml('<div><p>收到</p><div>------------------ 原始邮件 ------------------</div><div>发件人: 李四</div></div>')).toBe('<div><p>收到</p></div>');
    expect(newPartOfHtml('<p>No quote here</p>')).toBeNull();
    expect(newPartOfHtml('<blockquote>all quote</blockquote>')).toBeNull();
  });
});
