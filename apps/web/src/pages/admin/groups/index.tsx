import { useEffect, useState } from 'react';
import { Button, Dialog, Input, List, Radio, Toast } from 'antd-mobile';
import { SEND_POLICIES, type MailGroup, type SendPolicy } from '@mailwing/shared';
import { groupsApi } from '../../../api/groups';
import { groupsReason, useGroupsT } from '../../../i18n/groups';
import { AdminPage } from '../admin-page';
import { labelPeople } from './people-labels';
import { AddressList, DepartmentPicker, PeoplePicker, type Picked } from './pickers';
import './groups.css';

interface Draft { id: string; address: string; name: string; sendPolicy: SendPolicy; users: Picked[]; departments: string[]; outside: string[]; senders: string[] }

/**
 * Mail groups (issue 17, scope 3): one address for people, departments and outside
 * addresses, with "who may send". A new group is created first, then its members are
 * edited on the same card, so the admin never leaves the page.
 */
export default function AdminGroupsPage() {
  const m = useGroupsT();
  const [list, setList] = useState<MailGroup[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<Draft | null>(null);
  const fail = (err: unknown) => Toast.show({ content: groupsReason(m, err) });
  const load = () => groupsApi.groups().then((r) => setList(r.list), fail);
  useEffect(() => { void load(); }, []);

  const edit = async (g: MailGroup) => {
    try {
      setDraft({ id: g.id, address: g.address, name: g.name, sendPolicy: g.sendPolicy, users: await labelPeople(g.users), departments: g.departments, outside: g.outside, senders: g.senders });
    } catch (err) { fail(err); }
  };
  const create = async () => {
    try {
      const g = await groupsApi.createGroup(address.trim(), name.trim(), 'anyone');
      setCreating(false);
      setAddress('');
      setName('');
      await load();
      await edit(g);
    } catch (err) { fail(err); }
  };
  const save = async () => {
    if (!draft) return;
    try {
      await groupsApi.updateGroup({
        id: draft.id, name: draft.name.trim(), sendPolicy: draft.sendPolicy, users: draft.users.map((u) => u.id),
        departments: draft.departments, outside: draft.outside, senders: draft.senders,
      });
      setDraft(null);
      Toast.show({ content: m.saved });
      await load();
    } catch (err) { fail(err); }
  };
  const remove = async (g: MailGroup) => {
    if (!(await Dialog.confirm({ content: m.groupDeleteConfirm(g.address), confirmText: m.remove, cancelText: m.cancel }))) return;
    await groupsApi.deleteGroup(g.id).then(() => { setDraft(null); return load(); }, fail);
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  return (
    <AdminPage title={m.groupsTitle}>
      <div className="mw-groups" data-page="admin-groups">
        {draft ? (
          <div className="mw-groups-card" data-editing={draft.address}>
            <div className="mw-groups-label">{draft.address}</div>
            <div className="mw-groups-label">{m.groupName}</div>
            <Input value={draft.name} onChange={(v) => set({ name: v })} maxLength={100} data-field="group-name" />
            <div className="mw-groups-label">{m.groupPeople}</div>
            <PeoplePicker value={draft.users} onChange={(users) => set({ users })} field="group-person" />
            <div className="mw-groups-label">{m.groupDepartments}</div>
            <DepartmentPicker value={draft.departments} onChange={(departments) => set({ departments })} />
            <div className="mw-groups-label">{m.groupOutside}</div>
            <div className="mw-groups-hint">{m.groupOutsideHint}</div>
            <AddressList value={draft.outside} onChange={(outside) => set({ outside })} field="group-outside" />
            <div className="mw-groups-label">{m.groupSendPolicy}</div>
            <Radio.Group value={draft.sendPolicy} onChange={(v) => set({ sendPolicy: v as SendPolicy })}>
              {SEND_POLICIES.map((p) => <Radio key={p} value={p} className="mw-groups-radio" data-policy={p}>{m.groupPolicies[p]}</Radio>)}
            </Radio.Group>
            {draft.sendPolicy === 'listed' && (
              <>
                <div className="mw-groups-label">{m.groupSenders}</div>
                <AddressList value={draft.senders} onChange={(senders) => set({ senders })} field="group-sender" />
              </>
            )}
            <div className="mw-groups-actions">
              <Button onClick={() => setDraft(null)}>{m.cancel}</Button>
              <Button color="primary" onClick={() => void save()} data-action="save-group">{m.save}</Button>
            </div>
          </div>
        ) : (
          <>
            <div className="mw-groups-hint">{m.groupsHint}</div>
            {list && list.length === 0 && !creating && <div className="mw-groups-empty">{m.groupsEmpty}</div>}
            {list && list.length > 0 && (
              <List>
                {list.map((g) => (
                  <List.Item key={g.id} data-group={g.address} onClick={() => void edit(g)}
                    description={<>{g.address}<br />{m.groupCount(g.users.length, g.departments.length, g.outside.length)} · {m.groupPolicies[g.sendPolicy]}</>}
                    extra={<Button size="small" fill="none" color="danger" className="mw-groups-touch" onClick={(e) => { e.stopPropagation(); void remove(g); }}>{m.remove}</Button>}>
                    {g.name}
                  </List.Item>
                ))}
              </List>
            )}
            {/* Once the list is in: a button that moves as it arrives takes a tap meant for it on a row. */}
            {list && !creating && <Button block color="primary" className="mw-groups-touch" onClick={() => setCreating(true)} data-action="add-group">{m.groupAdd}</Button>}
            {creating && (
              <div className="mw-groups-card">
                <div className="mw-groups-label">{m.groupAddress}</div>
                <Input placeholder="team@example.com" value={address} onChange={setAddress} data-field="group-address" />
                <div className="mw-groups-label">{m.groupName}</div>
                <Input value={name} onChange={setName} maxLength={100} data-field="group-new-name" />
                <div className="mw-groups-actions">
                  <Button onClick={() => setCreating(false)}>{m.cancel}</Button>
                  <Button color="primary" disabled={!address.trim() || !name.trim()} onClick={() => void create()} data-action="create-group">{m.save}</Button>
                </div>
              </div>
            )}
          </>
        )}
      </div>
    </AdminPage>
  );
}
