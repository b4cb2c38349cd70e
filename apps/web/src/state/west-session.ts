// The storefront's session: a customer's token, kept apart from the mailbox session
// (DESIGN.md "Realms"), so logging in or out of one never touches the other.

const KEY = 'mw.west.token';

export const westSession = {
  token(): string {
    try {
      return localStorage.getItem(KEY) ?? '';
    } catch {
      return '';
    }
  },
  set(token: string): void {
    localStorage.setItem(KEY, token);
  },
  clear(): void {
    localStorage.removeItem(KEY);
  },
};
