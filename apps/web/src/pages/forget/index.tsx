import { useState } from 'react';
import { Button, Result, Steps } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Code, isEmail, type ResetWays } from '@mailwing/shared';
import type { ApiError } from '../../api/request';
import { securityApi } from '../../api/security';
import { useSecurityT } from '../../i18n/security';
import { passwordMessage, passwordProblems } from '../../state/security-forms';
import { CodeInput, codeProblem } from '../../ui/code-input';
import { Field } from '../../ui/field';
import { Page } from '../../ui/page';
import { SendCodeButton } from '../../ui/send-code-button';
import { WaySwitch } from '../../ui/way-switch';

const LOGIN = '/pages/login/index';
type Step = 'account' | 'none' | 'verify' | 'password' | 'done';
type Way = 'email' | 'question';

/**
 * Forgotten password (spec §2, §5, §8): the address, then the backup e-mail
 * code or the security question, then a new password. No way set up means
 * the postmaster resets it.
 */
export default function ForgetPage() {
  const m = useSecurityT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [step, setStep] = useState<Step>('account');
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [found, setFound] = useState<ResetWays | null>(null);
  const [way, setWay] = useState<Way>('email');
  const [code, setCode] = useState('');
  const [answer, setAnswer] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [ticket, setTicket] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  const address = email.trim().toLowerCase();

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      const err = e as ApiError;
      // Field errors under their fields. A wrong code or answer (verifyReset
      // is quiet) under its field; anything else the request layer toasted.
      if (err.fields && Object.keys(err.fields).length > 0) setErrors({ ...err.fields });
      else if (step === 'verify') setErrors({ [way === 'email' ? 'code' : 'answer']: err.message });
      // The reset ticket expired (toasted): start again from the address.
      if (err.code === Code.NotFound && step === 'password') setStep('account');
    } finally {
      setBusy(false);
    }
  };

  const findWays = () => {
    if (!isEmail(address)) return setErrors({ email: m.emailInvalid });
    setErrors({});
    void run(async () => {
      const ways = await securityApi.resetWays(address);
      setFound(ways);
      if (ways.ways.length === 0) return setStep('none');
      setWay(ways.ways[0]!);
      setStep('verify');
    });
  };

  const verify = (typed = code) => {
    if (way === 'email') {
      const problem = codeProblem(typed, m);
      if (problem) return setErrors({ code: problem });
    } else if (!answer.trim()) {
      return setErrors({ answer: m.answerEmpty });
    }
    setErrors({});
    void run(async () => {
      const result = await securityApi.verifyReset(way === 'email' ? { email: address, way, code: typed.trim() } : { email: address, way, answer });
      setTicket(result.ticket);
      setStep('password');
    }).then(() => setCode(''));
  };

  const reset = () => {
    const problems = passwordProblems({ password, confirm });
    const next = { password: passwordMessage(m, problems.password), confirm: passwordMessage(m, problems.confirm) };
    setErrors(next);
    if (next.password || next.confirm) return;
    void run(async () => {
      await securityApi.resetPassword(ticket, password, confirm);
      setStep('done');
    });
  };

  const toLogin = () => navigate(`${LOGIN}?email=${encodeURIComponent(address)}`, { replace: true });
  const stepIndex = step === 'account' || step === 'none' ? 0 : step === 'verify' ? 1 : 2;

  return (
    <Page title={m.titleForget} back={LOGIN}>
      {step !== 'none' && step !== 'done' && (
        <Steps current={stepIndex} className="mw-steps">
          <Steps.Step title={m.stepAccount} />
          <Steps.Step title={m.stepVerify} />
          <Steps.Step title={m.stepNewPassword} />
        </Steps>
      )}

      {step === 'account' && (
        <form className="mw-sec-form" noValidate onSubmit={(e) => { e.preventDefault(); findWays(); }}>
          <div className="mw-sec-hint mw-sec-lead">{m.forgetIntro}</div>
          <Field
            label={m.email}
            name="email"
            type="email"
            autoComplete="username"
            placeholder={m.emailPlaceholder}
            value={email}
            onChange={(v) => { setEmail(v); setErrors({}); }}
            error={errors.email}
            clearable
          />
          <Button block color="primary" size="large" type="submit" loading={busy} className="mw-sec-submit" data-testid="forget-next">{m.nextStep}</Button>
        </form>
      )}

      {step === 'none' && (
        <Result
          status="warning"
          title={m.contactPostmaster}
          description={m.contactPostmasterHint}
          data-testid="contact-postmaster"
        />
      )}

      {step === 'verify' && found && (
        <form className="mw-sec-form" noValidate onSubmit={(e) => { e.preventDefault(); verify(); }}>
          <div className="mw-sec-hint mw-sec-lead">{m.resetForAddress(address)}</div>
          <WaySwitch
            ways={found.ways.map((w) => ({ way: w, label: w === 'email' ? m.wayEmail : m.wayQuestion }))}
            value={way}
            onChange={(w) => { setWay(w); setErrors({}); }}
            label={m.stepVerify}
          />
          <div className="mw-sec-card">
            {way === 'email' ? (
              <>
                <div className="mw-sec-send">
                  <div className="mw-sec-hint">{sentTo ? m.codeSentTo(sentTo) : found.backupEmail ? m.wayEmailHint(found.backupEmail) : m.wayEmailHintNoAddress}</div>
                  <SendCodeButton countKey={`reset:${address}`} send={() => securityApi.resetCode(address)} onSent={(sent) => setSentTo(sent.to)} />
                </div>
                <CodeInput
                  label={m.codeLabel}
                  value={code}
                  error={errors.code}
                  onChange={(v) => { setCode(v); setErrors({}); }}
                  onFill={(v) => verify(v)}
                />
              </>
            ) : (
              <>
                <div className="mw-sec-question" data-testid="security-question">{found.question}</div>
                <Field label={m.answer} name="answer" autoComplete="off" placeholder={m.answerPlaceholder} maxLength={200} value={answer} onChange={(v) => { setAnswer(v); setErrors({}); }} error={errors.answer} testId="answer-input" />
              </>
            )}
          </div>
          <div className="mw-padded">
            <Button block color="primary" size="large" type="submit" loading={busy} data-testid="forget-verify">{m.nextStep}</Button>
          </div>
        </form>
      )}

      {step === 'password' && (
        <form className="mw-sec-form" noValidate onSubmit={(e) => { e.preventDefault(); reset(); }}>
          <div className="mw-sec-hint mw-sec-lead">{m.resetForAddress(address)}</div>
          {/* A hidden username lets password managers file the new password under the right account. */}
          <input type="email" name="username" autoComplete="username" value={address} readOnly hidden />
          <Field label={m.newPassword} name="new-password" type="password" autoComplete="new-password" placeholder={m.newPasswordPlaceholder} value={password} onChange={(v) => { setPassword(v); setErrors({}); }} error={errors.password} />
          <Field label={m.confirmPassword} name="confirm-password" type="password" autoComplete="new-password" placeholder={m.confirmPasswordPlaceholder} value={confirm} onChange={(v) => { setConfirm(v); setErrors({}); }} error={errors.confirm} />
          <div className="mw-sec-hint mw-sec-note">{m.passwordRule}</div>
          <Button block color="primary" size="large" type="submit" loading={busy} className="mw-sec-submit" data-testid="reset-submit">{m.resetPassword}</Button>
        </form>
      )}

      {step === 'done' && <Result status="success" title={m.resetDone} description={m.resetDoneHint} />}

      {(step === 'none' || step === 'done') && (
        <div className="mw-padded">
          <Button block color="primary" size="large" onClick={toLogin} data-testid="back-to-login">{m.backToLogin}</Button>
        </div>
      )}
    </Page>
  );
}
