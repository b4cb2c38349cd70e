import { useEffect, useRef, useState } from 'react';
import { Checkbox, List, Picker, Switch, Toast } from 'antd-mobile';
import { saveAppSetting } from '../../api/settings';
import { useSettingsT, type SettingsMessages } from '../../i18n/settings';
import { useSession } from '../../state/session';
import { putSettings, useSettings } from '../../state/settings';
import { folderName } from '../../ui/folder-name';
import { Page } from '../../ui/page';
import { SettingsLoading } from '../setting/settings-loading';
import {
  appSettingForm, deviceTimeZone, formOf, HOURS, MINUTES, notifyFolderChoices, timeColumns, timeOf, wrapsMidnight, type NotifyForm,
} from './notify-form';
import { pushState, turnPushOff, turnPushOn, type PushState } from './push';
import '../setting/settings.css';

function pushText(m: SettingsMessages, state: PushState | null): string {
  switch (state) {
    case 'on': return m.pushEnabled;
    case 'off': return m.pushOnHint;
    case 'denied': return m.pushDenied;
    case 'insecure': return m.pushInsecure;
    case 'no-worker': return m.pushNoWorker;
    case 'unsupported': return m.pushUnsupported;
    default: return m.loading;
  }
}

/** Message notification settings (spec §2): new mail, this device's push, quiet hours, and which folders notify. */
export default function InformationPage() {
  const m = useSettingsT();
  const settings = useSettings();
  const mbox = useSession((s) => s.mbox);
  const [form, setForm] = useState<NotifyForm | null>(null);
  const [push, setPush] = useState<PushState | null>(null);
  const [pushBusy, setPushBusy] = useState(false);
  const timeZone = deviceTimeZone();
  // Saves go one after another, so the server ends with the last change.
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const saved = useRef(settings);
  saved.current = settings;

  // The form starts from the server's settings, once they are loaded.
  useEffect(() => {
    if (settings && !form) setForm(formOf(settings.notify));
  }, [settings, form]);

  useEffect(() => {
    let live = true;
    pushState().then((state) => live && setPush(state), () => live && setPush('unsupported'));
    return () => {
      live = false;
    };
  }, []);

  /** Applies a change at once and saves it; a failed save puts back what the server has. */
  const change = (patch: Partial<NotifyForm>) => {
    if (!form) return;
    setForm({ ...form, ...patch });
    chain.current = chain.current.then(() => saveAppSetting(appSettingForm(patch, timeZone)).then(putSettings, () => {
      if (saved.current) setForm(formOf(saved.current.notify));
    }));
  };

  const togglePush = async (on: boolean) => {
    setPushBusy(true);
    try {
      if (on) Toast.show({ content: m.pushAsk });
      const state = on ? await turnPushOn() : await turnPushOff();
      setPush(state);
      if (on && state === 'off') Toast.show({ content: m.pushFailed });
    } catch (error) {
      console.warn('push', error);
      Toast.show({ content: m.pushFailed });
      setPush(await pushState().catch(() => 'unsupported' as const));
    } finally {
      setPushBusy(false);
    }
  };

  const pickTime = async (which: 'quietStart' | 'quietEnd') => {
    if (!form) return;
    const value = await Picker.prompt({
      columns: [HOURS.map((h) => ({ label: h, value: h })), MINUTES.map((x) => ({ label: x, value: x }))],
      defaultValue: timeColumns(form[which]),
      title: which === 'quietStart' ? m.quietStart : m.quietEnd,
      confirmText: m.ok,
      cancelText: m.cancel,
    });
    if (value) change({ [which]: timeOf(value) });
  };

  const toggleFolder = (mid: string, on: boolean) => {
    if (!form) return;
    change({ folders: on ? [...form.folders, mid] : form.folders.filter((f) => f !== mid) });
  };

  const pushAvailable = push === 'on' || push === 'off';
  return (
    <Page title={m.titleNotify} back="/pages/setting/index">
      {!form && <SettingsLoading />}
      {form && (
        <>
          <List className="mw-gap">
            <List.Item
              description={m.newMailNotifyHint}
              extra={<Switch aria-label={m.newMailNotify} data-testid="notify-new-mail" checked={form.newMail} onChange={(v) => change({ newMail: v })} />}
            >
              {m.newMailNotify}
            </List.Item>
          </List>
          <List header={m.thisDevice}>
            <List.Item
              description={<span className={pushAvailable ? undefined : 'mw-settings-warn'} role="status">{pushText(m, push)}</span>}
              extra={(
                <Switch
                  aria-label={m.pushOn}
                  data-testid="notify-push"
                  checked={push === 'on'}
                  loading={pushBusy}
                  disabled={!pushAvailable}
                  onChange={(v) => void togglePush(v)}
                />
              )}
            >
              {m.pushOn}
            </List.Item>
          </List>
          <List className="mw-gap">
            <List.Item
              description={m.quietHoursHint}
              extra={<Switch aria-label={m.quietHours} data-testid="notify-quiet" checked={form.quietEnabled} onChange={(v) => change({ quietEnabled: v })} />}
            >
              {m.quietHours}
            </List.Item>
            {form.quietEnabled && (
              <>
                <List.Item data-row="quiet-start" extra={form.quietStart} onClick={() => void pickTime('quietStart')}>{m.quietStart}</List.Item>
                <List.Item
                  data-row="quiet-end"
                  extra={wrapsMidnight(form.quietStart, form.quietEnd) ? m.nextDay(form.quietEnd) : form.quietEnd}
                  onClick={() => void pickTime('quietEnd')}
                >
                  {m.quietEnd}
                </List.Item>
              </>
            )}
          </List>
          {form.quietEnabled && <div className="mw-hint">{m.timeZone(timeZone)}</div>}
          <List header={m.notifyFolders}>
            {notifyFolderChoices(mbox).map(({ folder, depth }) => (
              <List.Item
                key={folder.mid}
                data-mid={folder.mid}
                arrowIcon={false}
                onClick={() => toggleFolder(folder.mid, !form.folders.includes(folder.mid))}
                prefix={(
                  <Checkbox
                    aria-label={folderName(m, folder)}
                    checked={form.folders.includes(folder.mid)}
                    style={{ marginLeft: depth * 16 }}
                    // The row's click toggles; the box itself must not toggle twice.
                    onClick={(e) => e.stopPropagation()}
                    onChange={(v) => toggleFolder(folder.mid, v)}
                  />
                )}
              >
                {folderName(m, folder)}
              </List.Item>
            ))}
          </List>
          <div className="mw-hint">{form.folders.length === 0 ? m.noNotifyFolder : m.notifyFoldersHint}</div>
        </>
      )}
    </Page>
  );
}
