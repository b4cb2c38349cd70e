import { useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enAddress } from './en-address';
import { zh } from './zh';
import { zhAddress } from './zh-address';

export type AddressMessages = Messages & typeof enAddress;

// The address book's pages load on demand, and so do their strings: the
// first-screen bundle (budget: e2e/tests/budget.test.ts) carries none of them.
const catalogues: Record<Language, AddressMessages> = {
  en: { ...en, ...enAddress },
  zh: { ...zh, ...zhAddress },
};

/** useT() plus the strings of the address book and company directory pages. */
export function useAddressT(): AddressMessages {
  return catalogues[useLanguage()];
}
