import { useEffect, useRef, useState } from 'react';
import { Button, Popup, PullToRefresh, SearchBar, Tabs, Toast } from 'antd-mobile';
import { TeamOutline } from 'antd-mobile-icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { ContactList, DepartmentTree } from '@mailwing/shared';
import { contactsApi } from '../../api/contacts';
import { directoryApi } from '../../api/directory';
import { useAddressT } from '../../i18n/address';
import { collectPages, contactsInGroup, flattenDepartments, subtreeMembers } from '../../state/address-book';
import { allChosen, isChosen, isRecipientField, removeChosen, toggleChosen, type Chosen } from '../../state/recipient-choice';
import { session } from '../../state/session';
import { WRITE_ROUTE } from '../../ui/compose-button';
import { Page } from '../../ui/page';
import { EmptyState, ErrorState } from '../../ui/state-view';
import { useDebounced } from '../address/hooks';
import { MemberList } from '../address/member-list';
import { pullTexts } from '../address/pull-texts';
import { joinMeta, PersonRow } from '../address/rows';
import '../address/address.css';

type Tab = 'contacts' | 'groups' | 'departments' | 'members';
/** The server's largest page: a whole department is fetched in as few calls as possible. */
const DEPARTMENT_PAGE = 100;

const person = (p: { name: string; email: string }): Chosen => ({ name: p.name, email: p.email });

/**
 * Choosing recipients (?type=to|cc|bcc): contacts, groups (all their
 * contacts), whole departments (all their members, sub-departments too) and
 * members. Confirm stores the choice in the session (spec §3
 * selectedContacts, addressSelectType) and goes back to compose, which adds them.
 */
export function RecipientChooser({ title }: { title: string }) {
  const m = useAddressT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const type = params.get('type');
  const field = isRecipientField(type) ? type : 'to';
  const [tab, setTab] = useState<Tab>('contacts');
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [showChosen, setShowChosen] = useState(false);

  const [book, setBook] = useState<ContactList | null>(null);
  const [tree, setTree] = useState<DepartmentTree | null>(null);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const [found, setFound] = useState<ContactList | null>(null);
  const [memberRound, setMemberRound] = useState(0);
  // Members of whole departments already fetched, by department id.
  const departmentPeople = useRef(new Map<string, Chosen[]>());

  const loadBook = async () => setBook(await contactsApi.list());
  const loadTree = async () => {
    departmentPeople.current.clear();
    setTree(await directoryApi.departments());
  };
  const loadAll = () => {
    setFailed(false);
    Promise.all([loadBook(), loadTree()]).catch(() => setFailed(true));
  };
  useEffect(loadAll, []);

  // Contact search asks the server (it matches pinyin); the members tab searches on its own.
  useEffect(() => {
    if (tab !== 'contacts' || !q) return setFound(null);
    let current = true;
    contactsApi.list(q).then((result) => current && setFound(result), () => undefined);
    return () => {
      current = false;
    };
  }, [q, tab]);

  const toggle = (people: Chosen[], emptyText: string) => {
    if (people.length === 0) {
      Toast.show({ content: emptyText });
      return;
    }
    setChosen((list) => toggleChosen(list, people));
  };

  const wholeDepartment = async (id: string): Promise<Chosen[]> => {
    const cached = departmentPeople.current.get(id);
    if (cached) return cached;
    const members = await collectPages((page) => directoryApi.members({ dept: id, deep: true, page, size: DEPARTMENT_PAGE }, true));
    const people = members.filter((x) => x.email).map(person);
    departmentPeople.current.set(id, people);
    return people;
  };
  const toggleDepartment = async (id: string) => {
    let people: Chosen[];
    try {
      people = await wholeDepartment(id);
    } catch {
      return; // the request layer has said why
    }
    toggle(people, m.abNoMembers);
  };

  const confirm = () => {
    session.setSelectedContacts(chosen, field);
    if (location.key === 'default') navigate(WRITE_ROUTE, { replace: true });
    else navigate(-1);
  };

  const search = (
    <div className="mw-ab-search">
      <SearchBar placeholder={tab === 'members' ? m.titleSearchMember : m.abSearch} value={text} onChange={setText} aria-label={m.abSearch} />
    </div>
  );

  let content;
  if (failed && (!book || !tree)) content = <ErrorState onRetry={loadAll} />;
  else if (tab === 'contacts') {
    const list = (q ? found?.list : book?.list) ?? [];
    content = (
      <PullToRefresh onRefresh={loadBook} {...pullTexts(m)}>
        {book && list.length === 0 ? <EmptyState text={q ? m.abNoMatch : m.noContacts} /> : (
          <div className="mw-ab-plain">
            {list.map((c) => (
              <PersonRow key={c.id} name={c.name} email={c.email} extra={joinMeta(c.company)} checked={isChosen(chosen, c.email)} onClick={() => toggle([person(c)], '')} />
            ))}
          </div>
        )}
      </PullToRefresh>
    );
  } else if (tab === 'groups') {
    content = (
      <PullToRefresh onRefresh={loadBook} {...pullTexts(m)}>
        {book && book.groups.length === 0 ? <EmptyState icon={<TeamOutline />} text={m.abNoGroups} /> : (
          <div className="mw-ab-plain">
            {book?.groups.map((g) => {
              const people = contactsInGroup(book.list, g.id).map(person);
              return (
                <PersonRow key={g.id} name={g.name} email="" meta={m.abCount(g.count)} checked={allChosen(chosen, people)} onClick={() => toggle(people, m.abGroupEmpty)} />
              );
            })}
          </div>
        )}
      </PullToRefresh>
    );
  } else if (tab === 'departments') {
    content = (
      <PullToRefresh onRefresh={loadTree} {...pullTexts(m)}>
        <div className="mw-ab-plain mw-ab-dept-choose">
          {tree && flattenDepartments(tree.list, tree.rootId).map(({ department: d, depth }) => {
            const people = departmentPeople.current.get(d.id);
            return (
              <PersonRow
                key={d.id}
                name={d.name}
                email=""
                meta={`${m.abWhole} · ${m.abPeople(subtreeMembers(tree.list, d.id))}`}
                indent={depth}
                checked={people ? allChosen(chosen, people) : false}
                onClick={() => void toggleDepartment(d.id)}
              />
            );
          })}
        </div>
      </PullToRefresh>
    );
  } else {
    content = (
      <PullToRefresh onRefresh={async () => setMemberRound((n) => n + 1)} {...pullTexts(m)}>
        <MemberList key={`${q}-${memberRound}`} query={{ q }} isChecked={(x) => isChosen(chosen, x.email)} onOpen={(x) => toggle([person(x)], '')} />
      </PullToRefresh>
    );
  }

  const footer = (
    <div className="mw-ab-bar">
      <button type="button" className="mw-ab-bar-count" data-count={chosen.length} onClick={() => chosen.length > 0 && setShowChosen(true)}>
        {m.abSelectedLabel} <span>{chosen.length}</span>
      </button>
      <Button color="primary" disabled={chosen.length === 0} onClick={confirm} data-action="confirm-choice">{m.ok}</Button>
    </div>
  );

  return (
    <Page title={title} back={WRITE_ROUTE} bodyClassName="mw-ab-fixed" footer={footer}>
      <Tabs
        className="mw-ab-tabs"
        activeKey={tab}
        onChange={(key) => {
          setTab(key as Tab);
          setText('');
        }}
      >
        <Tabs.Tab key="contacts" title={m.contacts} />
        <Tabs.Tab key="groups" title={m.titleGroups} />
        <Tabs.Tab key="departments" title={m.abDepartments} />
        <Tabs.Tab key="members" title={m.abMembers} />
      </Tabs>
      {(tab === 'contacts' || tab === 'members') && search}
      <div className="mw-ab-scroll">{content}</div>
      <Popup visible={showChosen} onMaskClick={() => setShowChosen(false)} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
        <div className="mw-ab-popup-head">
          <span />
          <b>{m.abSelected(chosen.length)}</b>
          <a onClick={() => setShowChosen(false)}>{m.ok}</a>
        </div>
        <div className="mw-ab-chosen mw-ab-plain">
          {chosen.map((c) => (
            <PersonRow key={c.email} name={c.name} email={c.email} checked onClick={() => {
              const rest = removeChosen(chosen, [c]);
              setChosen(rest);
              if (rest.length === 0) setShowChosen(false);
            }} />
          ))}
        </div>
      </Popup>
    </Page>
  );
}
