import { useEffect, useState, type FormEvent } from 'react';
import { Dialog, Toast } from 'antd-mobile';
import type { CheckedRecord, DomainStatus } from '@mailwing/shared';
import { adminConsoleApi } from '../../../api/admin-console';
import { adminReason, fill, useAdminT, type AdminMessages } from '../../../i18n/admin';
import { useLanguage } from '../../../i18n';
import { copyText } from '../../../ui/copy-text';
import { ErrorState } from '../../../ui/state-view';
import { AdminPage } from '../admin-page';

// In the reader's language, not the browser's locale: a zh reader on an en-US browser reads 2026/11/24 13:05.
const when = (iso: string | null, lang: 'zh' | 'en') => (iso ? new Date(iso).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '');

function Value({ m, text }: { m: AdminMessages; text: string }) {
  return (
    <div className="mw-dns-value">
      <code>{text}</code>
      <button type="button" className="mw-admin-btn" onClick={() => void copyText(text).then((ok) => ok && Toast.show(m.domCopied))}>{m.domCopy}</button>
    </div>
  );
}

function RecordView({ m, r }: { m: AdminMessages; r: CheckedRecord }) {
  return (
    <div className="mw-dns" data-record={r.kind} data-state={r.state}>
      <div className="mw-dns-head">
        <span className="mw-dns-kind">{m.kind[r.kind] ?? r.kind}</span>
        <span className={`mw-dns-state is-${r.state}`}>{m.state[r.state] ?? r.state}</span>
      </div>
      <div className="mw-dns-label">{m.domPublish} ({r.type})</div>
      <Value m={m} text={r.name} />
      <div className="mw-dns-label">{m.domExpected}</div>
      <Value m={m} text={r.expected} />
      {r.state !== 'ok' && (
        <>
          <div className="mw-dns-label">{m.domFound}</div>
          {r.found.length === 0 ? <div className="mw-admin-sub">{m.domNothing}</div> : r.found.map((f, i) => <code key={i} className="mw-dns-found">{f}</code>)}
        </>
      )}
      {r.note && m.note[r.note] && <div className="mw-dns-note">{m.note[r.note]}</div>}
    </div>
  );
}

/** Domains (issue 17, scope 1): add one, see each record's state with what was found and what is expected. */
export default function AdminDomainsPage() {
  const m = useAdminT();
  const lang = useLanguage();
  const [list, setList] = useState<DomainStatus[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  const load = async () => {
    try {
      setList((await adminConsoleApi.domains()).list);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const run = async (key: string, call: () => Promise<unknown>) => {
    setBusy(key);
    try {
      await call();
      await load();
      return true;
    } catch (err) {
      Toast.show({ content: adminReason(m, err) });
      return false;
    } finally {
      setBusy(null);
    }
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && (await run('add', () => adminConsoleApi.addDomain(name.trim())))) setName('');
  };

  return (
    <AdminPage title={m.admDomains}>
      <form className="mw-admin-form" onSubmit={(e) => void add(e)}>
        <input className="mw-admin-input" name="domain" value={name} onChange={(e) => setName(e.target.value)} placeholder={m.domAddPlaceholder} autoCapitalize="off" inputMode="url" />
        <button type="submit" className="mw-admin-btn is-primary" disabled={busy !== null}>{m.domAdd}</button>
      </form>
      {failed && !list && <ErrorState onRetry={() => void load()} />}
      {list?.length === 0 && <div className="mw-admin-intro">{m.domEmpty}</div>}
      {list?.map((d) => (
        <section key={d.domain} className="mw-admin-card" data-domain={d.domain}>
          <h3>{d.domain}</h3>
          <div className="mw-admin-sub">{d.verified ? m.domVerified : m.domPending}</div>
          <div className="mw-admin-sub">{d.checkedAt ? fill(m.domChecked, { time: when(d.checkedAt, lang), ms: d.checkMs ?? 0 }) : m.domNeverChecked}</div>
          {d.nextCheckAt && <div className="mw-admin-sub">{fill(m.domNextCheck, { time: when(d.nextCheckAt, lang) })}</div>}
          {d.nextSelector && <div className="mw-admin-sub">{fill(m.domRotating, { selector: d.nextSelector })}</div>}
          <div className="mw-admin-actions">
            <button type="button" className="mw-admin-btn" data-action="check" disabled={busy !== null} onClick={() => void run(d.domain, () => adminConsoleApi.checkDomain(d.domain))}>
              {busy === d.domain ? '…' : m.domCheck}
            </button>
            {d.verified && !d.nextSelector && (
              <button type="button" className="mw-admin-btn" disabled={busy !== null} onClick={() => void Dialog.confirm({ content: m.domRotateConfirm, confirmText: m.domRotate, cancelText: m.cancel })
                .then((yes) => yes && run(d.domain, () => adminConsoleApi.rotateDkim(d.domain)))}>{m.domRotate}</button>
            )}
            {!d.verified && (
              <button type="button" className="mw-admin-btn is-danger" disabled={busy !== null} onClick={() => void Dialog.confirm({ content: m.domRemoveConfirm, confirmText: m.domRemove, cancelText: m.cancel })
                .then((yes) => yes && run(d.domain, () => adminConsoleApi.removeDomain(d.domain)))}>{m.domRemove}</button>
            )}
          </div>
          {d.records.map((r) => <RecordView key={r.kind} m={m} r={r} />)}
        </section>
      ))}
    </AdminPage>
  );
}
