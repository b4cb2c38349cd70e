import { useState } from 'react';
import { Button, Toast } from 'antd-mobile';
import { CheckShieldOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Code, type VerifyWay } from '@mailwing/shared';
import { completeLogin } from '../../api/login';
import type { ApiError } from '../../api/request';
import { securityApi } from '../../api/security';
import { useSecurityT } from '../../i18n/security';
import { challengeWays, normaliseRecoveryCode } from '../../state/security-forms';
import { session } from '../../state/session';
import { CodeInput, codeProblem } from '../../ui/code-input';
import { Field } from '../../ui/field';
import { Page } from '../../ui/page';
import { SendCodeButton } from '../../ui/send-code-button';
import { EmptyState } from '../../ui/state-view';
import { TAB_ROUTES } from '../../ui/tab-layout';
import { WaySwitch } from '../../ui/way-switch';

const LOGIN = '/pages/login/index';
/**
 * Second security verification (spec §2): after a password, a code from the
 * authenticator, the backup address or a recovery code. ?ticket= comes from
 * login/h5, or with &purpose=bind from binding another mailbox, which adds
 * that mailbox and keeps the current session.
 */
export default function VerifyPage() {
  const m = useSecurityT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ticket = params.get('ticket') ?? '';
  const bind = params.get('purpose') === 'bind';
  const backupEmail = params.get('backupEmail') ?? '';
  const ways = challengeWays(params.get('ways'));
  const [way, setWay] = useState<VerifyWay>(ways[0]!);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const [error, setError] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [busy, setBusy] = useState(false);
  /** The server's words when the ticket can no longer be used (expired, or too many wrong codes). */
  const [dead, setDead] = useState('');
  const back = bind ? TAB_ROUTES.mailbox : LOGIN;

  const switchWay = (next: VerifyWay) => {
    setWay(next);
    setCode('');
    setError('');
  };

  const submit = async (typed = code) => {
    if (busy) return;
    let value: string;
    if (way === 'recovery') {
      value = normaliseRecoveryCode(recovery);
      if (!recovery.trim()) return setError(m.codeEmpty);
      if (!value) return setError(m.recoveryInvalid);
    } else {
      const problem = codeProblem(typed, m);
      if (problem) return setError(problem);
      value = typed.trim();
    }
    setError('');
    setBusy(true);
    try {
      const result = await securityApi.secVerify(ticket, way, value);
      if (bind) {
        session.addMailbox({ email: result.email, token: result.token });
        Toast.show({ icon: 'success', content: m.mailboxBound });
        navigate(TAB_ROUTES.mailbox, { replace: true });
      } else {
        await completeLogin(result);
        navigate(TAB_ROUTES.inbox, { replace: true });
      }
    } catch (e) {
      const err = e as ApiError;
      // 404: the ticket expired; 429 without a wait: too many wrong codes spent it.
      if (err.code === Code.NotFound || (err.code === Code.TooMany && !err.retryAfter)) return setDead(err.message);
      setError(err.fields?.code ?? err.fields?.ticket ?? err.message);
      if (way !== 'recovery') setCode('');
    } finally {
      setBusy(false);
    }
  };

  if (!ticket || dead) {
    return (
      <Page title={m.titleVerify} back={back}>
        <EmptyState icon={<CheckShieldOutline />} text={dead || m.verifyNoTicket} />
        <div className="mw-padded">
          <Button block color="primary" onClick={() => navigate(back, { replace: true })}>{bind ? m.backToMailboxes : m.backToLogin}</Button>
        </div>
      </Page>
    );
  }

  const labels: Record<VerifyWay, string> = { totp: m.wayTotp, email: m.wayEmail, recovery: m.wayRecovery };
  return (
    <Page title={m.titleVerify} back={back}>
      <form
        className="mw-sec-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="mw-sec-intro">
          <CheckShieldOutline className="mw-sec-intro-icon" />
          <div>{bind ? m.verifyBindIntro : m.verifyIntro}</div>
        </div>
        <WaySwitch ways={ways.map((w) => ({ way: w, label: labels[w] }))} value={way} onChange={switchWay} label={m.titleVerify} />
        <div className="mw-sec-card">
          {way === 'totp' && <div className="mw-sec-hint">{m.wayTotpHint}</div>}
          {way === 'email' && (
            <div className="mw-sec-send">
              <div className="mw-sec-hint">{sentTo ? m.codeSentTo(sentTo) : backupEmail ? m.wayEmailHint(backupEmail) : m.wayEmailHintNoAddress}</div>
              <SendCodeButton countKey={`sec:${ticket}`} send={() => securityApi.secEmailCode(ticket)} onSent={(sent) => setSentTo(sent.to)} />
            </div>
          )}
          {way === 'recovery' ? (
            <>
              <div className="mw-sec-hint">{m.wayRecoveryHint}</div>
              <Field
                label={m.wayRecovery}
                name="code"
                autoComplete="off"
                maxLength={24}
                placeholder={m.recoveryPlaceholder}
                value={recovery}
                onChange={(v) => {
                  setRecovery(v);
                  setError('');
                }}
                error={error}
                testId="recovery-input"
              />
            </>
          ) : (
            <CodeInput
              label={m.codeLabel}
              value={code}
              error={error}
              onChange={(v) => {
                setCode(v);
                setError('');
              }}
              onFill={(v) => void submit(v)}
            />
          )}
        </div>
        <div className="mw-padded">
          <Button block color="primary" size="large" type="submit" loading={busy} data-testid="verify-submit">{m.verify}</Button>
        </div>
      </form>
    </Page>
  );
}
