import { isEmail } from '@mailwing/shared';
import type { Recipient } from './compose-rules';
import { session, type Contact as Chosen } from './session';

// Choosing recipients from the address book (spec §3: selectedContacts and
// addressSelectType). The chooser keeps a list of chosen people, each once
// by address; a group or a whole department adds or removes all of them.

export type { Chosen };
export type RecipientField = 'to' | 'cc' | 'bcc';

const FIELDS: readonly string[] = ['to', 'cc', 'bcc'];

export function isRecipientField(value: string | null | undefined): value is RecipientField {
  return typeof value === 'string' && FIELDS.includes(value);
}

const key = (email: string) => email.trim().toLowerCase();

/** Whether an address is in the list (addresses compare case-insensitively). */
export function isChosen(list: readonly Chosen[], email: string): boolean {
  const k = key(email);
  return list.some((c) => key(c.email) === k);
}

/** Adds people, each address once; the first name given for an address is kept. Blank addresses are left out. */
export function mergeChosen(list: readonly Chosen[], more: readonly Chosen[]): Chosen[] {
  const out = [...list];
  const seen = new Set(list.map((c) => key(c.email)));
  for (const c of more) {
    const k = key(c.email);
    if (!k || seen.has(k)) continue;
    seen.add(k);
    out.push({ name: c.name.trim(), email: c.email.trim() });
  }
  return out;
}

/** Takes people out by address. */
export function removeChosen(list: readonly Chosen[], gone: readonly Chosen[]): Chosen[] {
  const drop = new Set(gone.map((c) => key(c.email)));
  return list.filter((c) => !drop.has(key(c.email)));
}

/** Whether every one of a group's people is chosen (false for an empty group). */
export function allChosen(list: readonly Chosen[], people: readonly Chosen[]): boolean {
  return people.length > 0 && people.every((p) => isChosen(list, p.email));
}

/**
 * One tap on a person, a group or a department: when all of them are
 * already chosen it takes them out, otherwise it adds the missing ones.
 */
export function toggleChosen(list: readonly Chosen[], people: readonly Chosen[]): Chosen[] {
  return allChosen(list, people) ? removeChosen(list, people) : mergeChosen(list, people);
}

/** Chosen people as compose chips. */
export function toRecipients(list: readonly Chosen[]): Recipient[] {
  return list.map((c) => ({ name: c.name, address: c.email, valid: isEmail(c.email) }));
}

/**
 * For the compose page, once it is back from the chooser: the people chosen
 * for one of its fields, as chips. The selection is cleared either way (spec
 * §4: clearing also resets the select type), so it is applied once.
 */
export function takeChosenRecipients(): { field: RecipientField; recipients: Recipient[] } | null {
  const { selectedContacts, addressSelectType } = session.get();
  if (selectedContacts.length === 0 && !addressSelectType) return null;
  session.clearSelectedContacts();
  if (!isRecipientField(addressSelectType) || selectedContacts.length === 0) return null;
  return { field: addressSelectType, recipients: toRecipients(selectedContacts) };
}
