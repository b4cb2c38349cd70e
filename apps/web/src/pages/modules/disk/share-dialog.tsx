import { useState } from 'react';
import { Button, Input, Popup, Selector, Toast } from 'antd-mobile';
import { SHARE_DAYS, type DiskNode, type Share } from '@mailwing/shared';
import { diskApi } from '../../../api/disk';
import type { ApiError } from '../../../api/request';
import { diskReason, useDiskT } from '../../../i18n/disk';
import { copyText } from '../../../ui/copy-text';

/** Creates a share link for one file: expiry, optional password, then the link to copy. */
export function ShareDialog({ file, onClose, onShared }: { file: DiskNode | null; onClose: () => void; onShared?: (share: Share, url: string) => void }) {
  const m = useDiskT();
  const [days, setDays] = useState<number>(7);
  const [password, setPassword] = useState('');
  const [share, setShare] = useState<Share | null>(null);
  const [busy, setBusy] = useState(false);
  const url = share ? diskApi.sharePageUrl(share.token) : '';

  const close = () => {
    setShare(null);
    setPassword('');
    onClose();
  };
  const create = async () => {
    if (!file) return;
    setBusy(true);
    try {
      const s = await diskApi.share(file.id, days, password || undefined);
      setShare(s);
      onShared?.(s, diskApi.sharePageUrl(s.token));
    } catch (err) {
      Toast.show({ content: diskReason(m, err as ApiError) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popup visible={file !== null} onMaskClick={close} bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '85vh', overflowY: 'auto' }}>
      <div className="mw-disk-sheet" data-dialog="disk-share">
        <h3 className="mw-disk-share-title">{m.diskShare}: {file?.name}</h3>
        {!share ? (
          <>
            <div className="mw-disk-label">{m.shareDays}</div>
            <Selector
              columns={2}
              value={[days]}
              onChange={(v) => { if (v[0] !== undefined) setDays(v[0]); }}
              options={SHARE_DAYS.map((d) => ({ label: m.shareDay(d), value: d }))}
            />
            <div className="mw-disk-label">{m.sharePassword}</div>
            <Input className="mw-disk-input" value={password} onChange={setPassword} maxLength={64} placeholder={m.sharePassword} data-field="share-password" />
            <Button block color="primary" size="large" loading={busy} onClick={() => void create()} data-action="share-create">{m.shareCreate}</Button>
          </>
        ) : (
          <>
            <div className="mw-disk-label">{m.shareLink}</div>
            <div className="mw-disk-link" data-share-link={url}>{url}</div>
            <div className="mw-disk-label">{share.expiresAt ? m.shareExpires(new Date(share.expiresAt * 1000).toLocaleString()) : m.shareNever}</div>
            <Button block color="primary" size="large" onClick={() => void copyText(url).then(() => Toast.show({ content: m.shareCopied }))}>{m.shareCopy}</Button>
          </>
        )}
        <Button block size="large" className="mw-disk-cancel" onClick={close}>{m.diskCancel}</Button>
      </div>
    </Popup>
  );
}
