import { describe, expect, it } from 'vitest';
import type { Contact, Department } from '@mailwing/shared';
import { childDepartments, collectPages, contactsInGroup, departmentPath, flattenDepartments, groupByInitial, isSenderPattern, subtreeMembers } from './address-book';

const contact = (name: string, initial: string, extra: Partial<Contact> = {}): Contact => ({
  id: name, name, email: `${name}@x.test`, phone: '', company: '', jobTitle: '', jobNumber: '', groupIds: [], important: false, initial, ...extra,
});

describe('groupByInitial', () => {
  it('pins important contacts in a ★ group on top, then A–Z, then #', () => {
    const list = [
      contact('张伟', 'Z', { important: true }),
      contact('Anna', 'A'),
      contact('李雷', 'L'),
      contact('1Password', '#'),
      contact('Amy', 'a'),
      contact('Zed', 'Z'),
    ];
    const groups = groupByInitial(list);
    expect(groups.map((g) => g.index)).toEqual(['★', 'A', 'L', 'Z', '#']);
    expect(groups[0]!.contacts.map((c) => c.name)).toEqual(['张伟']);
    // The server's order is kept inside a group; a lower-case initial counts.
    expect(groups[1]!.contacts.map((c) => c.name)).toEqual(['Anna', 'Amy']);
    // An important contact is shown once, under ★ only.
    expect(groups[3]!.contacts.map((c) => c.name)).toEqual(['Zed']);
  });

  it('puts anything but a single letter under #, and has no ★ group without important contacts', () => {
    const groups = groupByInitial([contact('?', ''), contact('Ω', 'Ω'), contact('Bo', 'B')]);
    expect(groups.map((g) => [g.index, g.contacts.length])).toEqual([['B', 1], ['#', 2]]);
    expect(groupByInitial([])).toEqual([]);
  });
});

describe('contactsInGroup', () => {
  it('keeps the list order', () => {
    const list = [contact('a', 'A', { groupIds: ['1', '2'] }), contact('b', 'B', { groupIds: ['2'] }), contact('c', 'C')];
    expect(contactsInGroup(list, '2').map((c) => c.name)).toEqual(['a', 'b']);
    expect(contactsInGroup(list, '9')).toEqual([]);
  });
});

describe('department tree', () => {
  const dept = (id: string, name: string, parentId: string | null): Department => ({ id, name, parentId, members: 0 });
  const tree = [dept('1', 'Demo Co', null), dept('3', 'Sales', '1'), dept('2', 'Engineering', '1'), dept('4', 'Backend', '2'), dept('5', 'Loop', '6'), dept('6', 'Loop2', '5')];

  it('lists sub-departments by name', () => {
    expect(childDepartments(tree, '1').map((d) => d.name)).toEqual(['Engineering', 'Sales']);
  });

  it('gives the breadcrumb path from the root', () => {
    expect(departmentPath(tree, '1', '4').map((d) => d.name)).toEqual(['Demo Co', 'Engineering', 'Backend']);
    expect(departmentPath(tree, '1', '1').map((d) => d.name)).toEqual(['Demo Co']);
    expect(departmentPath(tree, '1', '99').map((d) => d.name)).toEqual(['Demo Co']);
    // A cycle that never reaches the root ends at the root, not in a loop.
    expect(departmentPath(tree, '1', '5').map((d) => d.name)).toEqual(['Demo Co']);
  });

  it('counts the members of a whole department', () => {
    const counted = tree.map((d, i) => ({ ...d, members: i + 1 }));
    // Engineering (3) and Backend (4); Sales (2); the root's own (1) plus all of them.
    expect(subtreeMembers(counted, '2')).toBe(7);
    expect(subtreeMembers(counted, '3')).toBe(2);
    expect(subtreeMembers(counted, '1')).toBe(10);
    expect(subtreeMembers(counted, '5')).toBe(11);
  });

  it('flattens the tree in order with depths', () => {
    expect(flattenDepartments(tree, '1').map((d) => `${d.depth}:${d.department.name}`)).toEqual(['0:Demo Co', '1:Engineering', '2:Backend', '1:Sales']);
  });
});

describe('collectPages', () => {
  it('asks page after page until the total is reached', async () => {
    const all = Array.from({ length: 250 }, (_, i) => i);
    const asked: number[] = [];
    const items = await collectPages(async (page) => {
      asked.push(page);
      return { list: all.slice((page - 1) * 100, page * 100), total: all.length, size: 100 };
    });
    expect(items).toEqual(all);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('stops on a short page even when the total says more, and at maxPages', async () => {
    expect(await collectPages(async () => ({ list: [1], total: 50, size: 100 }))).toEqual([1]);
    let calls = 0;
    const endless = await collectPages(async () => {
      calls += 1;
      return { list: [calls, calls], total: 1000, size: 2 };
    }, 3);
    expect(endless).toEqual([1, 1, 2, 2, 3, 3]);
  });
});

describe('isSenderPattern', () => {
  it('takes an address or a domain, with or without a leading @', () => {
    for (const ok of ['spam@spammy.test', 'spammy.test', '@spammy.test', ' Mail.Spammy.TEST ', 'a-b.co']) expect(isSenderPattern(ok), ok).toBe(true);
    for (const bad of ['', 'spammy', '@', 'two words.test', 'x@', '-bad.test', 'a..b.test']) expect(isSenderPattern(bad), bad).toBe(false);
  });
});
