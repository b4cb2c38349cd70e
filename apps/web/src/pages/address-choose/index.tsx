import { useAddressT } from '../../i18n/address';
import { RecipientChooser } from './chooser';

/** Address book chooser (spec §2): recipients for the compose page's To, Cc or Bcc (?type=). */
export default function AddressChoosePage() {
  const m = useAddressT();
  return <RecipientChooser title={m.titleAddressChoose} />;
}
