import { useEffect, useState } from 'react';
import { Dialog, Switch, Toast } from 'antd-mobile';
import { adminConsoleApi } from '../../../api/admin-console';
import { adminReason, fill, useAdminT } from '../../../i18n/admin';
import { ErrorState } from '../../../ui/state-view';
import { AdminPage } from '../admin-page';

/** Welcome mail (issue 17, scope 7): on or off, subject and text with {{variables}}, previewed as the admin would get it. */
export default function AdminWelcomePage() {
  const m = useAdminT();
  const [form, setForm] = useState<{ enabled: boolean; subject: string; body: string } | null>(null);
  const [variables, setVariables] = useState<string[]>([]);
  const [failed, setFailed] = useState(false);
  const load = async () => {
    try {
      const t = await adminConsoleApi.welcome();
      setForm({ enabled: t.enabled, subject: t.subject, body: t.body });
      setVariables(t.variables);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const save = async () => {
    if (!form) return;
    try {
      await adminConsoleApi.saveWelcome(form);
      Toast.show(m.welSaved);
    } catch (err) {
      Toast.show(adminReason(m, err));
    }
  };
  const preview = async () => {
    if (!form) return;
    try {
      const p = await adminConsoleApi.previewWelcome({ subject: form.subject, body: form.body });
      await Dialog.alert({ title: p.subject, content: <div className="mw-admin-preview">{p.body}</div>, confirmText: m.ok });
    } catch (err) {
      Toast.show(adminReason(m, err));
    }
  };

  return (
    <AdminPage title={m.admWelcome}>
      {failed && !form && <ErrorState onRetry={() => void load()} />}
      {form && (
        <>
          <div className="mw-admin-switch">
            <span>{m.welEnabled}</span>
            <Switch checked={form.enabled} onChange={(enabled) => setForm({ ...form, enabled })} />
          </div>
          <div className="mw-admin-field">
            <label htmlFor="wel-subject">{m.welSubject}</label>
            <input id="wel-subject" className="mw-admin-input" style={{ width: '100%' }} value={form.subject} onChange={(e) => setForm({ ...form, subject: e.target.value })} />
          </div>
          <div className="mw-admin-field">
            <label htmlFor="wel-body">{m.welBody}</label>
            <textarea id="wel-body" className="mw-admin-input mw-admin-textarea" value={form.body} onChange={(e) => setForm({ ...form, body: e.target.value })} />
            <div className="mw-admin-sub">{fill(m.welVariables, { list: variables.map((v) => `{{${v}}}`).join(' ') })}</div>
          </div>
          <div className="mw-admin-actions mw-admin-row">
            <button type="button" className="mw-admin-btn" onClick={() => void preview()}>{m.welPreview}</button>
            <button type="button" className="mw-admin-btn is-primary" onClick={() => void save()}>{m.welSave}</button>
          </div>
        </>
      )}
    </AdminPage>
  );
}
