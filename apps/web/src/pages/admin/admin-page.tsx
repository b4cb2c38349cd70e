import { useEffect, type ReactNode } from 'react';
import { useAdminT } from '../../i18n/admin';
import { reloadSettings, useSettings } from '../../state/settings';
import { Page } from '../../ui/page';
import { EmptyState } from '../../ui/state-view';
import './admin.css';

export const ADMIN_HOME = '/pages/admin/index/index';

/**
 * A console page: shown only to the company admin (the server refuses everyone else
 * anyway, with 403 admin.required), narrow on a phone and a centred column on a desktop.
 */
export function AdminPage({ title, back = ADMIN_HOME, children }: { title: string; back?: string; children: ReactNode }) {
  const m = useAdminT();
  const settings = useSettings();
  useEffect(() => {
    void reloadSettings();
  }, []);
  const admin = settings?.role === 'admin';
  return (
    <Page title={title} back={back}>
      <div className="mw-admin">{settings && !admin ? <EmptyState text={m.adminOnly} /> : admin ? children : null}</div>
    </Page>
  );
}
