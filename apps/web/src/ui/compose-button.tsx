import { EditSOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router-dom';
import { useT } from '../i18n';

export const WRITE_ROUTE = '/pages/write/index';

/** The round "write a mail" button over a mail list; give it as a Page footer. */
export function ComposeButton() {
  const m = useT();
  const navigate = useNavigate();
  return (
    <button type="button" className="mw-compose-fab" aria-label={m.titleWrite} onClick={() => navigate(WRITE_ROUTE)}>
      <EditSOutline />
    </button>
  );
}
