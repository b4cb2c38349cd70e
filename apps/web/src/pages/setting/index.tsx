import { useEffect, useState } from 'react';
import { Button, Dialog, List, ProgressBar } from 'antd-mobile';
import { GlobalOutline, InformationCircleOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { APP_VERSION, formatFileSize, type Account } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { useLanguage, useT } from '../../i18n';
import { session } from '../../state/session';
import { AccountCard } from '../../ui/account-card';
import { Page } from '../../ui/page';

/** Settings tab: the account, language, about and logout. */
export default function SettingPage() {
  const m = useT();
  const language = useLanguage();
  const navigate = useNavigate();
  const [account, setAccount] = useState<Account | null>(null);

  useEffect(() => {
    api.check().then(setAccount, () => undefined);
  }, []);

  const logout = async () => {
    const confirmed = await Dialog.confirm({ content: m.logoutConfirm, confirmText: m.logout, cancelText: m.cancel });
    if (!confirmed) return;
    // Log out locally even if the server cannot be reached: the user asked to leave.
    await api.logout().catch(() => undefined);
    session.logout();
  };

  const percent = account && account.quotaBytes > 0 ? Math.min(100, (account.usedBytes / account.quotaBytes) * 100) : 0;
  return (
    <Page title={m.tabSettings}>
      <AccountCard label={m.account} name={account?.name}>
        {account && (
          <div className="mw-account-meta">
            {account.company} · {account.role === 'admin' ? m.roleAdmin : m.roleUser}
          </div>
        )}
      </AccountCard>
      {account && account.quotaBytes > 0 && (
        <List header={m.storage}>
          <List.Item description={<ProgressBar percent={percent} />}>
            {m.storageUsed(formatFileSize(account.usedBytes), formatFileSize(account.quotaBytes))}
          </List.Item>
        </List>
      )}
      <List className="mw-gap">
        <List.Item prefix={<GlobalOutline />} extra={language === 'zh' ? m.languageZh : m.languageEn} onClick={() => navigate('/pages/modules/setting-language/index')}>
          {m.language}
        </List.Item>
        <List.Item prefix={<InformationCircleOutline />} extra={APP_VERSION} onClick={() => navigate('/pages/modules/setting-about/index')}>
          {m.about}
        </List.Item>
      </List>
      <div className="mw-padded">
        <Button block color="danger" fill="outline" onClick={() => void logout()}>{m.logout}</Button>
      </div>
    </Page>
  );
}
