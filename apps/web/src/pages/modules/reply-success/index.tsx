import { useT } from '../../../i18n';
import { SentResult } from '../write-result/sent-result';

/** Reply successful (spec §2). */
export default function ReplySuccessPage() {
  const m = useT();
  return <SentResult title={m.titleReplySuccess} />;
}
