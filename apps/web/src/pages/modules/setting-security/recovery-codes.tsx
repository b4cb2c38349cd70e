import { Button, Popup, Toast } from 'antd-mobile';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useSecurityT } from '../../../i18n/security';
import { showRecoveryCode } from '../../../state/security-forms';
import { copyText, downloadText } from '../../../ui/copy-text';

interface Props {
  codes: string[] | null;
  email: string;
  onClose: () => void;
}

/** The new recovery codes, shown once: copy, download, and a plain word about keeping them safe. */
export function RecoveryCodesSheet({ codes, email, onClose }: Props) {
  const m = useSecurityT();
  const shown = (codes ?? []).map(showRecoveryCode);
  const text = [m.recoveryFileTitle(email), new Date().toISOString().slice(0, 10), m.recoveryFileNote, '', ...shown, ''].join('\n');

  const copy = async () => {
    Toast.show({ content: (await copyText(shown.join('\n'))) ? m.copied : m.copyFailed });
  };

  return (
    // Closed only by its button: the codes are not shown again.
    <Popup visible={codes !== null} bodyClassName="mw-sheet mw-sec-sheet" destroyOnClose>
      <div className="mw-sheet-title">{m.recoveryTitle}</div>
      <div className="mw-sec-warn" role="note">
        <ExclamationCircleOutline className="mw-sec-warn-icon" />
        <span>{m.recoveryNote}</span>
      </div>
      <ol className="mw-recovery-grid" data-testid="recovery-codes">
        {shown.map((code) => <li key={code}><code>{code}</code></li>)}
      </ol>
      <div className="mw-sheet-actions">
        <Button onClick={() => void copy()} data-testid="recovery-copy">{m.copyAll}</Button>
        <Button onClick={() => downloadText(`mailwing-recovery-codes-${email.replace(/[^\w.@-]/g, '_')}.txt`, text)} data-testid="recovery-download">{m.download}</Button>
      </div>
      <div className="mw-sheet-actions">
        <Button block color="primary" onClick={onClose} data-testid="recovery-done">{m.savedThem}</Button>
      </div>
    </Popup>
  );
}
