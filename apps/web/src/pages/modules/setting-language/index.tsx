import { List } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { saveLanguage } from '../../../api/settings';
import { setLanguage, useLanguage, useT, type Language } from '../../../i18n';
import { putSettings } from '../../../state/settings';
import { Page } from '../../../ui/page';

/**
 * Language versions: zh or en. The choice applies at once and is saved with
 * the account, so it follows the user to other devices (applied at login).
 */
export default function SettingLanguagePage() {
  const m = useT();
  const language = useLanguage();
  const options: Array<{ value: Language; label: string }> = [
    { value: 'zh', label: m.languageZh },
    { value: 'en', label: m.languageEn },
  ];
  const choose = (value: Language) => {
    if (value === language) return;
    setLanguage(value);
    // A failure is toasted by the request layer; the choice stays on this device.
    saveLanguage(value).then(putSettings, () => undefined);
  };
  return (
    <Page title={m.titleLanguage} back="/pages/setting/index">
      <List>
        {options.map((o) => (
          <List.Item
            key={o.value}
            data-lang={o.value}
            arrowIcon={false}
            extra={o.value === language ? <CheckOutline className="mw-check" /> : null}
            onClick={() => choose(o.value)}
          >
            {o.label}
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
