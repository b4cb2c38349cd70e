import { useRef, useState, type ChangeEvent } from 'react';
import { Dialog, List, ProgressBar, Toast } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { AVATAR_MAX_BYTES, formatFileSize } from '@mailwing/shared';
import { ABORTED, ApiError } from '../../../api/request';
import { uploadAvatar } from '../../../api/settings';
import { useSettingsT } from '../../../i18n/settings';
import { localPart, useSession } from '../../../state/session';
import { putSettings, useSettings } from '../../../state/settings';
import { Avatar } from '../../../ui/avatar';
import { Page } from '../../../ui/page';
import { usePageLayer } from '../../../ui/page-layer';
import { SettingsLoading } from '../../setting/settings-loading';
import '../../setting/settings.css';

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** My mailbox (spec §2 setting-profile): avatar, address, nickname, company, role and storage. */
export default function SettingProfilePage() {
  const m = useSettingsT();
  const navigate = useNavigate();
  const email = useSession((s) => s.currentEmailName);
  const settings = useSettings();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);

  // Part of the page: leaving it (back) takes the dialog along.
  const [layer, openLayer] = usePageLayer();
  const fail = (reason: string) => openLayer((control) => (
    <Dialog {...control} getContainer={() => document.body} title={m.avatarFailed} content={reason || m.requestFailed}
      closeOnAction actions={[{ key: 'ok', text: m.ok, bold: true }]} />
  ));

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    // Checked here first, so a wrong file is not sent at all; the server checks again.
    if (!AVATAR_TYPES.includes(file.type)) return fail(m.avatarType);
    if (file.size > AVATAR_MAX_BYTES) return fail(m.avatarSize);
    setProgress(0);
    try {
      putSettings(await uploadAvatar(file, setProgress));
      Toast.show({ icon: 'success', content: m.avatarSaved });
    } catch (error) {
      if (error instanceof ApiError && error.code !== ABORTED) fail(error.message);
    } finally {
      setProgress(null);
    }
  };

  const name = settings?.nickname || localPart(email);
  const quota = settings && settings.quotaBytes > 0 ? settings : null;
  return (
    <Page title={m.titleProfile} back="/pages/setting/index">
      <div className="mw-profile-head">
        <button type="button" className="mw-profile-avatar" aria-label={m.changeAvatar} disabled={progress !== null} onClick={() => input.current?.click()}>
          <Avatar src={settings?.avatar} name={name} className="is-large" />
          <span className="mw-profile-avatar-edit">{m.changeAvatar}</span>
        </button>
        <input ref={input} type="file" accept={AVATAR_TYPES.join(',')} hidden data-testid="avatar-input" onChange={(e) => void pick(e)} />
        {progress !== null && (
          <div className="mw-profile-progress" role="status">
            <ProgressBar percent={progress} />
            <span>{m.avatarUploading(progress)}</span>
          </div>
        )}
        <div className="mw-profile-name">{name}</div>
        <div className="mw-muted">{email}</div>
      </div>
      <List className="mw-gap">
        <List.Item extra={<span className="mw-profile-value">{email}</span>}>{m.address}</List.Item>
        <List.Item data-row="nickname" extra={settings ? settings.nickname || m.notSet : null} onClick={() => navigate('/pages/modules/setting-nickname/index')}>
          {m.stNickname}
        </List.Item>
        <List.Item extra={settings?.company || (settings ? m.notSet : null)}>{m.company}</List.Item>
        <List.Item extra={settings ? (settings.role === 'admin' ? m.roleAdmin : m.roleUser) : null}>{m.role}</List.Item>
      </List>
      {!settings && <SettingsLoading />}
      {layer}
      {quota && (
        <List header={m.storageTitle}>
          <List.Item description={<ProgressBar percent={Math.min(100, (quota.usedBytes / quota.quotaBytes) * 100)} />}>
            {m.storageOf(formatFileSize(quota.usedBytes), formatFileSize(quota.quotaBytes))}
          </List.Item>
        </List>
      )}
    </Page>
  );
}
