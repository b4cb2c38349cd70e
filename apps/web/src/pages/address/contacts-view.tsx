import { useEffect, useState } from 'react';
import { Dialog, IndexBar, PullToRefresh, SearchBar, SwipeAction, Toast } from 'antd-mobile';
import { AddOutline, DownlandOutline, StarFill, StopOutline, TeamOutline, UserContactOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import type { Contact, ContactList } from '@mailwing/shared';
import { contactsApi } from '../../api/contacts';
import { useAddressT } from '../../i18n/address';
import { groupByInitial, IMPORTANT_INDEX } from '../../state/address-book';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState } from '../../ui/state-view';
import { ADDRESS_ROUTES, useDebounced } from './hooks';
import { joinMeta, PersonRow } from './rows';
import { AddressSegment } from './segment';
import './address.css';
import { pullTexts } from './pull-texts';

/** The address book's own contacts: search, an index bar by initial with important contacts pinned, swipe actions. */
export default function ContactsView() {
  const m = useAddressT();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const [data, setData] = useState<ContactList | null>(null);
  const [failed, setFailed] = useState(false);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    contactsApi.list(q).then((result) => {
      if (!current) return;
      setData(result);
      setFailed(false);
    }, () => {
      if (current) setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [q, reloads]);

  const refresh = async () => {
    setData(await contactsApi.list(q));
    setFailed(false);
  };
  const reload = () => setReloads((n) => n + 1);

  const toggleImportant = async (c: Contact) => {
    await contactsApi.setImportant(c.id, !c.important);
    reload();
  };
  const remove = async (c: Contact) => {
    const confirmed = await Dialog.confirm({ content: m.abDeleteConfirm(c.name), confirmText: m.delete, cancelText: m.cancel });
    if (!confirmed) return;
    await contactsApi.remove([c.id]);
    Toast.show({ content: m.abDeleted });
    reload();
  };
  const card = (c: Contact) => navigate(`${ADDRESS_ROUTES.contact}?id=${encodeURIComponent(c.id)}`);
  const edit = (c: Contact) => navigate(`${ADDRESS_ROUTES.contact}?id=${encodeURIComponent(c.id)}&edit=1`);

  const groups = data ? groupByInitial(data.list) : [];
  const addButton = (
    <button type="button" className="mw-ab-nav-icon" aria-label={m.abAdd} data-action="add-contact" onClick={() => navigate(ADDRESS_ROUTES.contact)}>
      <AddOutline />
    </button>
  );

  let body;
  if (failed && !data) body = <ErrorState onRetry={reload} />;
  else if (!data) body = null;
  else if (groups.length === 0) body = q ? <EmptyState text={m.abNoMatch} /> : <EmptyState icon={<UserContactOutline />} text={m.noContacts} hint={m.noContactsHint} />;
  else {
    body = (
      <IndexBar className="mw-ab-index">
        {groups.map((group) => (
          <IndexBar.Panel
            key={group.index}
            index={group.index}
            title={group.index === IMPORTANT_INDEX ? `${IMPORTANT_INDEX} ${m.abImportant}` : group.index}
          >
            {group.contacts.map((c) => (
              <SwipeAction
                key={c.id}
                rightActions={[
                  { key: 'star', text: c.important ? m.abUnmark : m.abMark, color: 'warning', onClick: () => void toggleImportant(c) },
                  { key: 'edit', text: m.abEdit, color: 'primary', onClick: () => edit(c) },
                  { key: 'delete', text: m.delete, color: 'danger', onClick: () => void remove(c) },
                ]}
              >
                <PersonRow
                  name={c.name}
                  email={c.email}
                  marks={c.important && <StarFill className="mw-star" aria-label={m.abImportant} />}
                  extra={joinMeta(c.company, c.jobTitle)}
                  onClick={() => card(c)}
                />
              </SwipeAction>
            ))}
          </IndexBar.Panel>
        ))}
      </IndexBar>
    );
  }

  const groupCount = data?.groups.length ?? 0;
  return (
    <Page title={m.tabAddress} right={addButton} bodyClassName="mw-ab-fixed">
      <div className="mw-ab-top">
        <AddressSegment />
        <div className="mw-ab-search">
          <SearchBar placeholder={m.abSearch} value={text} onChange={setText} aria-label={m.abSearch} />
        </div>
        <div className="mw-ab-links">
          <a role="button" data-link="groups" onClick={() => navigate(ADDRESS_ROUTES.groups)}>
            <TeamOutline />{m.titleGroups}{groupCount > 0 && <span className="mw-ab-link-count">{groupCount}</span>}
          </a>
          <a role="button" data-link="transfer" onClick={() => navigate(ADDRESS_ROUTES.transfer)}><DownlandOutline />{m.abTransfer}</a>
          <a role="button" data-link="rules" onClick={() => navigate(ADDRESS_ROUTES.rules)}><StopOutline />{m.abRules}</a>
        </div>
      </div>
      <PullToRefresh onRefresh={refresh} {...pullTexts(m)}>
        {body}
      </PullToRefresh>
    </Page>
  );
}
