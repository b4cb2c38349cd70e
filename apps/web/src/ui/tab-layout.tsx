import type { CSSProperties } from 'react';
import { TabBar } from 'antd-mobile';
import { MailOutline, UnorderedListOutline, UserContactOutline } from 'antd-mobile-icons';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { TAB_COLOR, TAB_SELECTED_COLOR } from '@mailwing/shared';
import { useT } from '../i18n';
import { useSession } from '../state/session';
import { GearIcon } from './icons';

export const TAB_ROUTES = {
  inbox: '/pages/list-tab/index',
  mailbox: '/pages/mbox/mbox-list',
  address: '/pages/address/index',
  settings: '/pages/setting/index',
} as const;

// Spec §2 colours, handed to the stylesheet as custom properties.
const tabColours = { '--mw-tab-color': TAB_COLOR, '--mw-tab-selected': TAB_SELECTED_COLOR } as CSSProperties;

/** The four tabs of spec §2, in order, under the current tab page. */
export function TabLayout() {
  const m = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const badge = useSession((s) => s.tabBadge);
  return (
    <div className="mw-tabs">
      <div className="mw-tabs-content">
        <Outlet />
      </div>
      <TabBar className="mw-tabbar" style={tabColours} activeKey={pathname} onChange={(key) => navigate(key, { replace: true })}>
        <TabBar.Item key={TAB_ROUTES.inbox} title={m.tabInbox} icon={<MailOutline />} badge={badge ?? undefined} />
        <TabBar.Item key={TAB_ROUTES.mailbox} title={m.tabMailbox} icon={<UnorderedListOutline />} />
        <TabBar.Item key={TAB_ROUTES.address} title={m.tabAddress} icon={<UserContactOutline />} />
        <TabBar.Item key={TAB_ROUTES.settings} title={m.tabSettings} icon={<GearIcon />} />
      </TabBar>
    </div>
  );
}
