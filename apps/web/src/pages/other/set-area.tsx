import { useState } from 'react';
import { Button, List, Toast } from 'antd-mobile';
import { CheckCircleFill, CheckOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { securityApi } from '../../api/security';
import { useSecurityT } from '../../i18n/security';
import {
  confirmDrawing, createGestureLock, cryptoAvailable, firstDrawing, LOCK_MINUTES, readGestureLock, removeGestureLock, saveGestureLock, type Pattern,
} from '../../state/gesture-pattern';
import { useSession } from '../../state/session';
import { Page } from '../../ui/page';
import { askPassword } from '../../ui/password-prompt';
import { PatternPad } from '../../ui/pattern-pad';
import '../../ui/security.css';
import { GesturePreview } from './gesture-preview';

const SETTINGS = '/pages/setting/index';
type Mode = 'manage' | 'draw' | 'confirm' | 'choose';

/**
 * Set gesture password (spec §2, with its own navigation bar): draw at least
 * 4 points, draw them again, choose when to lock. The lock is kept on this
 * device only, as a salted hash. With a lock set: when to lock, change it, or
 * turn it off with the account password.
 */
export default function SetAreaPage() {
  const m = useSecurityT();
  const navigate = useNavigate();
  const location = useLocation();
  const email = useSession((s) => s.currentEmailName);
  const [lock, setLock] = useState(() => readGestureLock(email));
  const [mode, setMode] = useState<Mode>(lock ? 'manage' : 'draw');
  const [first, setFirst] = useState<Pattern>([]);
  const [minutes, setMinutes] = useState(lock?.minutes ?? 0);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const leave = () => {
    if (location.key === 'default') navigate(SETTINGS, { replace: true });
    else navigate(-1);
  };

  const drawn = (pattern: Pattern) => {
    if (mode === 'draw') {
      const step = firstDrawing(pattern);
      if (!step.ok) return setMessage({ text: m.gestureTooShort, error: true });
      setFirst(step.pattern);
      setMode('confirm');
      setMessage(null);
      return;
    }
    const step = confirmDrawing(first, pattern);
    if (!step.ok) {
      setFirst([]);
      setMode('draw');
      setMessage({ text: m.gestureMismatch, error: true });
      return;
    }
    // Saved at once: "gesture recorded" must mean it is kept, so leaving now
    // (back, a tab, closing the app) cannot drop it. When to lock is chosen
    // next and, like on a set lock, changes at once.
    void saveNow(step.pattern);
  };

  const saveNow = async (pattern: Pattern) => {
    setBusy(true);
    try {
      const next = await createGestureLock(pattern, minutes);
      saveGestureLock(email, next);
      setLock(next);
      setMode('choose');
      setMessage(null);
      Toast.show({ icon: 'success', content: m.gestureSaved });
    } finally {
      setBusy(false);
    }
  };

  const startOver = () => {
    setFirst([]);
    setMode('draw');
    setMessage(null);
  };

  const chooseMinutes = (value: number) => {
    setMinutes(value);
    // The lock is saved already (also a new one, after its second drawing): it changes at once.
    if (lock) {
      const next = { ...lock, minutes: value };
      saveGestureLock(email, next);
      setLock(next);
    }
  };

  const turnOff = async () => {
    const ok = await askPassword({
      title: m.gestureTurnOff,
      hint: m.enterPasswordHint,
      confirmText: m.turnOff,
      danger: true,
      action: (password) => securityApi.verifyPassword(password).then(() => true),
    });
    if (!ok) return;
    removeGestureLock(email);
    setLock(null);
    Toast.show({ content: m.gestureOff });
    leave();
  };

  const minuteList = (
    <List header={m.gestureLockAfter} className="mw-gesture-minutes">
      {LOCK_MINUTES.map((value) => (
        <List.Item
          key={value}
          data-minutes={value}
          arrowIcon={false}
          extra={minutes === value ? <CheckOutline className="mw-check" /> : null}
          onClick={() => chooseMinutes(value)}
        >
          {value === 0 ? m.gestureEveryStart : m.gestureAfterMinutes(value)}
        </List.Item>
      ))}
    </List>
  );

  let body;
  if (!cryptoAvailable()) {
    body = <div className="mw-gesture-message is-error" role="alert">{m.gestureNoCrypto}</div>;
  } else if (mode === 'manage') {
    body = (
      <>
        <div className="mw-gesture-status">
          <CheckCircleFill className="mw-gesture-status-icon" />
          <div className="mw-gesture-title">{m.gestureSaved}</div>
          <div className="mw-gesture-sub">{m.gestureOnHint}</div>
        </div>
        {minuteList}
        <List className="mw-gap">
          <List.Item onClick={startOver} data-testid="gesture-change">{m.gestureChange}</List.Item>
        </List>
        <div className="mw-padded">
          <Button block color="danger" fill="outline" onClick={() => void turnOff()} data-testid="gesture-off">{m.gestureTurnOff}</Button>
        </div>
      </>
    );
  } else if (mode === 'choose') {
    body = (
      <>
        <div className="mw-gesture-status">
          <CheckCircleFill className="mw-gesture-status-icon" />
          <div className="mw-gesture-title" data-testid="gesture-on">{m.gestureSaved}</div>
          <div className="mw-gesture-sub">{m.gestureOnHint}</div>
        </div>
        {minuteList}
        <div className="mw-padded mw-gesture-actions">
          <Button block color="primary" size="large" loading={busy} onClick={leave} data-testid="gesture-save">{m.done}</Button>
          <Button block fill="none" onClick={startOver}>{m.gestureRedraw}</Button>
        </div>
      </>
    );
  } else {
    body = (
      <div className="mw-gesture-draw">
        <GesturePreview pattern={first} />
        <div className="mw-gesture-title">{mode === 'draw' ? m.gestureDraw : m.gestureConfirm}</div>
        <div className={message?.error ? 'mw-gesture-message is-error' : 'mw-gesture-message'} role={message?.error ? 'alert' : 'status'} data-testid="gesture-message">
          {message?.text ?? (mode === 'draw' ? m.gestureDrawHint : '')}
        </div>
        <PatternPad label={m.patternPad} status={message?.error ? 'error' : 'idle'} onStart={() => message?.error && setMessage(null)} onComplete={drawn} />
        <div className="mw-gesture-links">
          {mode === 'confirm' && <a onClick={startOver} data-testid="gesture-redraw">{m.gestureRedraw}</a>}
          {lock && <a onClick={() => setMode('manage')}>{m.cancel}</a>}
        </div>
      </div>
    );
  }

  // Spec §2: this page has its own navigation bar, drawn over the page's colour.
  return (
    <div className="mw-gesture">
      <Page title={m.titleSetArea} back={SETTINGS}>{body}</Page>
    </div>
  );
}
