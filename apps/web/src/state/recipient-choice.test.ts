import { beforeEach, describe, expect, it } from 'vitest';
import { allChosen, isChosen, mergeChosen, removeChosen, takeChosenRecipients, toggleChosen, toRecipients } from './recipient-choice';
import { session, sessionStore } from './session';

const p = (name: string, email: string) => ({ name, email });

describe('choosing recipients', () => {
  it('merges people once by address, case-insensitively, keeping the first name', () => {
    const list = mergeChosen([p('Bob', 'bob@demo.test')], [p('Bob Li', 'BOB@demo.test'), p('Alice', ' alice@demo.test '), p('', ''), p('Alice W', 'alice@demo.test')]);
    expect(list).toEqual([p('Bob', 'bob@demo.test'), p('Alice', 'alice@demo.test')]);
    expect(isChosen(list, 'Alice@Demo.test')).toBe(true);
  });

  it('a group or department adds its members, and a second tap on a fully chosen one takes them out', () => {
    const group = [p('张伟', 'zhangwei@partner.test'), p('李雷', 'lilei@partner.test')];
    let list = [p('李雷', 'lilei@partner.test'), p('Carol', 'carol@x.test')];
    expect(allChosen(list, group)).toBe(false);
    list = toggleChosen(list, group);
    expect(list.map((c) => c.email)).toEqual(['lilei@partner.test', 'carol@x.test', 'zhangwei@partner.test']);
    expect(allChosen(list, group)).toBe(true);
    list = toggleChosen(list, group);
    expect(list).toEqual([p('Carol', 'carol@x.test')]);
    expect(allChosen(list, [])).toBe(false);
    expect(toggleChosen(list, [])).toEqual(list);
  });

  it('overlapping groups and departments keep one chip per address', () => {
    const sales = [p('Alice Wang', 'alice@demo.test')];
    const team = [p('Alice', 'ALICE@demo.test'), p('Bob Li', 'bob@demo.test')];
    const list = mergeChosen(mergeChosen([], sales), team);
    expect(list.map((c) => c.email)).toEqual(['alice@demo.test', 'bob@demo.test']);
    expect(removeChosen(list, [p('', 'Alice@demo.test')]).map((c) => c.email)).toEqual(['bob@demo.test']);
  });

  it('turns people into compose chips, marking bad addresses invalid', () => {
    expect(toRecipients([p('A', 'a@x.test'), p('B', 'not-an-address')])).toEqual([
      { name: 'A', address: 'a@x.test', valid: true },
      { name: 'B', address: 'not-an-address', valid: false },
    ]);
  });
});

describe('handing the choice to compose (spec §3, §4)', () => {
  beforeEach(() => {
    session.clearAll();
    localStorage.clear();
  });

  it('gives the chosen people for their field once, then clears the selection and the type', () => {
    session.setSelectedContacts([p('Bob', 'bob@demo.test')], 'cc');
    expect(JSON.parse(localStorage.getItem('addressSelectType') ?? 'null')).toBe('cc');
    expect(takeChosenRecipients()).toEqual({ field: 'cc', recipients: [{ name: 'Bob', address: 'bob@demo.test', valid: true }] });
    expect(sessionStore.get().selectedContacts).toEqual([]);
    expect(sessionStore.get().addressSelectType).toBe('');
    expect(takeChosenRecipients()).toBeNull();
  });

  it('drops a selection for an unknown field', () => {
    session.setSelectedContacts([p('Bob', 'bob@demo.test')], 'calendar');
    expect(takeChosenRecipients()).toBeNull();
    expect(sessionStore.get().selectedContacts).toEqual([]);
  });
});
