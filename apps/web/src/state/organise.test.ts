import { beforeEach, describe, expect, it } from 'vitest';
import { splitHighlights } from '../ui/highlight';
import { HISTORY_MAX, searchHistory, withSearch } from './search-history';
import { allChosen, NO_SELECTION, selectionReducer, type Selection, type SelectionAction } from './selection';

describe('highlight splitting', () => {
  const marked = (text: string, terms: string[]) => splitHighlights(text, terms).map((p) => (p.hit ? `[${p.text}]` : p.text)).join('');

  it('marks every match, ignoring case', () => {
    expect(marked('Quarterly report: the REPORT is late', ['report'])).toBe('Quarterly [report]: the [REPORT] is late');
  });

  it('finds Chinese substrings', () => {
    expect(marked('第三季度报告', ['季度'])).toBe('第三[季度]报告');
  });

  it('prefers the longer term where terms overlap, and marks several terms', () => {
    expect(marked('季度报告 and 季度', ['季度', '季度报告'])).toBe('[季度报告] and [季度]');
    expect(marked('alice sent the plan', ['plan', 'alice'])).toBe('[alice] sent the [plan]');
  });

  it('treats terms as text, not patterns', () => {
    expect(marked('cost (est.) 5*3', ['(est.)', '5*3'])).toBe('cost [(est.)] [5*3]');
    expect(marked('a.b', ['.'])).toBe('a[.]b');
  });

  it('returns the text unmarked without terms, and nothing for empty text', () => {
    expect(splitHighlights('plain', [])).toEqual([{ text: 'plain', hit: false }]);
    expect(splitHighlights('plain', ['  '])).toEqual([{ text: 'plain', hit: false }]);
    expect(splitHighlights('', ['x'])).toEqual([]);
  });

  it('keeps every character exactly once', () => {
    const text = 'Re: Report — report/REPORTS 报告报告';
    expect(splitHighlights(text, ['report', '报告']).map((p) => p.text).join('')).toBe(text);
  });
});

describe('search history', () => {
  beforeEach(() => {
    localStorage.clear();
    searchHistory.clear('a@demo.test');
    searchHistory.clear('b@demo.test');
  });

  it('puts the newest first, moves repeats up and trims spaces', () => {
    expect(withSearch(['budget', 'plan'], '  Plan ')).toEqual(['Plan', 'budget']);
    expect(withSearch(['x'], '   ')).toEqual(['x']);
    expect(withSearch(['a  b'], 'a b')).toEqual(['a b']);
  });

  it('keeps at most HISTORY_MAX entries', () => {
    let list: string[] = [];
    for (let i = 0; i < HISTORY_MAX + 5; i++) list = withSearch(list, `q${i}`);
    expect(list).toHaveLength(HISTORY_MAX);
    expect(list[0]).toBe(`q${HISTORY_MAX + 4}`);
  });

  it('persists per mailbox and clears', () => {
    searchHistory.add('a@demo.test', '季度');
    searchHistory.add('a@demo.test', 'report');
    searchHistory.add('b@demo.test', 'other');
    expect(searchHistory.list('a@demo.test')).toEqual(['report', '季度']);
    expect(JSON.parse(localStorage.getItem('searchHistory:a@demo.test') ?? '[]')).toEqual(['report', '季度']);
    expect(searchHistory.list('b@demo.test')).toEqual(['other']);
    searchHistory.remove('a@demo.test', 'report');
    expect(searchHistory.list('a@demo.test')).toEqual(['季度']);
    searchHistory.clear('a@demo.test');
    expect(searchHistory.list('a@demo.test')).toEqual([]);
    expect(localStorage.getItem('searchHistory:a@demo.test')).toBeNull();
  });

  it('survives unreadable storage', () => {
    localStorage.setItem('searchHistory:c@demo.test', '{not json');
    expect(searchHistory.list('c@demo.test')).toEqual([]);
    localStorage.setItem('searchHistory:d@demo.test', JSON.stringify(['ok', 5, null]));
    expect(searchHistory.list('d@demo.test')).toEqual(['ok']);
  });
});

describe('batch selection', () => {
  const run = (...actions: SelectionAction[]): Selection => actions.reduce(selectionReducer, NO_SELECTION);

  it('enters with the long-pressed row chosen, or with none from the Edit button', () => {
    expect(run({ type: 'enter', id: '7' })).toEqual({ active: true, ids: ['7'] });
    expect(run({ type: 'enter' })).toEqual({ active: true, ids: [] });
    expect(run({ type: 'enter', id: '7' }, { type: 'enter', id: '7' }).ids).toEqual(['7']);
  });

  it('toggles rows only in batch mode, and stays in it when the last one is unticked', () => {
    expect(run({ type: 'toggle', id: '1' })).toBe(NO_SELECTION);
    expect(run({ type: 'enter' }, { type: 'toggle', id: '1' }, { type: 'toggle', id: '2' }).ids).toEqual(['1', '2']);
    expect(run({ type: 'enter', id: '1' }, { type: 'toggle', id: '1' })).toEqual({ active: true, ids: [] });
  });

  it('selects all loaded rows without repeats, clears, and exits', () => {
    const all = run({ type: 'enter', id: '2' }, { type: 'selectAll', ids: ['1', '2', '3'] });
    expect(all.ids).toEqual(['2', '1', '3']);
    expect(allChosen(all, ['1', '2', '3'])).toBe(true);
    expect(allChosen(all, ['1', '2', '3', '4'])).toBe(false);
    expect(allChosen(all, [])).toBe(false);
    expect(selectionReducer(all, { type: 'clear' })).toEqual({ active: true, ids: [] });
    expect(selectionReducer(all, { type: 'exit' })).toBe(NO_SELECTION);
  });

  it('drops rows that left the list and keeps the same object when nothing changed', () => {
    const s = run({ type: 'enter' }, { type: 'selectAll', ids: ['1', '2', '3'] });
    expect(selectionReducer(s, { type: 'retain', ids: ['3', '1', '9'] }).ids).toEqual(['1', '3']);
    expect(selectionReducer(s, { type: 'retain', ids: ['1', '2', '3'] })).toBe(s);
  });
});

describe('folder rules (spec §5)', async () => {
  const { folderNameProblem, folderLevel, tooDeep } = await import('../ui/folder-rules');
  const f = (mid: string, name: string, parent?: string) => ({ mid, name, parent, count: 0, total: 0 });
  const custom = [f('100', 'Work'), f('101', 'Clients', '100'), f('102', 'Acme', '101'), f('103', 'Home')];

  it('refuses empty names, forbidden characters, long names and siblings of the same name', () => {
    expect(folderNameProblem('  ', custom, undefined)).toBe('empty');
    expect(folderNameProblem('a/b', custom, undefined)).toBe('chars');
    expect(folderNameProblem('what?', custom, undefined)).toBe('chars');
    expect(folderNameProblem('x'.repeat(65), custom, undefined)).toBe('long');
    expect(folderNameProblem('work', custom, undefined)).toBe('taken');
    // The same name is fine in another place, and for the folder itself on rename.
    expect(folderNameProblem('Work', custom, '100')).toBeNull();
    expect(folderNameProblem('WORK', custom, undefined, '100')).toBeNull();
  });

  it('counts levels and refuses a fourth', () => {
    expect([folderLevel(custom, '100'), folderLevel(custom, '101'), folderLevel(custom, '102'), folderLevel(custom, '999')]).toEqual([1, 2, 3, 0]);
    expect(tooDeep(custom, undefined)).toBe(false);
    expect(tooDeep(custom, '101')).toBe(false);
    expect(tooDeep(custom, '102')).toBe(true);
  });
});

describe('tags', async () => {
  const { chipTextColor, tagColor } = await import('./tags');
  const { markOf } = await import('../pages/modules/tag-list');

  it('maps tag names to colours, grey for unknown names', () => {
    const list = [{ id: '1', name: 'Invoices', color: '#E5483F', count: 2 }];
    expect(tagColor(list, 'Invoices')).toBe('#E5483F');
    expect(tagColor(list, 'Nope')).toBe('#8A8F99');
  });

  it('darkens light colours for chip text and keeps dark ones', () => {
    expect(chipTextColor('#2086EE')).toBe('#2086EE');
    expect(chipTextColor('#F8D038')).not.toBe('#F8D038');
    expect(chipTextColor('bad')).toBe('#5c6370');
  });

  it('tells whether all, some or none of the chosen mails carry a tag', () => {
    expect(markOf([['A'], ['A', 'B']], 'A')).toBe('all');
    expect(markOf([['A'], ['B']], 'A')).toBe('some');
    expect(markOf([[], []], 'A')).toBe('none');
  });
});

describe('search form in the URL', async () => {
  const { dayRange, readSearchForm, searchParams, writeSearchForm } = await import('../pages/modules/search-mail/search-query');

  it('round-trips through the query string and drops junk', () => {
    const form = { q: '季度', mid: '0', range: 'custom' as const, since: 100, until: 200, attach: true, unread: false };
    expect(readSearchForm(writeSearchForm(form))).toEqual(form);
    expect(readSearchForm(new URLSearchParams('q=%20x%20&mid=abc&range=bogus&attach=yes'))).toEqual({ q: 'x', mid: '', range: 'any', attach: false, unread: false });
    expect(readSearchForm(new URLSearchParams('q=x&range=custom')).range).toBe('any');
  });

  it('turns relative ranges into since at search time', () => {
    const now = Date.UTC(2026, 0, 31);
    const form = { q: 'x', mid: '', range: 'week' as const, attach: true, unread: true };
    expect(searchParams(form, now)).toEqual({ q: 'x', since: now / 1000 - 7 * 86_400, attach: true, unread: true });
    expect(searchParams({ ...form, range: 'any', attach: false, unread: false }, now)).toEqual({ q: 'x' });
  });

  it('covers whole days for a picked range', () => {
    const { since, until } = dayRange(new Date(2026, 2, 3, 15), new Date(2026, 2, 5, 9));
    expect(new Date(since * 1000)).toEqual(new Date(2026, 2, 3));
    expect(new Date((until + 1) * 1000)).toEqual(new Date(2026, 2, 6));
  });
});
