import { useCallback, useEffect, useState } from 'react';
import { Button, List } from 'antd-mobile';
import type { Announcement } from '@mailwing/shared';
import { announcementApi } from '../../../api/migrate';
import { useMigrateT } from '../../../i18n/migrate';
import { Page } from '../../../ui/page';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import '../../admin/migrate/migrate.css';

/** The company's announcements to this user, newest first; each can be marked read. */
export default function AnnouncementsPage() {
  const m = useMigrateT();
  const [list, setList] = useState<Announcement[]>([]);
  const load = useCallback(async () => setList((await announcementApi.list()).list), []);
  useEffect(() => { void load(); }, [load]);
  const read = async (id: string) => {
    await announcementApi.read(id);
    setList((l) => l.map((a) => (a.id === id ? { ...a, read: true } : a)));
  };
  return (
    <Page title={m.annListTitle} back={TAB_ROUTES.inbox}>
      <div className="mw-migrate">
        <List>
          {list.length === 0 && <List.Item>{m.annNone}</List.Item>}
          {list.map((a) => (
            <List.Item key={a.id} description={new Date(a.createdAt).toLocaleString()}
              extra={a.read ? <span className="mw-migrate-sub">{m.annRead}</span> : <Button size="small" color="primary" fill="outline" onClick={() => void read(a.id)}>{m.annMarkRead}</Button>}>
              <div className={a.read ? 'mw-migrate-addr' : 'mw-migrate-addr mw-ann-unread'}>{a.title}</div>
              <div className="mw-ann-body">{a.body}</div>
            </List.Item>
          ))}
        </List>
      </div>
    </Page>
  );
}
