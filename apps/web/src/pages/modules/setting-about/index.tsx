import { List } from 'antd-mobile';
import { APP_VERSION } from '@mailwing/shared';
import { useT } from '../../../i18n';
import { Page } from '../../../ui/page';

export default function SettingAboutPage() {
  const m = useT();
  return (
    <Page title={m.titleAbout} back="/pages/setting/index">
      <div className="mw-about">
        <img src="./icon.svg" alt="" width={80} height={80} />
        <div className="mw-about-name">{m.appName}</div>
        <div className="mw-about-text">{m.aboutText}</div>
      </div>
      <List>
        <List.Item extra={<span data-testid="app-version">{APP_VERSION}</span>}>{m.version}</List.Item>
      </List>
    </Page>
  );
}
