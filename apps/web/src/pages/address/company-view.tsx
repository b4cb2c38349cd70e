import { useEffect, useState } from 'react';
import { List, PullToRefresh } from 'antd-mobile';
import { AddOutline, SearchOutline, TeamOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { DepartmentTree } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { directoryApi } from '../../api/directory';
import { useAddressT } from '../../i18n/address';
import { childDepartments, departmentPath, subtreeMembers } from '../../state/address-book';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';
import { ADDRESS_ROUTES } from './hooks';
import { MemberList } from './member-list';
import { pullTexts } from './pull-texts';
import { AddressSegment } from './segment';
import './address.css';

/** The company directory: breadcrumbs, sub-departments, and the members of the department shown (?dept=). */
export default function CompanyView() {
  const m = useAddressT();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [tree, setTree] = useState<DepartmentTree | null>(null);
  const [failed, setFailed] = useState(false);
  const [admin, setAdmin] = useState(false);
  // Bumped by pull-to-refresh: the member list starts over.
  const [round, setRound] = useState(0);

  useEffect(() => {
    directoryApi.departments().then(setTree, () => setFailed(true));
    // Only admins may add members (spec §6); the server refuses the rest anyway.
    api.check().then((account) => setAdmin(account.role === 'admin'), () => undefined);
  }, []);

  const deptId = params.get('dept') || tree?.rootId || '';
  const open = (id: string) => setParams({ view: 'company', dept: id }, { replace: true });

  const refresh = async () => {
    setTree(await directoryApi.departments());
    setRound((n) => n + 1);
  };

  const addButton = admin && (
    <button
      type="button"
      className="mw-ab-nav-icon"
      aria-label={m.abAddMember}
      data-action="add-member"
      onClick={() => navigate(`${ADDRESS_ROUTES.memberEdit}?dept=${encodeURIComponent(deptId)}`)}
    >
      <AddOutline />
    </button>
  );

  const path = tree ? departmentPath(tree.list, tree.rootId, deptId) : [];
  const children = tree ? childDepartments(tree.list, deptId) : [];
  return (
    <Page title={m.tabAddress} right={addButton} bodyClassName="mw-ab-fixed">
      <div className="mw-ab-top">
        <AddressSegment />
        <div className="mw-ab-fake-search" role="button" data-link="search-member" onClick={() => navigate(ADDRESS_ROUTES.searchMember)}>
          <SearchOutline />{m.titleSearchMember}
        </div>
      </div>
      <div className="mw-ab-scroll">
        {failed && !tree ? (
          <ErrorState onRetry={() => {
            setFailed(false);
            directoryApi.departments().then(setTree, () => setFailed(true));
          }} />
        ) : tree && (
          <PullToRefresh onRefresh={refresh} {...pullTexts(m)}>
            <nav className="mw-ab-crumbs" aria-label={m.abDepartments}>
              {path.map((d, i) => (
                <span key={d.id}>
                  {i > 0 && <span className="mw-ab-crumb-sep">›</span>}
                  {i === path.length - 1 ? <span className="is-current">{d.name}</span> : <a onClick={() => open(d.id)}>{d.name}</a>}
                </span>
              ))}
            </nav>
            {children.length > 0 && (
              <List header={m.abDepartments} className="mw-ab-depts">
                {children.map((d) => (
                  <List.Item
                    key={d.id}
                    prefix={<TeamOutline className="mw-ab-dept-icon" />}
                    extra={m.abPeople(subtreeMembers(tree.list, d.id))}
                    data-dept={d.name}
                    onClick={() => open(d.id)}
                  >
                    {d.name}
                  </List.Item>
                ))}
              </List>
            )}
            <div className="mw-ab-section">{m.abMembers}</div>
            <MemberList key={`${deptId}-${round}`} query={{ dept: deptId }} onOpen={(member) => navigate(`${ADDRESS_ROUTES.memberDetail}?id=${encodeURIComponent(member.id)}`)} />
          </PullToRefresh>
        )}
      </div>
    </Page>
  );
}
