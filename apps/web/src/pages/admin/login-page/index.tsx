import { useEffect, useState, type ChangeEvent, type CSSProperties } from 'react';
import { Toast } from 'antd-mobile';
import type { Branding } from '@mailwing/shared';
import { adminConsoleApi } from '../../../api/admin-console';
import { adminReason, useAdminT } from '../../../i18n/admin';
import { ErrorState } from '../../../ui/state-view';
import { AdminPage } from '../admin-page';

const LOGO_BYTES = 100 * 1024;

/** The per-domain login page's look (issue 17, scope 7): company name, colour and logo. */
export default function AdminLoginPagePage() {
  const m = useAdminT();
  const [b, setB] = useState<Branding | null>(null);
  const [failed, setFailed] = useState(false);
  const load = async () => {
    try {
      setB(await adminConsoleApi.branding());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || !b) return;
    if (file.size > LOGO_BYTES) {
      Toast.show(m.lpLogoTooBig);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setB({ ...b, logo: String(reader.result) });
    reader.readAsDataURL(file);
  };
  const save = async () => {
    if (!b) return;
    try {
      setB(await adminConsoleApi.saveBranding(b));
      Toast.show(m.welSaved);
    } catch (err) {
      Toast.show(adminReason(m, err));
    }
  };

  return (
    <AdminPage title={m.admLoginPage}>
      {failed && !b && <ErrorState onRetry={() => void load()} />}
      {b && (
        <>
          <div className="mw-admin-intro">{m.lpHint}</div>
          <div className="mw-admin-field">
            <label htmlFor="lp-name">{m.lpName}</label>
            <input id="lp-name" className="mw-admin-input" style={{ width: '100%' }} maxLength={60} value={b.name} onChange={(e) => setB({ ...b, name: e.target.value })} />
          </div>
          <div className="mw-admin-field">
            <label htmlFor="lp-color">{m.lpColor}</label>
            <input id="lp-color" type="color" className="mw-admin-color" value={b.color || '#2086ee'} onChange={(e) => setB({ ...b, color: e.target.value })} />
          </div>
          <div className="mw-admin-field">
            <label>{m.lpLogo}</label>
            {b.logo ? <img className="mw-admin-logo" src={b.logo} alt="" /> : <div className="mw-admin-sub">{m.lpNoLogo}</div>}
            <div className="mw-admin-actions">
              <label className="mw-admin-btn">
                {m.lpPickLogo}
                <input type="file" accept="image/png,image/jpeg,image/webp" hidden onChange={pick} />
              </label>
              {b.logo && <button type="button" className="mw-admin-btn is-danger" onClick={() => setB({ ...b, logo: '' })}>{m.lpRemoveLogo}</button>}
            </div>
          </div>
          <div className="mw-admin-field"><label>{m.lpPreview}</label></div>
          <div className="mw-admin-login-preview" style={{ '--mw-brand': b.color || '#2086ee' } as CSSProperties}>
            {b.logo && <img className="mw-admin-logo" src={b.logo} alt="" />}
            <strong>{b.name || m.appName}</strong>
          </div>
          <div className="mw-admin-actions mw-admin-row">
            <button type="button" className="mw-admin-btn is-primary" onClick={() => void save()}>{m.welSave}</button>
          </div>
        </>
      )}
    </AdminPage>
  );
}
