import { List } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { APP_VERSION } from '@mailwing/shared';
import { useT } from '../../../i18n';
import { Page } from '../../../ui/page';

export default function SettingAboutPage() {
  const m = useT();
  const navigate = useNavigate();
  return (
    <Page title={m.titleAbout} back="/pages/setting/index">
      <div className="mw-about">
        <img src="./icon.svg" alt="" width={80} height={80} />
        <div className="mw-about-name">{m.appName}</div>
        <div className="mw-about-text">{m.aboutText}</div>
      </div>
      <List>
        <List.Item extra={<span data-testid="app-version">{APP_VERSION}</span>} onClick={() => navigate('/pages/other/version')}>{m.stVersion}</List.Item>
        <List.Item onClick={() => navigate('/pages/other/agreement')}>{m.stAgreement}</List.Item>
      </List>
    </Page>
  );
}
