import { useEffect, useState } from 'react';
import { Button, List, SpinLoading, Toast } from 'antd-mobile';
import { MailOutline, PhoneFill, UserAddOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Member } from '@mailwing/shared';
import { contactsApi } from '../../../api/contacts';
import { directoryApi } from '../../../api/directory';
import { api } from '../../../api/endpoints';
import { useAddressT } from '../../../i18n/address';
import { Page } from '../../../ui/page';
import { ErrorState } from '../../../ui/state-view';
import { ADDRESS_ROUTES, writeTo } from '../../address/hooks';
import { Initial } from '../../address/rows';
import '../../address/address.css';

/** Personal profile (spec §2, ?id= a member): address, department, job title, phone; write, call, add to contacts. */
export default function MemberDetailPage() {
  const m = useAddressT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [member, setMember] = useState<Member | null>(null);
  const [failed, setFailed] = useState(false);
  const [admin, setAdmin] = useState(false);

  const load = () => {
    setFailed(false);
    directoryApi.member(id).then(setMember, () => setFailed(true));
  };
  useEffect(load, [id]);
  useEffect(() => {
    api.check().then((account) => setAdmin(account.role === 'admin'), () => undefined);
  }, []);

  const addToContacts = async () => {
    if (!member) return;
    try {
      await contactsApi.save({
        name: member.name, email: member.email, phone: member.phone, company: '', jobTitle: member.jobTitle, jobNumber: '', groupIds: [], important: false,
      });
      Toast.show({ content: m.abAddedToContacts });
    } catch (error) {
      // save is quiet: say why here (most often, the contact already exists).
      const e = error as { fields?: Record<string, string>; message?: string };
      Toast.show({ content: Object.values(e.fields ?? {})[0] ?? e.message ?? m.requestFailed });
    }
  };

  const editButton = admin && member && (
    <a className="mw-nav-action" data-action="edit-member" onClick={() => navigate(`${ADDRESS_ROUTES.memberEdit}?id=${encodeURIComponent(member.id)}`)}>
      {m.abEdit}
    </a>
  );
  return (
    <Page title={m.titleMemberDetail} back={ADDRESS_ROUTES.company} right={editButton}>
      {failed ? <ErrorState onRetry={load} /> : !member ? <div className="mw-center"><SpinLoading color="primary" /></div> : (
        <>
          <div className="mw-ab-profile">
            <Initial name={member.name} email={member.email} />
            <div className="mw-ab-profile-name">{member.name}</div>
            <div className="mw-ab-profile-sub">{member.email}</div>
          </div>
          <div className="mw-ab-actions">
            <Button size="small" color="primary" onClick={() => writeTo(navigate, member.name, member.email)} data-action="write">
              <MailOutline /> {m.abWriteMail}
            </Button>
            {member.phone && (
              <a className="mw-ab-tel" href={`tel:${member.phone}`} data-action="call"><PhoneFill /> {m.abCall}</a>
            )}
            <Button size="small" fill="outline" onClick={() => void addToContacts()} data-action="add-contact">
              <UserAddOutline /> {m.abAddToContacts}
            </Button>
          </div>
          <List className="mw-ab-details">
            <List.Item extra={<span className="mw-ab-value">{member.email}</span>}>{m.email}</List.Item>
            <List.Item extra={member.department || '—'}>{m.abDepartment}</List.Item>
            <List.Item extra={member.jobTitle || '—'}>{m.abJobTitle}</List.Item>
            <List.Item extra={member.phone ? <a href={`tel:${member.phone}`}>{member.phone}</a> : '—'}>{m.abPhone}</List.Item>
          </List>
        </>
      )}
    </Page>
  );
}
