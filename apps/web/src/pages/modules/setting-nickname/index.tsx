import { useState, type FormEvent } from 'react';
import { Button, Input, List, Toast } from 'antd-mobile';
import { saveNickname } from '../../../api/settings';
import { useSettingsT } from '../../../i18n/settings';
import { putSettings, useSettings } from '../../../state/settings';
import { useGoBack } from '../../../ui/go-back';
import { Page } from '../../../ui/page';
import '../../setting/settings.css';

export const NICKNAME_MAX = 40;
const PROFILE = '/pages/modules/setting-profile/index';

/** The nickname's own check, as the server's NicknameInput: required after trimming, at most 40 characters. */
export function nicknameError(value: string): 'required' | 'tooLong' | null {
  const v = value.trim();
  if (!v) return 'required';
  // Counted as the server counts (UTF-16 units, as the input's maxLength does).
  if (v.length > NICKNAME_MAX) return 'tooLong';
  return null;
}

/** Nickname (spec §2 setting-nickname): the sender name of this mailbox. */
export default function SettingNicknamePage() {
  const m = useSettingsT();
  const goBack = useGoBack(PROFILE);
  const settings = useSettings();
  // Filled in once the settings are there, unless the user has typed already.
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const value = typed ?? settings?.nickname ?? '';

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    const problem = nicknameError(value);
    setError(problem === 'required' ? m.nicknameRequired : problem === 'tooLong' ? m.nicknameTooLong : '');
    if (problem) return;
    setBusy(true);
    try {
      putSettings(await saveNickname(value.trim()));
      Toast.show({ icon: 'success', content: m.saved });
      goBack();
    } catch {
      // The request layer has said why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={m.titleNickname} back={PROFILE}>
      <form onSubmit={(e) => void save(e)} noValidate>
        <List className="mw-gap">
          <List.Item>
            <Input
              name="nickname"
              aria-label={m.titleNickname}
              placeholder={m.nicknamePlaceholder}
              value={value}
              onChange={(v) => {
                setTyped(v);
                if (error) setError('');
              }}
              maxLength={NICKNAME_MAX}
              clearable
              autoFocus
            />
          </List.Item>
        </List>
        {error ? <div className="mw-field-error mw-settings-error" role="alert">{error}</div> : <div className="mw-hint">{m.nicknameHint}</div>}
        <div className="mw-padded">
          <Button block color="primary" type="submit" loading={busy}>{m.save}</Button>
        </div>
      </form>
    </Page>
  );
}
