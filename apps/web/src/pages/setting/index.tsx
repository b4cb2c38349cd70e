import { useEffect } from 'react';
import { Button, Dialog, List } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { APP_VERSION } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { useLanguage, useT } from '../../i18n';
import { gestureLockEnabled } from '../../state/gesture-lock';
import { localPart, session, useSession } from '../../state/session';
import { reloadSettings, useSettings } from '../../state/settings';
import { Avatar } from '../../ui/avatar';
import { Page } from '../../ui/page';

// Plain rows that lead to the pages behind them: this tab is in the first-screen bundle.
const ROUTES = {
  profile: '/pages/modules/setting-profile/index',
  nickname: '/pages/modules/setting-nickname/index',
  password: '/pages/modules/setting-password/index',
  security: '/pages/modules/setting-security/index',
  devices: '/pages/modules/setting-devices/index',
  language: '/pages/modules/setting-language/index',
  notify: '/pages/information/index',
  gesture: '/pages/other/setArea',
  version: '/pages/other/version',
  about: '/pages/modules/setting-about/index',
  agreement: '/pages/other/agreement',
  signature: '/pages/modules/setting-signature/index',
  template: '/pages/modules/setting-template/index',
  adminTemplate: '/pages/admin/template/index',
  filter: '/pages/modules/setting-filter/index',
  autoreply: '/pages/modules/setting-autoreply/index',
  collect: '/pages/modules/setting-pop/index',
  adminConsole: '/pages/admin/index/index',
  undoSend: '/pages/modules/setting-undo-send/index',
  conv: '/pages/modules/setting-conversation/index',
} as const;

/** Settings tab (spec §2): profile, nickname, password, security, language, notifications, gesture lock, version, about. */
export default function SettingPage() {
  const m = useT();
  const language = useLanguage();
  const navigate = useNavigate();
  const email = useSession((s) => s.currentEmailName);
  const settings = useSettings();

  useEffect(() => {
    // Fresh on every visit: the nickname or avatar may have changed on another device.
    void reloadSettings();
  }, []);

  const logout = async () => {
    // Mail waiting in the outbox would go with the offline store: that module (lazy, not in
    // this first-screen tab) sends it first when online, and asks about what still waits.
    const outbox = await import('../../offline/logout').then((o) => o.askBeforeLogout()).catch(() => 'none' as const);
    if (outbox === 'cancel') return;
    if (outbox === 'none' && !(await Dialog.confirm({ content: m.logoutConfirm, confirmText: m.logout, cancelText: m.cancel }))) return;
    // Log out locally even if the server cannot be reached: the user asked to leave.
    await api.logout().catch(() => undefined);
    session.logout();
  };

  const row = (key: keyof typeof ROUTES, label: string, extra?: string) => (
    <List.Item key={key} data-row={key} extra={extra} onClick={() => navigate(ROUTES[key])}>{label}</List.Item>
  );
  const onOff = (on: boolean | undefined) => (on === undefined ? undefined : on ? m.stOn : m.stOff);
  const name = settings?.nickname || localPart(email);
  return (
    <Page title={m.tabSettings}>
      <List className="mw-gap mw-profile-row">
        <List.Item
          data-row="profile"
          prefix={<Avatar src={settings?.avatar} name={name} />}
          description={<span className="mw-account-email">{email}</span>}
          onClick={() => navigate(ROUTES.profile)}
        >
          {name}
        </List.Item>
      </List>
      <List className="mw-gap">
        {row('nickname', m.stNickname, settings?.nickname)}
        {row('password', m.stPassword)}
        {row('security', m.stSecurity, onOff(settings?.secverify))}
        {row('devices', m.stDevices)}
      </List>
      <List className="mw-gap">
        {row('language', m.language, language === 'zh' ? m.languageZh : m.languageEn)}
        {row('notify', m.stNotify)}
        {row('gesture', m.stGesture, onOff(gestureLockEnabled(email)))}
      </List>
      <List className="mw-gap" header={m.stMailRules} data-group="mail-rules">
        {row('signature', m.stSignature)}
        {row('template', m.stTemplate)}
        {settings?.role === 'admin' && row('adminTemplate', m.stAdminTemplate)}
        {row('filter', m.stFilterRules)}
        {row('autoreply', m.stAutoReply)}
        {row('collect', m.stCollect)}
        {row('undoSend', m.stUndoSend)}
        {row('conv', m.stConv)}
      </List>
      {settings?.role === 'admin' && <List className="mw-gap" data-group="admin">{row('adminConsole', m.stAdminConsole)}</List>}
      <List className="mw-gap">
        {row('version', m.stVersion, APP_VERSION)}
        {row('about', m.about)}
        {row('agreement', m.stAgreement)}
      </List>
      <div className="mw-padded">
        <Button block color="danger" fill="outline" onClick={() => void logout()}>{m.logout}</Button>
      </div>
    </Page>
  );
}
