import { useCallback, useEffect, useState } from 'react';
import { Button, Dialog, Input, List, Selector, TextArea, Toast } from 'antd-mobile';
import type { AdminAnnouncement } from '@mailwing/shared';
import { announcementApi } from '../../../api/migrate';
import type { ApiError } from '../../../api/request';
import { migrateReason, useMigrateT } from '../../../i18n/migrate';
import { AdminPage } from '../admin-page';
import '../migrate/migrate.css';


/** Announcements: publish to everyone or to departments, and see how many have read each. */
export default function AdminAnnouncementsPage() {
  const m = useMigrateT();
  const [list, setList] = useState<AdminAnnouncement[]>([]);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [audience, setAudience] = useState<'all' | 'departments'>('all');
  const [departments, setDepartments] = useState('');
  const [error, setError] = useState('');

  const load = useCallback(async () => setList((await announcementApi.adminList()).list), []);
  useEffect(() => { void load(); }, [load]);

  const publish = async () => {
    setError('');
    const ids = audience === 'all' ? [] : departments.split(/[,，\s]+/).filter(Boolean);
    try {
      await announcementApi.publish(title.trim(), body.trim(), ids);
      Toast.show(m.annPublished);
      setTitle('');
      setBody('');
      await load();
    } catch (err) {
      const e = err as ApiError;
      setError(migrateReason(m, e.reason, e.message));
    }
  };
  const remove = async (id: string) => {
    if (!(await Dialog.confirm({ content: m.annDeleteConfirm }))) return;
    await announcementApi.remove(id);
    await load();
  };

  return (
    <AdminPage title={m.annAdminTitle}>
      <div className="mw-migrate">
        <List header={m.annNew}>
          <List.Item title={m.annTitle}><Input value={title} onChange={setTitle} maxLength={200} /></List.Item>
          <List.Item title={m.annBody}><TextArea value={body} onChange={setBody} rows={4} maxLength={20_000} /></List.Item>
          <List.Item title={m.annAudience}>
            <Selector columns={2} value={[audience]} onChange={(v) => v[0] && setAudience(v[0])}
              options={[{ label: m.annEveryone, value: 'all' as const }, { label: m.annDepartments, value: 'departments' as const }]} />
            {audience === 'departments' && <Input value={departments} onChange={setDepartments} placeholder={m.annDepartmentIds} aria-label={m.annDepartmentIds} />}
          </List.Item>
          <List.Item>
            <Button block color="primary" disabled={!title.trim() || !body.trim()} onClick={() => void publish()}>{m.annPublish}</Button>
            {error && <div className="mw-migrate-error" role="alert">{error}</div>}
          </List.Item>
        </List>
        <List header={m.annAdminTitle}>
          {list.length === 0 && <List.Item>{m.annNone}</List.Item>}
          {list.map((a) => (
            <List.Item key={a.id} description={`${new Date(a.createdAt).toLocaleString()} · ${a.departments.length ? a.departments.join(', ') : m.annEveryone}`}
              extra={<Button size="small" color="danger" fill="none" onClick={() => void remove(a.id)}>{m.annDelete}</Button>}>
              <div className="mw-migrate-addr">{a.title}</div>
              <div className="mw-migrate-sub">{m.annReads(a.reads, a.audience)}</div>
            </List.Item>
          ))}
        </List>
      </div>
    </AdminPage>
  );
}
