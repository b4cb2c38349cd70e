import { useT } from '../../../i18n';
import { SentResult } from './sent-result';

/** Sent successfully (spec §2). */
export default function WriteResultPage() {
  const m = useT();
  return <SentResult title={m.titleWriteResult} />;
}
