import type { Branding, SessionResult, VerifyChallenge } from '@mailwing/shared';
import { session } from '../state/session';
import { refreshMbox } from './endpoints';
import { request } from './request';

/** After a password, a code or a sign-in link: the new session, its mailbox, the folder counts. */
export async function completeLogin(result: SessionResult): Promise<void> {
  session.setToken(result.token);
  session.setCurrentEmailName(result.email);
  session.setMailList([{ email: result.email }]);
  await refreshMbox();
}

/**
 * The second-verification page for a login's (or a binding's) challenge. The
 * ways and the masked backup address ride in the query, so a reload keeps them.
 */
export function verifyPath(challenge: VerifyChallenge, purpose: 'login' | 'bind' = 'login'): string {
  const q = new URLSearchParams({ ticket: challenge.ticket, ways: challenge.ways.join(',') });
  if (challenge.backupEmail) q.set('backupEmail', challenge.backupEmail);
  if (purpose === 'bind') q.set('purpose', 'bind');
  return `/pages/verify/index?${q}`;
}

/** The login page's company look, by ?domain= or (without it) by the host the page was opened on; never fails the page. */
export function loginBranding(domain: string | null): Promise<Branding | null> {
  return request<Branding>('/login/branding', { data: domain ? { domain } : {}, loading: false, quiet: true }).catch(() => null);
}
