import { useCallback, useEffect, useState } from 'react';
import { Button, List, SpinLoading, Switch, Toast } from 'antd-mobile';
import { CheckShieldOutline, ExclamationShieldOutline, KeyOutline, LockOutline, MailOutline, QuestionCircleOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate } from 'react-router-dom';
import type { RecoveryCodes, SecurityState, TotpSetup } from '@mailwing/shared';
import { securityApi } from '../../../api/security';
import { useSecurityT } from '../../../i18n/security';
import { readGestureLock } from '../../../state/gesture-pattern';
import { useSession } from '../../../state/session';
import { useSettings } from '../../../state/settings';
import { startWechat, wechatOn, type WechatDone } from '../../../state/wechat';
import { Page } from '../../../ui/page';
import { askPassword } from '../../../ui/password-prompt';
import { ErrorState } from '../../../ui/state-view';
import { DeviceIcon, GestureIcon, WechatIcon } from '../setting-devices/device-icon';
import '../../../ui/security.css';
import { BackupEmailSheet } from './backup-email-sheet';
import { QuestionSheet } from './question-sheet';
import { RecoveryCodesSheet } from './recovery-codes';
import { TotpSetupSheet } from './totp-setup';

/** Security (our route): second verification, recovery codes, backup e-mail, security question, and links. */
export default function SettingSecurityPage() {
  const m = useSecurityT();
  const navigate = useNavigate();
  const email = useSession((s) => s.currentEmailName);
  const [state, setState] = useState<SecurityState | null>(null);
  const [failed, setFailed] = useState(false);
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [sheet, setSheet] = useState<'email' | 'question' | null>(null);
  const settings = useSettings();
  // Binding is offered only while the server has WeChat login on.
  const [wechat, setWechat] = useState(false);
  const location = useLocation();
  const returned = (location.state as WechatDone['state'] | null)?.wechat;

  const load = useCallback(async () => {
    try {
      setState(await securityApi.state());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
    void wechatOn().then(setWechat);
  }, [load]);

  // Back from binding WeChat (the start page sends us here): say so once, not again on a reload.
  useEffect(() => {
    if (returned !== 'bound') return;
    Toast.show({ icon: 'success', content: m.wechatBoundDone });
    navigate(location.pathname, { replace: true, state: null });
  }, [returned, location.pathname, navigate, m]);

  const toggleTotp = async (on: boolean) => {
    if (on) {
      const begun = await askPassword({ title: m.enterPassword, hint: m.enterPasswordHint, confirmText: m.nextStep, action: securityApi.totpBegin });
      if (begun) setSetup(begun);
      return;
    }
    const done = await askPassword({ title: m.turnOffTitle, hint: m.turnOffHint, confirmText: m.turnOff, danger: true, action: (p) => securityApi.totpDisable(p).then(() => true) });
    if (!done) return;
    Toast.show({ content: m.totpOff });
    void load();
  };

  const enabled = (result: RecoveryCodes) => {
    setSetup(null);
    setCodes(result.codes);
    Toast.show({ icon: 'success', content: m.totpOn });
    void load();
  };

  const regenerate = async () => {
    const result = await askPassword({ title: m.regenerate, hint: m.regenerateHint, confirmText: m.regenerate, action: securityApi.recoveryCodes });
    if (!result) return;
    setCodes(result.codes);
    void load();
  };

  const saved = (text: string) => (next: SecurityState) => {
    setState(next);
    setSheet(null);
    Toast.show({ icon: 'success', content: text });
  };

  const removeBackupEmail = async () => {
    const next = await askPassword({ title: m.removeBackupEmail, hint: state?.backupEmail ?? undefined, confirmText: m.remove, danger: true, action: securityApi.removeBackupEmail });
    if (next) saved(m.backupEmailRemoved)(next);
  };

  const removeQuestion = async () => {
    const next = await askPassword({ title: m.removeQuestion, hint: state?.question ?? undefined, confirmText: m.remove, danger: true, action: (p) => securityApi.setQuestion(p, '', '') });
    if (next) saved(m.questionRemoved)(next);
  };

  if (!state) {
    return (
      <Page title={m.titleSecurity} back="/pages/setting/index">
        {failed ? <ErrorState onRetry={() => void load()} /> : <div className="mw-center"><SpinLoading color="primary" /></div>}
      </Page>
    );
  }

  const gesture = readGestureLock(email) !== null;
  return (
    <Page title={m.titleSecurity} back="/pages/setting/index">
      <div className={state.totp ? 'mw-sec-banner is-on' : 'mw-sec-banner'} data-testid="security-banner">
        {state.totp ? <CheckShieldOutline /> : <ExclamationShieldOutline />}
        <div>
          <div className="mw-sec-banner-title">{m.secondVerification}: {state.totp ? m.on : m.off}</div>
          <div className="mw-sec-banner-text">{state.totp ? m.bannerOn : m.bannerOff}</div>
        </div>
      </div>
      <List header={m.secondVerification} className="mw-sec-list">
        <List.Item
          prefix={<CheckShieldOutline />}
          extra={<Switch checked={state.totp} data-testid="totp-switch" aria-label={m.secondVerification} onChange={(on) => void toggleTotp(on)} />}
          description={m.secondVerificationHint}
        >
          {m.secondVerification}
        </List.Item>
        {state.totp && (
          <List.Item prefix={<KeyOutline />} extra={m.recoveryLeft(state.recoveryLeft)} description={m.regenerateHint} onClick={() => void regenerate()} data-testid="recovery-regenerate">
            {m.recoveryCodes}
          </List.Item>
        )}
      </List>
      <List header={m.passwordRecovery} className="mw-sec-list">
        <List.Item
          prefix={<MailOutline />}
          extra={<span className="mw-sec-extra" data-testid="backup-email-value">{state.backupEmail ?? m.notSet}</span>}
          description={m.backupEmailHint}
          onClick={() => setSheet('email')}
          data-testid="backup-email"
        >
          {m.backupEmail}
        </List.Item>
        <List.Item
          prefix={<QuestionCircleOutline />}
          extra={<span className="mw-sec-extra" data-testid="question-value">{state.question ? m.set : m.notSet}</span>}
          description={state.question ?? m.securityQuestionHint}
          onClick={() => setSheet('question')}
          data-testid="security-question"
        >
          {m.securityQuestion}
        </List.Item>
      </List>
      <List header={m.accountSection} className="mw-sec-list">
        <List.Item prefix={<LockOutline />} onClick={() => navigate('/pages/modules/setting-password/index')}>{m.titlePassword}</List.Item>
        <List.Item prefix={<GestureIcon />} extra={gesture ? m.on : m.off} onClick={() => navigate('/pages/other/setArea')}>{m.gestureLock}</List.Item>
        <List.Item prefix={<DeviceIcon mobile />} onClick={() => navigate('/pages/modules/setting-devices/index')}>{m.devices}</List.Item>
        <List.Item
          prefix={<WechatIcon />}
          description={settings && (
            <span data-testid="wechat-status" data-bound={settings.wechatBound || undefined}>
              {settings.wechatBound ? m.wechatBound : m.wechatNotBound}{wechat && !settings.wechatBound ? ` · ${m.wechatBindHint}` : ''}
            </span>
          )}
          extra={wechat && settings && (
            <Button size="mini" fill="outline" color="primary" data-testid="wechat-bind" onClick={() => void startWechat('bind')}>
              {settings.wechatBound ? m.wechatChange : m.wechatBind}
            </Button>
          )}
          data-testid="wechat"
        >
          {m.wechat}
        </List.Item>
      </List>
      <div className="mw-bottom-space" />

      <TotpSetupSheet setup={setup} onClose={() => setSetup(null)} onEnabled={enabled} />
      <RecoveryCodesSheet codes={codes} email={email} onClose={() => setCodes(null)} />
      <BackupEmailSheet visible={sheet === 'email'} current={state.backupEmail} onClose={() => setSheet(null)} onSaved={saved(m.backupEmailSaved)} onRemove={() => void removeBackupEmail()} />
      <QuestionSheet visible={sheet === 'question'} current={state.question} onClose={() => setSheet(null)} onSaved={saved(m.questionSaved)} onRemove={() => void removeQuestion()} />
    </Page>
  );
}
