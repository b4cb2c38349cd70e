import { completeLogin, verifyPath } from '../api/login';
import { wechatApi } from '../api/wechat';
import { TAB_ROUTES } from '../ui/tab-layout';
import { session } from './session';
import { reloadSettings } from './settings';

// Logging in with WeChat and binding it (OAuth 2.0 via the server, spec §7).
// The browser leaves for WeChat's authorize page, which sends it back to the
// server's redirect URI (the start page) with ?code&state in the page query.
// A marker in sessionStorage (this tab only) says that we sent it there, why,
// and with which state: a code we did not ask for is never used, so a link
// cannot log this tab in to someone else's mailbox or bind someone else's
// WeChat to it. Loaded on demand: the first screen imports it with import().

export type WechatPurpose = 'login' | 'bind';

interface Marker {
  purpose: WechatPurpose;
  state: string;
  /** For a binding: the mailbox it was started from. */
  email?: string;
}

export const WECHAT_MARKER = 'wechatAuth';
const LOGIN = '/pages/login/index';
export const SECURITY = '/pages/modules/setting-security/index';

/** What the start page does after a return from WeChat: where to go, with a route state for the page. */
export interface WechatDone {
  to: string;
  state?: { wechat: 'bound' };
}

let on: Promise<boolean> | undefined;

/**
 * Whether WeChat login is on (login/wx answers 200). Quiet: off is the default, not
 * an error. Asked once per page load: it changes only with the server's configuration.
 */
export function wechatOn(): Promise<boolean> {
  on ??= wechatApi.authorize(true).then(() => true, () => false);
  return on;
}

/** Asks for a fresh authorize URL and goes there; a refusal is toasted by the request layer. */
export async function startWechat(purpose: WechatPurpose): Promise<void> {
  let url: string;
  let state: string;
  try {
    ({ url, state } = await wechatApi.authorize());
  } catch {
    return;
  }
  const marker: Marker = { purpose, state };
  if (purpose === 'bind') marker.email = session.get().currentEmailName;
  sessionStorage.setItem(WECHAT_MARKER, JSON.stringify(marker));
  window.location.assign(url);
}

export interface WechatReturn {
  purpose: WechatPurpose;
  state: string;
  email?: string;
  /** Null when the user declined (WeChat then sends the state alone). */
  code: string | null;
}

/** The return from WeChat in a page query, when the marker says we started it with this state; otherwise null. */
export function readWechatReturn(search: string, rawMarker: string | null): WechatReturn | null {
  let marker: Partial<Marker>;
  try {
    marker = JSON.parse(rawMarker ?? '') as Partial<Marker>;
  } catch {
    return null;
  }
  const params = new URLSearchParams(search);
  const state = params.get('state');
  if (!marker || (marker.purpose !== 'login' && marker.purpose !== 'bind') || !marker.state || state !== marker.state) return null;
  return { purpose: marker.purpose, state, email: marker.email, code: params.get('code')?.trim() || null };
}

/**
 * On the start page, when the page query has a state: finishes the WeChat login
 * or binding this tab started, or answers null when it is not ours (the start
 * page then goes on as usual). Failures are toasted by the request layer.
 */
export async function finishWechat(): Promise<WechatDone | null> {
  const back = readWechatReturn(window.location.search, sessionStorage.getItem(WECHAT_MARKER));
  if (!back) return null;
  sessionStorage.removeItem(WECHAT_MARKER);
  // The code must not stay in the address bar, the history or a bookmark.
  window.history.replaceState(null, '', `${window.location.pathname}#/`);
  const { token, currentEmailName } = session.get();
  if (back.purpose === 'bind') {
    if (!token) return { to: LOGIN };
    if (!back.code || back.email !== currentEmailName) return { to: SECURITY };
    try {
      // Settings load at start-up too; let that load end first, so it cannot land after the one below and undo "bound".
      await reloadSettings();
      await wechatApi.bind(back.code);
      await reloadSettings();
      return { to: SECURITY, state: { wechat: 'bound' } };
    } catch {
      return { to: SECURITY };
    }
  }
  if (!back.code) return { to: token ? TAB_ROUTES.inbox : LOGIN };
  try {
    const result = await wechatApi.login(back.code, back.state);
    // WeChat replaces the password only: second verification still asks for its code.
    if ('verify' in result) return { to: verifyPath(result) };
    await completeLogin(result);
    return { to: TAB_ROUTES.inbox };
  } catch {
    return { to: LOGIN };
  }
}
