import { useEffect, useState } from 'react';
import { Button, Dialog, Input, List, Toast } from 'antd-mobile';
import type { Alias } from '@mailwing/shared';
import { groupsApi } from '../../../api/groups';
import { groupsReason, useGroupsT } from '../../../i18n/groups';
import { AdminPage } from '../admin-page';
import { PeoplePicker, type Picked } from '../groups/pickers';
import '../groups/groups.css';

/** Aliases (issue 17, scope 3): another address of one person, delivered to their Inbox. */
export default function AdminAliasesPage() {
  const m = useGroupsT();
  const [list, setList] = useState<Alias[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [address, setAddress] = useState('');
  const [person, setPerson] = useState<Picked[]>([]);
  const fail = (err: unknown) => Toast.show({ content: groupsReason(m, err) });
  const load = () => groupsApi.aliases().then((r) => setList(r.list), fail);
  useEffect(() => { void load(); }, []);

  const save = async () => {
    try {
      await groupsApi.createAlias(address.trim(), person[0]?.id ?? '');
      setAdding(false);
      setAddress('');
      setPerson([]);
      Toast.show({ content: m.saved });
      await load();
    } catch (err) { fail(err); }
  };
  const remove = async (a: Alias) => {
    if (!(await Dialog.confirm({ content: m.aliasDeleteConfirm(a.address), confirmText: m.remove, cancelText: m.cancel }))) return;
    await groupsApi.deleteAlias(a.id).then(load, fail);
  };

  return (
    <AdminPage title={m.aliasesTitle}>
      <div className="mw-groups" data-page="admin-aliases">
        <div className="mw-groups-hint">{m.aliasesHint}</div>
        {list && list.length === 0 && !adding && <div className="mw-groups-empty">{m.aliasesEmpty}</div>}
        {list && list.length > 0 && (
          <List>
            {list.map((a) => (
              <List.Item key={a.id} data-alias={a.address} description={`${m.aliasFor} ${a.userEmail}`}
                extra={<Button size="small" fill="none" color="danger" className="mw-groups-touch" onClick={() => void remove(a)}>{m.remove}</Button>}>
                {a.address}
              </List.Item>
            ))}
          </List>
        )}
        {/* Once the list is in: a button that moves as it arrives takes a tap meant for it on a row. */}
        {list && !adding && <Button block color="primary" className="mw-groups-touch" onClick={() => setAdding(true)} data-action="add-alias">{m.aliasAdd}</Button>}
        {adding && (
          <div className="mw-groups-card">
            <div className="mw-groups-label">{m.aliasAddress}</div>
            <Input placeholder="sales@example.com" value={address} onChange={setAddress} data-field="alias-address" />
            <div className="mw-groups-label">{m.aliasFor}</div>
            <PeoplePicker single value={person} onChange={setPerson} field="alias-person" />
            <div className="mw-groups-actions">
              <Button onClick={() => setAdding(false)}>{m.cancel}</Button>
              <Button color="primary" disabled={!address.trim() || person.length === 0} onClick={() => void save()} data-action="save-alias">{m.save}</Button>
            </div>
          </div>
        )}
      </div>
    </AdminPage>
  );
}
