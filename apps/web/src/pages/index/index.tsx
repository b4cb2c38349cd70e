import { useEffect } from 'react';
import { SpinLoading } from 'antd-mobile';
import { useLocation, useNavigate } from 'react-router-dom';
import { api, refreshMbox } from '../../api/endpoints';
import { useT } from '../../i18n';
import { session } from '../../state/session';
import type { WechatDone } from '../../state/wechat';
import { TAB_ROUTES } from '../../ui/tab-layout';

const LOGIN = '/pages/login/index';

export interface EntryParams {
  token: string;
  email?: string;
  domain?: string;
  user?: string;
}

/**
 * Spec §1, password-free entry: a token under ltoken, t or token, with an email
 * or with domain + user. Both the page query and the hash route's query count,
 * because links are written either way (…/?t=… and …/#/?t=…).
 */
export function readEntryParams(search: string, hashSearch: string): EntryParams | null {
  const params = new URLSearchParams(search);
  new URLSearchParams(hashSearch).forEach((value, key) => {
    if (!params.has(key)) params.set(key, value);
  });
  const token = params.get('ltoken') || params.get('t') || params.get('token');
  const email = params.get('email')?.trim();
  const domain = params.get('domain')?.trim();
  const user = params.get('user')?.trim();
  if (!token) return null;
  if (email) return { token, email };
  if (domain && user) return { token, domain, user };
  return null;
}

// React may run the mount effect twice in development; the entry must run once.
let entered = false;

/** The start page (/ and /pages/index/index): routes to the inbox or to login. */
export default function StartPage() {
  const m = useT();
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    if (entered) return;
    entered = true;
    const entry = readEntryParams(window.location.search, location.search);
    if (!entry) {
      const go = (done?: WechatDone | null) => {
        entered = false;
        navigate(done?.to ?? (session.get().token ? TAB_ROUTES.inbox : LOGIN), { replace: true, state: done?.state });
      };
      // Back from WeChat's authorize page (?code&state): state/wechat.ts finishes what this tab started there.
      if (/[?&]state=/.test(window.location.search)) void import('../../state/wechat').then((w) => w.finishWechat()).then(go, () => go());
      else go();
      return;
    }
    // The token must not stay in the address bar, the history or a bookmark.
    window.history.replaceState(null, '', `${window.location.pathname}#/`);
    session.clearAll();
    session.setToken(entry.token);
    session.setCurrentEmailName(entry.email ?? `${entry.user}@${entry.domain}`);
    api.autoLogin(entry)
      .then(async (result) => {
        session.setToken(result.token);
        session.setCurrentEmailName(result.email);
        session.setMailList([{ email: result.email }]);
        await refreshMbox();
        navigate(TAB_ROUTES.inbox, { replace: true });
      })
      .catch(() => {
        // 501 already went to login (spec §8); any other failure leaves an
        // unusable token behind, so drop it the same way.
        session.logout();
      })
      .finally(() => {
        entered = false;
      });
  }, [location.search, navigate]);

  return (
    <div className="mw-start">
      <img src="./icon.svg" alt="" width={72} height={72} />
      <div className="mw-start-name">{m.appName}</div>
      <SpinLoading color="primary" />
      <div className="mw-start-hint">{m.signingIn}</div>
    </div>
  );
}
