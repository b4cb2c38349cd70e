import { List } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { setLanguage, useLanguage, useT, type Language } from '../../../i18n';
import { Page } from '../../../ui/page';

/** Language versions: zh or en; the choice applies at once and is remembered. */
export default function SettingLanguagePage() {
  const m = useT();
  const language = useLanguage();
  const options: Array<{ value: Language; label: string }> = [
    { value: 'zh', label: m.languageZh },
    { value: 'en', label: m.languageEn },
  ];
  return (
    <Page title={m.titleLanguage} back="/pages/setting/index">
      <List>
        {options.map((o) => (
          <List.Item
            key={o.value}
            data-lang={o.value}
            arrowIcon={false}
            extra={o.value === language ? <CheckOutline className="mw-check" /> : null}
            onClick={() => setLanguage(o.value)}
          >
            {o.label}
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
