import { ContactMessages } from '@mailwing/shared';
import type { AddressMessages } from '../../i18n/address';

/**
 * The server answers in English; the address book's own known messages are
 * shown in the UI language, anything else as the server sent it.
 */
export function serverText(m: AddressMessages, text: string): string {
  const known: Record<string, string> = {
    [ContactMessages.nameRequired]: m.abNameRequired,
    [ContactMessages.emailRequired]: m.abEmailRequired,
    [ContactMessages.emailInvalid]: m.emailInvalid,
    [ContactMessages.groupNameRequired]: m.abGroupNameRequired,
    'A contact with this address already exists': m.abDuplicate,
    'A group with this name already exists': m.abGroupDuplicate,
    'must be an address or a domain': m.abPatternInvalid,
  };
  return known[text] ?? text;
}

/** A 422's fields as antd-mobile Form field errors, in the UI language. */
export function formErrors(m: AddressMessages, fields: Readonly<Record<string, string>>): Array<{ name: string; errors: string[] }> {
  return Object.entries(fields).map(([name, text]) => ({ name, errors: [serverText(m, text)] }));
}
