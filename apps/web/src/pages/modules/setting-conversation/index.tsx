import { useEffect, useState } from 'react';
import { List, SpinLoading } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { loadSettings } from '../../../api/account';
import { saveAppSetting } from '../../../api/settings';
import { useReadWriteT } from '../../../i18n/read-write';
import { putSettings } from '../../../state/settings';
import { Page } from '../../../ui/page';
import { ErrorState } from '../../../ui/state-view';

/** Conversation view (issue 14): lists show one row per conversation; on unless turned off. */
export default function SettingConversationPage() {
  const m = useReadWriteT();
  const [on, setOn] = useState<boolean | null>(null);
  const [failed, setFailed] = useState(false);

  const load = () => {
    setFailed(false);
    loadSettings().then((s) => setOn(s.conversationView !== false), () => setFailed(true));
  };
  useEffect(load, []);

  const choose = (value: boolean) => {
    if (value === on) return;
    const before = on;
    setOn(value);
    // A failure is toasted by the request layer; the old choice shows again.
    saveAppSetting({ conversationView: value }).then((s) => {
      putSettings(s);
      setOn(s.conversationView !== false);
    }, () => setOn(before));
  };

  return (
    <Page title={m.stConv} back="/pages/setting/index">
      {failed ? <ErrorState onRetry={load} /> : on === null ? <div className="mw-center"><SpinLoading color="primary" /></div> : (
        <List header={m.conversationViewHint}>
          {[true, false].map((value) => (
            <List.Item
              key={String(value)}
              data-conversation-view={value ? 'on' : 'off'}
              arrowIcon={false}
              extra={value === on ? <CheckOutline className="mw-check" /> : null}
              onClick={() => choose(value)}
            >
              {value ? m.conversationOn : m.conversationOff}
            </List.Item>
          ))}
        </List>
      )}
    </Page>
  );
}
