import { pickerApi } from '../../../api/groups';
import { personLabel, type Picked } from './pickers';

/**
 * Names for people known only by id (a group's members, a rule's members): the
 * console's people list, a page of 100 at a time, until every id is named. An id
 * not found (out of scope, deleted) keeps its number rather than vanishing from the form.
 */
export async function labelPeople(ids: string[]): Promise<Picked[]> {
  const want = new Set(ids);
  const named = new Map<string, string>();
  for (let page = 1; want.size > named.size && page <= 20; page++) {
    const r = await pickerApi.people('', page, 100);
    for (const p of r.list) if (want.has(p.id)) named.set(p.id, personLabel(p));
    if (page * 100 >= r.total) break;
  }
  return ids.map((id) => ({ id, label: named.get(id) ?? `#${id}` }));
}
