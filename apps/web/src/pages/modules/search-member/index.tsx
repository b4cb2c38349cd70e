import { useState } from 'react';
import { SearchBar } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { useAddressT } from '../../../i18n/address';
import { Page } from '../../../ui/page';
import { ADDRESS_ROUTES, useDebounced } from '../../address/hooks';
import { MemberList } from '../../address/member-list';
import '../../address/address.css';

/** Search members (spec §2) by name, address, job title or phone, across the company. */
export default function SearchMemberPage() {
  const m = useAddressT();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  return (
    <Page title={m.titleSearchMember} back={ADDRESS_ROUTES.company}>
      <div className="mw-ab-search">
        <SearchBar placeholder={m.titleSearchMember} value={text} onChange={setText} autoFocus aria-label={m.titleSearchMember} />
      </div>
      <MemberList
        key={q}
        query={{ q }}
        idle={!q}
        onOpen={(member) => navigate(`${ADDRESS_ROUTES.memberDetail}?id=${encodeURIComponent(member.id)}`)}
      />
    </Page>
  );
}
