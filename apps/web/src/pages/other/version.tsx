import { useEffect, useState } from 'react';
import { Button, List } from 'antd-mobile';
import { CheckCircleFill, ExclamationCircleFill, UpCircleOutline } from 'antd-mobile-icons';
import { APP_VERSION, APP_VERSION_CODE, type Version } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { useSettingsT } from '../../i18n/settings';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';
import { versionStatus } from './version-check';
import '../setting/settings.css';

/**
 * A web app updates by loading its new files: have the service worker fetch
 * the new one (it takes over at once, sw.js skipWaiting + claim) and reload;
 * pages load network-first and assets are content-hashed. Unregistering the
 * worker instead would also drop this device's push subscription.
 */
async function updateApp(): Promise<void> {
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration().catch(() => undefined) : undefined;
  if (registration) {
    await registration.update().catch(() => undefined);
  }
  window.location.reload();
}

/** Version update (spec §2): this build against /uniapp/version. */
export default function VersionPage() {
  const m = useSettingsT();
  const [latest, setLatest] = useState<Version | null>(null);
  const [failed, setFailed] = useState(false);
  const [updating, setUpdating] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setFailed(false);
    api.version().then((v) => live && setLatest(v), () => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [attempt]);

  const status = latest ? versionStatus({ version: APP_VERSION, code: APP_VERSION_CODE }, latest) : null;
  const update = () => {
    setUpdating(true);
    void updateApp();
  };
  return (
    <Page title={m.titleVersion} back="/pages/setting/index">
      <div className="mw-about">
        <img src="./icon.svg" alt="" width={72} height={72} />
        <div className="mw-about-name">{m.appName}</div>
        <div className="mw-muted">{m.currentVersion} <span data-testid="app-version">{APP_VERSION}</span> ({APP_VERSION_CODE})</div>
      </div>
      {failed && <ErrorState onRetry={() => setAttempt((n) => n + 1)} />}
      {latest && status && (
        <>
          <div className={`mw-version-status is-${status}`} role="status" data-status={status}>
            {status === 'current' ? <CheckCircleFill /> : status === 'update' ? <UpCircleOutline /> : <ExclamationCircleFill />}
            <span>{status === 'current' ? m.upToDate : status === 'update' ? m.updateAvailable : m.updateRequired}</span>
          </div>
          <List className="mw-gap">
            <List.Item extra={<span data-testid="latest-version">{latest.version}</span>}>{m.latestVersion}</List.Item>
            {latest.url && (
              <List.Item onClick={() => window.open(latest.url, '_blank', 'noopener')}>{m.releasePage}</List.Item>
            )}
          </List>
          {latest.notes && (
            <List header={m.releaseNotes}>
              <List.Item><div className="mw-version-notes">{latest.notes}</div></List.Item>
            </List>
          )}
          <div className="mw-padded">
            {status === 'current' ? (
              <Button block onClick={() => setAttempt((n) => n + 1)}>{m.checkAgain}</Button>
            ) : (
              <Button block color={status === 'unsupported' ? 'danger' : 'primary'} loading={updating} loadingText={m.updating} onClick={update}>
                {m.updateNow}
              </Button>
            )}
          </div>
        </>
      )}
    </Page>
  );
}
