import { isEmail, type Contact, type Department } from '@mailwing/shared';

// Pure rules of the address book pages: the index bar's grouping and the
// department tree's paths. No React and no calls here, so they are unit-tested.

/** The index key of the pinned group of important contacts. */
export const IMPORTANT_INDEX = '★';
/** Where names that start with neither a letter nor a Chinese character go. */
export const OTHER_INDEX = '#';

export interface IndexGroup {
  /** '★', 'A'…'Z' or '#'. */
  index: string;
  contacts: Contact[];
}

function indexOf(contact: Contact): string {
  const initial = contact.initial.trim().toUpperCase();
  return /^[A-Z]$/.test(initial) ? initial : OTHER_INDEX;
}

/**
 * Contacts grouped for the index bar: important contacts pinned in a '★'
 * group on top (and only there), then A–Z, then '#'. Within a group the
 * server's order (pinyin, then name) is kept.
 */
export function groupByInitial(contacts: readonly Contact[]): IndexGroup[] {
  const important: Contact[] = [];
  const byIndex = new Map<string, Contact[]>();
  for (const contact of contacts) {
    if (contact.important) {
      important.push(contact);
      continue;
    }
    const index = indexOf(contact);
    const list = byIndex.get(index);
    if (list) list.push(contact);
    else byIndex.set(index, [contact]);
  }
  const letters = [...byIndex.keys()].filter((k) => k !== OTHER_INDEX).sort();
  const groups: IndexGroup[] = [];
  if (important.length > 0) groups.push({ index: IMPORTANT_INDEX, contacts: important });
  for (const index of letters) groups.push({ index, contacts: byIndex.get(index)! });
  const other = byIndex.get(OTHER_INDEX);
  if (other) groups.push({ index: OTHER_INDEX, contacts: other });
  return groups;
}

/** The contacts in a group, in list order. */
export function contactsInGroup(contacts: readonly Contact[], groupId: string): Contact[] {
  return contacts.filter((c) => c.groupIds.includes(groupId));
}

/** Sub-departments of a department, by name. */
export function childDepartments(list: readonly Department[], parentId: string): Department[] {
  return list.filter((d) => d.parentId === parentId).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The path from the root to a department, for breadcrumbs. An unknown id
 * gives just the root; a cycle (bad data) stops instead of looping.
 */
export function departmentPath(list: readonly Department[], rootId: string, id: string): Department[] {
  const byId = new Map(list.map((d) => [d.id, d]));
  const path: Department[] = [];
  const seen = new Set<string>();
  let current = byId.get(id);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift(current);
    if (current.id === rootId || current.parentId === null) break;
    current = byId.get(current.parentId);
  }
  const root = byId.get(rootId);
  if (path[0]?.id !== rootId) return root ? [root] : [];
  return path;
}

/** Departments in tree order with their depth (root 0), for pickers and the chooser. */
export function flattenDepartments(list: readonly Department[], rootId: string): Array<{ department: Department; depth: number }> {
  const out: Array<{ department: Department; depth: number }> = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number) => {
    const department = list.find((d) => d.id === id);
    if (!department || seen.has(id)) return;
    seen.add(id);
    out.push({ department, depth });
    for (const child of childDepartments(list, id)) visit(child.id, depth + 1);
  };
  visit(rootId, 0);
  return out;
}

/**
 * Every item of a paged list: asks for page 1, 2, … until the total is
 * reached or a page comes back short or empty (the list shrank meanwhile).
 * maxPages bounds it against a server that keeps answering.
 */
export async function collectPages<T>(
  fetchPage: (page: number) => Promise<{ list: T[]; total: number; size: number }>,
  maxPages = 100,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const result = await fetchPage(page);
    items.push(...result.list);
    if (result.list.length < result.size || items.length >= result.total) break;
  }
  return items;
}

/** Members of a department and all its sub-departments (the server counts each department's own). */
export function subtreeMembers(list: readonly Department[], id: string): number {
  let total = 0;
  const seen = new Set<string>();
  const visit = (deptId: string) => {
    if (seen.has(deptId)) return;
    seen.add(deptId);
    for (const d of list) {
      if (d.id === deptId) total += d.members;
      else if (d.parentId === deptId) visit(d.id);
    }
  };
  visit(id);
  return total;
}

/**
 * What the block and allow lists take (as the server's SenderPattern): an
 * address, or a domain with or without a leading "@".
 */
export function isSenderPattern(text: string): boolean {
  const v = text.trim().toLowerCase().replace(/^@/, '');
  return isEmail(v) || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(v);
}
