import { useEffect, useState } from 'react';
import { Dialog, Modal, Toast } from 'antd-mobile';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { securityApi } from '../../api/security';
import { useSecurityT } from '../../i18n/security';
import {
  announceUnlock, failedTries, MAX_TRIES, patternMatches, readGestureLock, recordFailedTry, removeGestureLock, resetTries, type Pattern,
} from '../../state/gesture-pattern';
import { session, useSession } from '../../state/session';
import { askPassword } from '../../ui/password-prompt';
import { PatternPad } from '../../ui/pattern-pad';
import { Avatar } from '../../ui/avatar';
import { Page } from '../../ui/page';
import '../../ui/security.css';
import { TAB_ROUTES } from '../../ui/tab-layout';

/** Where to go after unlocking: a route of ours from ?to=, never an outside address or the lock itself. */
export function unlockTarget(to: string | null): string {
  if (!to || !to.startsWith('/pages/') || to.startsWith('/pages/other/codeArea')) return TAB_ROUTES.inbox;
  return to;
}

/**
 * Password protection (spec §2): the lock screen. Shown at start and after
 * being away while a gesture lock is set; nothing else opens until it is
 * drawn. 5 wrong drawings log out; the password turns the lock off.
 */
export default function CodeAreaPage() {
  const m = useSecurityT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = useSession((s) => s.token);
  const email = useSession((s) => s.currentEmailName);
  const [status, setStatus] = useState<'idle' | 'error' | 'ok'>('idle');
  const [message, setMessage] = useState('');
  const [checking, setChecking] = useState(false);
  const target = unlockTarget(params.get('to'));
  const lock = readGestureLock(email);

  // Dialogs the locked page left open must not sit over the lock screen.
  useEffect(() => {
    Dialog.clear();
    Modal.clear();
  }, []);

  useEffect(() => {
    const tries = failedTries(email);
    if (tries > 0 && tries < MAX_TRIES) setMessage(m.gestureWrong(MAX_TRIES - tries));
  }, [email, m]);

  // No lock (removed in another tab, or storage cleared): nothing to unlock.
  const stale = Boolean(token) && !lock;
  useEffect(() => {
    if (stale) announceUnlock();
  }, [stale]);

  if (!token) return <Navigate to="/pages/login/index" replace />;
  if (!lock) return <Navigate to={target} replace />;

  const unlock = () => {
    resetTries(email);
    announceUnlock();
    navigate(target, { replace: true });
  };

  const drawn = async (pattern: Pattern) => {
    setChecking(true);
    const ok = await patternMatches(lock, pattern).catch(() => false);
    setChecking(false);
    if (ok) {
      setStatus('ok');
      return unlock();
    }
    setStatus('error');
    const left = recordFailedTry(email);
    if (left > 0) return setMessage(m.gestureWrong(left));
    resetTries(email);
    Toast.show({ content: m.gestureTooManyTries, duration: 3000 });
    // Whoever is guessing must not keep a live session on the server either.
    await securityApi.logout().catch(() => undefined);
    session.logout();
  };

  const forgot = async () => {
    const ok = await askPassword({
      title: m.gestureForgot,
      hint: m.gestureForgotHint,
      action: (password) => securityApi.verifyPassword(password).then(() => true),
    });
    if (!ok) return;
    removeGestureLock(email);
    Toast.show({ content: m.gestureOff });
    unlock();
  };

  const otherAccount = async () => {
    // Logout wipes the outbox with the offline store: ask first (offline/logout.ts).
    const outbox = await import('../../offline/logout').then((o) => o.askBeforeLogout()).catch(() => 'none' as const);
    if (outbox === 'cancel') return;
    await securityApi.logout().catch(() => undefined);
    session.logout();
  };

  return (
    <div className="mw-gesture mw-lock-screen">
      <Page title={m.titleCodeArea}>
        <div className="mw-gesture-draw">
          <Avatar className="mw-lock-avatar" name={email || '?'} address={email} />
          <div className="mw-lock-email">{email}</div>
          <div className={status === 'error' ? 'mw-gesture-message is-error' : 'mw-gesture-message'} role={status === 'error' ? 'alert' : 'status'} data-testid="gesture-message">
            {message || m.gestureUnlock}
          </div>
          <PatternPad
            label={m.patternPad}
            status={status}
            disabled={checking}
            onStart={() => setStatus('idle')}
            onComplete={(p) => void drawn(p)}
          />
          <div className="mw-gesture-links">
            <a onClick={() => void forgot()} data-testid="gesture-forgot">{m.gestureForgot}</a>
            <a onClick={() => void otherAccount()}>{m.gestureOtherAccount}</a>
          </div>
        </div>
      </Page>
    </div>
  );
}
