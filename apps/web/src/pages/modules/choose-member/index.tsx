import { useAddressT } from '../../../i18n/address';
import { RecipientChooser } from '../../address-choose/chooser';

/** Address book (spec §2 choose-member): the same chooser under the module's route and title. */
export default function ChooseMemberPage() {
  const m = useAddressT();
  return <RecipientChooser title={m.titleChooseMember} />;
}
