import type { Account, LoginResult, SessionResult } from '@mailwing/shared';
import { session, sameAddress } from '../state/session';
import { refreshMbox } from './endpoints';
import { request } from './request';

// Several mailboxes (spec §3, §6): binding, unbinding and switching. Loaded
// when the mailbox tab is used (and by the bind page), not with the first screen.

/** Logs in to another mailbox and binds it; may ask for its second verification first. */
export const bindMailbox = (email: string, password: string) =>
  request<LoginResult>('/login/bind', { method: 'POST', data: { email, password } });

export const unbindMailbox = (email: string) => request<unknown>('/login/unbind', { method: 'POST', data: { email } });


let switching: { email: string; done: Promise<boolean> } | null = null;

/**
 * Whether a held token still opens its mailbox. Its 401 says nothing about the
 * current session (request.ts); any failure means "ask for a fresh one", whose
 * call then says what went wrong.
 */
function stillValid(token: string): Promise<boolean> {
  return request<Account>('/login/check', { token, loading: false, quiet: true }).then(() => true, () => false);
}

/**
 * Switches to a bound mailbox at once, without a password: with the token held
 * for it, or, when that is missing or refused, a fresh one from
 * login/app-email-select. Then reloads the folder counts. False when it could
 * not switch (the request layer has said why).
 */
export function switchTo(email: string): Promise<boolean> {
  // A second tap (or React's doubled effect) joins the switch under way.
  if (switching && sameAddress(switching.email, email)) return switching.done;
  const done = doSwitch(email).finally(() => {
    if (switching?.done === done) switching = null;
  });
  switching = { email, done };
  return done;
}

async function doSwitch(email: string): Promise<boolean> {
  const s = session.get();
  if (sameAddress(email, s.currentEmailName)) return true;
  const held = s.mailList.find((b) => sameAddress(b.email, email))?.token;
  try {
    let token = held && (await stillValid(held)) ? held : '';
    if (!token) token = (await request<SessionResult>('/login/app-email-select', { data: { email }, loading: false })).token;
    // The current mailbox may have changed while we asked (a tap on another one).
    if (session.get().token !== s.token) return false;
    if (!session.switchMailbox(email, token)) return false;
  } catch {
    return false;
  }
  await refreshMbox();
  return true;
}
