import { useEffect, useState } from 'react';
import { Dialog, List, PullToRefresh, SwipeAction, Toast } from 'antd-mobile';
import { AddOutline, TeamOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import type { ContactGroup } from '@mailwing/shared';
import { contactsApi } from '../../api/contacts';
import { ApiError } from '../../api/request';
import { useAddressT, type AddressMessages } from '../../i18n/address';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState } from '../../ui/state-view';
import { ADDRESS_ROUTES } from './hooks';
import { askName } from './name-dialog';
import { pullTexts } from './pull-texts';
import './address.css';

/** Saves a group's name; a refusal is shown and keeps the dialog open. */
export async function saveGroupName(m: AddressMessages, name: string, id?: string): Promise<string> {
  try {
    return (await contactsApi.saveGroup(name, id)).id;
  } catch (error) {
    if (error instanceof ApiError) Toast.show({ content: error.fields.name ?? error.message });
    throw error;
  }
}

/** Contact groups: create, rename, delete; a tap opens the group's members. */
export default function GroupsPage() {
  const m = useAddressT();
  const navigate = useNavigate();
  const [groups, setGroups] = useState<ContactGroup[] | null>(null);
  const [failed, setFailed] = useState(false);

  const refresh = async () => {
    setGroups((await contactsApi.list()).groups);
    setFailed(false);
  };
  const load = () => {
    refresh().catch(() => setFailed(true));
  };
  useEffect(load, []);

  const create = () => void askName(m, m.abNewGroup, '', async (name) => {
    const id = await saveGroupName(m, name);
    navigate(`${ADDRESS_ROUTES.group}?id=${encodeURIComponent(id)}`);
  });
  const rename = (g: ContactGroup) => void askName(m, m.abRename, g.name, async (name) => {
    await saveGroupName(m, name, g.id);
    load();
  });
  const remove = async (g: ContactGroup) => {
    const confirmed = await Dialog.confirm({ content: m.abDeleteGroupConfirm(g.name), confirmText: m.delete, cancelText: m.cancel });
    if (!confirmed) return;
    await contactsApi.deleteGroup(g.id);
    Toast.show({ content: m.abDeleted });
    load();
  };

  const addButton = (
    <button type="button" className="mw-ab-nav-icon" aria-label={m.abNewGroup} data-action="new-group" onClick={create}>
      <AddOutline />
    </button>
  );
  return (
    <Page title={m.titleGroups} back={ADDRESS_ROUTES.tab} right={addButton}>
      {failed && !groups ? <ErrorState onRetry={load} /> : groups && (
        <PullToRefresh onRefresh={refresh} {...pullTexts(m)}>
          {groups.length === 0 ? (
            <EmptyState icon={<TeamOutline />} text={m.abNoGroups} />
          ) : (
            <List className="mw-ab-groups">
              {groups.map((g) => (
                <SwipeAction
                  key={g.id}
                  rightActions={[
                    { key: 'rename', text: m.abRename, color: 'primary', onClick: () => rename(g) },
                    { key: 'delete', text: m.delete, color: 'danger', onClick: () => void remove(g) },
                  ]}
                >
                  <List.Item
                    prefix={<TeamOutline className="mw-ab-dept-icon" />}
                    extra={m.abCount(g.count)}
                    data-group={g.name}
                    onClick={() => navigate(`${ADDRESS_ROUTES.group}?id=${encodeURIComponent(g.id)}`)}
                  >
                    {g.name}
                  </List.Item>
                </SwipeAction>
              ))}
            </List>
          )}
        </PullToRefresh>
      )}
    </Page>
  );
}
