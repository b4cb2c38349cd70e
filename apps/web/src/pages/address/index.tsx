import { List } from 'antd-mobile';
import { UserContactOutline } from 'antd-mobile-icons';
import { useT } from '../../i18n';
import { AccountCard } from '../../ui/account-card';
import { Page } from '../../ui/page';
import { EmptyState } from '../../ui/state-view';

/** Address book tab: the current account and the (still empty) contact list. */
export default function AddressPage() {
  const m = useT();
  return (
    <Page title={m.tabAddress}>
      <AccountCard label={m.myAccount} />
      <List header={m.contacts}>
        <List.Item>
          <EmptyState icon={<UserContactOutline />} text={m.noContacts} hint={m.noContactsHint} />
        </List.Item>
      </List>
    </Page>
  );
}
