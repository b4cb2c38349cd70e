import { useEffect, useState } from 'react';
import { Button, Dialog, Popup, PullToRefresh, SwipeAction, Toast } from 'antd-mobile';
import { TeamOutline, UserAddOutline } from 'antd-mobile-icons';
import { useSearchParams } from 'react-router-dom';
import type { ContactList } from '@mailwing/shared';
import { contactsApi } from '../../api/contacts';
import { useAddressT } from '../../i18n/address';
import { contactsInGroup } from '../../state/address-book';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState } from '../../ui/state-view';
import { saveGroupName } from './groups';
import { ADDRESS_ROUTES, useGoBack } from './hooks';
import { askName } from './name-dialog';
import { pullTexts } from './pull-texts';
import { joinMeta, PersonRow } from './rows';
import './address.css';

/** One contact group (?id=): its members, adding and removing them, renaming and deleting the group. */
export default function GroupPage() {
  const m = useAddressT();
  const goBack = useGoBack(ADDRESS_ROUTES.groups);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [data, setData] = useState<ContactList | null>(null);
  const [failed, setFailed] = useState(false);
  const [adding, setAdding] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);

  const refresh = async () => {
    setData(await contactsApi.list());
    setFailed(false);
  };
  const load = () => {
    refresh().catch(() => setFailed(true));
  };
  useEffect(load, [id]);

  const group = data?.groups.find((g) => g.id === id);
  const members = data ? contactsInGroup(data.list, id) : [];
  const candidates = data ? data.list.filter((c) => !c.groupIds.includes(id)) : [];

  const openAdd = () => {
    if (candidates.length === 0) {
      Toast.show({ content: data?.list.length ? m.abNoneToAdd : m.noContacts });
      return;
    }
    setPicked([]);
    setAdding(true);
  };
  const add = async () => {
    setAdding(false);
    if (picked.length === 0) return;
    await contactsApi.groupMembers(id, { add: picked });
    load();
  };
  const removeMember = async (contactId: string) => {
    await contactsApi.groupMembers(id, { remove: [contactId] });
    load();
  };
  const rename = () => {
    if (group) void askName(m, m.abRename, group.name, async (name) => {
      await saveGroupName(m, name, id);
      load();
    });
  };
  const removeGroup = async () => {
    if (!group) return;
    const confirmed = await Dialog.confirm({ content: m.abDeleteGroupConfirm(group.name), confirmText: m.delete, cancelText: m.cancel });
    if (!confirmed) return;
    await contactsApi.deleteGroup(id);
    Toast.show({ content: m.abDeleted });
    goBack();
  };

  const addButton = group && (
    <button type="button" className="mw-ab-nav-icon" aria-label={m.abAddToGroup} data-action="add-to-group" onClick={openAdd}>
      <UserAddOutline />
    </button>
  );
  const title = group?.name ?? m.titleGroups;
  if ((failed && !data) || (data && !group)) return <Page title={title} back={ADDRESS_ROUTES.groups}><ErrorState onRetry={load} /></Page>;
  return (
    <Page title={title} back={ADDRESS_ROUTES.groups} right={addButton}>
      {data && (
        <PullToRefresh onRefresh={refresh} {...pullTexts(m)}>
          <div className="mw-ab-actions">
            <Button size="small" fill="outline" onClick={rename}>{m.abRename}</Button>
            <Button size="small" color="danger" fill="outline" onClick={() => void removeGroup()}>{m.delete}</Button>
          </div>
          {members.length === 0 ? (
            <EmptyState icon={<TeamOutline />} text={m.abGroupEmpty} />
          ) : (
            <div className="mw-ab-plain mw-ab-group-members">
              {members.map((c) => (
                <SwipeAction key={c.id} rightActions={[{ key: 'remove', text: m.remove, color: 'danger', onClick: () => void removeMember(c.id) }]}>
                  <PersonRow name={c.name} email={c.email} extra={joinMeta(c.company, c.jobTitle)} />
                </SwipeAction>
              ))}
            </div>
          )}
        </PullToRefresh>
      )}
      <Popup visible={adding} onMaskClick={() => setAdding(false)} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
        <div className="mw-ab-popup-head">
          <a onClick={() => setAdding(false)}>{m.cancel}</a>
          <b>{m.abAddToGroup}</b>
          <a data-action="confirm-add" onClick={() => void add()}>{m.ok}</a>
        </div>
        <div className="mw-ab-chosen mw-ab-plain">
          {candidates.map((c) => (
            <PersonRow
              key={c.id}
              name={c.name}
              email={c.email}
              checked={picked.includes(c.id)}
              onClick={() => setPicked((p) => (p.includes(c.id) ? p.filter((x) => x !== c.id) : [...p, c.id]))}
            />
          ))}
        </div>
      </Popup>
    </Page>
  );
}
