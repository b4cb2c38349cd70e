import { createElement, type ComponentType } from 'react';
import { List } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { useLanguage } from '../../../i18n';
import { useAdminT } from '../../../i18n/admin';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { AdminPage } from '../admin-page';
import type { AdminSection } from '../section';

// Every sections/*.ts is a console entry (see section.ts): others add theirs without editing this file.
const modules = import.meta.glob<{ default?: AdminSection } & Partial<AdminSection>>('../sections/*.ts', { eager: true });
export const SECTIONS: AdminSection[] = Object.values(modules)
  .map((mod) => (mod.default ?? mod) as AdminSection)
  .filter((s) => typeof s.key === 'string' && typeof s.path === 'string')
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));

/** The console's home (issue 17): its sections, for the company admin only. */
export default function AdminHomePage() {
  const m = useAdminT();
  const language = useLanguage();
  const navigate = useNavigate();
  const catalogue = m as unknown as Record<string, unknown>;
  const titleOf = (s: AdminSection) => {
    const byKey = s.titleKey ? catalogue[s.titleKey] : undefined;
    return s.title?.[language] ?? (typeof byKey === 'string' ? byKey : s.key);
  };
  const iconOf = (s: AdminSection) => (typeof s.icon === 'string' || s.icon === undefined ? s.icon : createElement(s.icon as ComponentType));
  return (
    <AdminPage title={m.adminTitle} back={TAB_ROUTES.settings}>
      <div className="mw-admin-intro">{m.adminIntro}</div>
      <List data-group="admin-sections">
        {SECTIONS.map((s) => (
          <List.Item key={s.key} data-section={s.key} prefix={<span className="mw-admin-icon">{iconOf(s)}</span>} onClick={() => navigate(s.path)}>
            {titleOf(s)}
          </List.Item>
        ))}
      </List>
    </AdminPage>
  );
}
