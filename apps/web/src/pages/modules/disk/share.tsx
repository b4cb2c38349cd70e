import { useEffect, useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { FileOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router-dom';
import { formatFileSize, type ShareInfo } from '@mailwing/shared';
import { diskApi } from '../../../api/disk';
import type { ApiError } from '../../../api/request';
import { diskReason, useDiskT } from '../../../i18n/disk';
import { Page } from '../../../ui/page';
import './disk.css';

/** What a share link opens, with or without a session: the file, its expiry, a password field when needed, and Download. */
export default function DiskSharePage() {
  const m = useDiskT();
  const [params] = useSearchParams();
  const token = params.get('s') ?? '';
  const [info, setInfo] = useState<ShareInfo | null>(null);
  const [error, setError] = useState('');
  const [password, setPassword] = useState('');

  useEffect(() => {
    diskApi.shareInfo(token).then(setInfo, (err: ApiError) => setError(err.reason === 'share.expired' ? diskReason(m, err) : m.shareGone));
  }, [token]);

  return (
    <Page title={m.sharePageTitle}>
      <div className="mw-disk-share-page" data-share-page={info ? 'ready' : error ? 'gone' : 'loading'}>
        {error && <div className="mw-disk-empty" role="alert">{error}</div>}
        {info && (
          <>
            <FileOutline className="mw-disk-icon" style={{ fontSize: 48 }} />
            <h2 data-share-name={info.name}>{info.name}</h2>
            <div className="mw-disk-sub">{formatFileSize(info.size)} · {info.expiresAt ? m.shareExpires(new Date(info.expiresAt * 1000).toLocaleString()) : m.shareNever}</div>
            {/* A form POST: the password travels in the body, and the browser saves the file itself. */}
            <form method="post" action={diskApi.shareDownloadAction()} target="_self">
              <input type="hidden" name="s" value={token} />
              {info.needsPassword && (
                <>
                  <div className="mw-disk-label">{m.sharePasswordNeeded}</div>
                  <Input className="mw-disk-input" type="password" name="password" value={password} onChange={setPassword} maxLength={64} data-field="share-password" />
                </>
              )}
              <Button block color="primary" size="large" type="submit" data-action="share-download">{m.diskDownload}</Button>
            </form>
          </>
        )}
      </div>
    </Page>
  );
}
