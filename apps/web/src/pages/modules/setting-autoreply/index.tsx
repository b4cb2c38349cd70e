import { useEffect, useState } from 'react';
import { Button, Input, List, Stepper, Switch, TextArea, Toast } from 'antd-mobile';
import type { AutoReply } from '@mailwing/shared';
import { rulesApi } from '../../../api/mail-rules';
import { useMailRulesT } from '../../../i18n/mail-rules';
import { Page } from '../../../ui/page';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import '../setting-filter/rules.css';

/** The device's IANA zone: the dates of the setting are days there (the server keeps the zone with them). */
const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Auto-reply (vacation): on/off, an inclusive date range in the user's zone, subject, text, and how often one sender is answered. */
export default function SettingAutoReplyPage() {
  const m = useMailRulesT();
  const [v, setV] = useState<AutoReply | null>(null);

  useEffect(() => {
    void rulesApi.getAutoReply().then((r) => setV({ ...r, timeZone: deviceZone() }));
  }, []);

  const set = (change: Partial<AutoReply>) => setV((x) => (x ? { ...x, ...change } : x));
  const rangeBad = Boolean(v?.start && v.end && v.end < v.start);
  const save = async () => {
    if (!v) return;
    if (v.enabled && !v.body.trim()) return Toast.show({ content: m.autoBodyNeeded });
    if (rangeBad) return Toast.show({ content: m.autoRangeBad });
    setV({ ...(await rulesApi.saveAutoReply(v)) });
    Toast.show({ content: m.saved });
  };

  const date = (key: 'start' | 'end', label: string) => (
    <List.Item title={label} extra={v?.[key] ? <Button size="mini" fill="none" onClick={() => set({ [key]: '' })}>{m.clearDate}</Button> : undefined}>
      <input type="date" className="mw-date" aria-label={label} value={v?.[key] ?? ''} placeholder={m.autoAnyDay} onChange={(e) => set({ [key]: e.target.value })} />
    </List.Item>
  );

  return (
    <Page title={m.titleAutoReply} back={TAB_ROUTES.settings}>
      {v ? (
        <>
          <List>
            <List.Item extra={<Switch checked={v.enabled} aria-label={m.autoOn} data-field="enabled" onChange={(enabled) => set({ enabled })} />}>{m.autoOn}</List.Item>
            {date('start', m.autoStart)}
            {date('end', m.autoEnd)}
          </List>
          <div className="mw-rule-note">{m.autoZone(v.timeZone)}</div>
          <List>
            <List.Item title={m.autoSubject}>
              <Input value={v.subject} maxLength={200} placeholder={m.autoSubjectPlaceholder} aria-label={m.autoSubject} onChange={(subject) => set({ subject })} />
            </List.Item>
            <List.Item title={m.autoBody}>
              <TextArea value={v.body} rows={5} maxLength={5000} placeholder={m.autoBodyPlaceholder} aria-label={m.autoBody} onChange={(body) => set({ body })} />
            </List.Item>
            <List.Item title={m.autoInterval} extra={<Stepper min={1} max={30} value={v.intervalDays} onChange={(n) => set({ intervalDays: n })} />}>
              {m.autoDays(v.intervalDays)}
            </List.Item>
          </List>
          <div className="mw-rule-note">{m.autoNote}</div>
          <div className="mw-padded">
            <Button block color="primary" data-action="save-autoreply" disabled={rangeBad} onClick={() => void save()}>{m.saveRule}</Button>
          </div>
        </>
      ) : null}
    </Page>
  );
}
