import { useCallback, useEffect, useState } from 'react';
import { Button, Dialog, List, PullToRefresh, SpinLoading, Tag, Toast } from 'antd-mobile';
import { BellOutline } from 'antd-mobile-icons';
import { formatMailTime, type Device } from '@mailwing/shared';
import { securityApi } from '../../../api/security';
import { timeWords } from '../../../i18n';
import { useSecurityT } from '../../../i18n/security';
import { deviceLabel, deviceName } from '../../../state/user-agent';
import { Page } from '../../../ui/page';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import '../../../ui/security.css';
import { DeviceIcon } from './device-icon';

const MOBILE = new Set(['Android', 'iOS', 'HarmonyOS']);
/** Devices (our route): the sessions of this mailbox, this one first; any other can be signed out. */
export default function SettingDevicesPage() {
  const m = useSecurityT();
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (loading = false) => {
    try {
      const list = await securityApi.devices(loading);
      // This device first, then the most recently active.
      setDevices([...list].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const signOut = async (device: Device, name: string) => {
    const sure = await Dialog.confirm({ content: m.signOutDevice(name), confirmText: m.signOut, cancelText: m.cancel });
    if (!sure) return;
    try {
      await securityApi.logoutDevice(device.id);
    } catch {
      return;
    }
    Toast.show({ icon: 'success', content: m.deviceSignedOut });
    setDevices((list) => list?.filter((d) => d.id !== device.id) ?? null);
  };

  const now = new Date();
  const words = timeWords(m);
  let body;
  if (failed && !devices) body = <ErrorState onRetry={() => void load(true)} />;
  else if (!devices) body = <div className="mw-center"><SpinLoading color="primary" /></div>;
  else if (devices.length === 0) body = <EmptyState icon={<DeviceIcon mobile={false} />} text={m.noDevices} />;
  else {
    body = (
      <List className="mw-devices" data-testid="device-list">
        {devices.map((d) => {
          const name = deviceLabel(d.userAgent, m.deviceOn, m.unknownDevice);
          const os = deviceName(d.userAgent).os;
          return (
            <List.Item
              key={d.id}
              data-device={d.id}
              data-current={d.current ? 'true' : 'false'}
              prefix={<span className="mw-device-icon"><DeviceIcon mobile={MOBILE.has(os)} /></span>}
              description={
                <div className="mw-device-meta">
                  <div>{m.lastActive(formatMailTime(d.lastSeenAt, now, words))} · {d.ip}</div>
                  <div>{m.signedInAt(formatMailTime(d.createdAt, now, words))}</div>
                </div>
              }
              extra={d.current ? null : (
                <Button size="mini" color="danger" fill="outline" data-testid="device-logout" onClick={() => void signOut(d, name)}>{m.signOut}</Button>
              )}
              arrowIcon={false}
            >
              <span className="mw-device-name">{name}</span>
              {d.current && <Tag color="primary" fill="outline" className="mw-device-tag">{m.thisDevice}</Tag>}
              {d.push && <BellOutline className="mw-device-push" aria-label={m.pushOn} role="img" />}
            </List.Item>
          );
        })}
      </List>
    );
  }

  return (
    <Page title={m.titleDevices} back="/pages/setting/index" bodyClassName="mw-devices-body">
      <PullToRefresh onRefresh={() => load()} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
        <div className="mw-hint">{m.devicesHint}</div>
        {body}
      </PullToRefresh>
    </Page>
  );
}
