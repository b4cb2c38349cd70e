import { useCallback, useEffect, useState } from 'react';
import { Button, Collapse, Dialog, Input, List, ProgressBar, Selector, Tag, TextArea, Toast } from 'antd-mobile';
import { formatFileSize, MIGRATE_PRESETS, type MigrateAccount, type MigrateDetail, type MigrateImportResult, type MigrateTestResult } from '@mailwing/shared';
import { migrateApi, type MigrateServer } from '../../../api/migrate';
import type { ApiError } from '../../../api/request';
import { migrateReason, useMigrateT } from '../../../i18n/migrate';
import { AdminPage } from '../admin-page';
import './migrate.css';

const STATE_COLOR: Record<string, string> = { queued: 'default', running: 'primary', done: 'success', failed: 'danger' };

/** Mail migration (邮件搬家): the old server, a test login, the CSV of accounts, and each account's progress. */
export default function AdminMigratePage() {
  const m = useMigrateT();
  const [preset, setPreset] = useState<string>(MIGRATE_PRESETS[0]!.id);
  const [server, setServer] = useState<MigrateServer>({ host: MIGRATE_PRESETS[0]!.host, port: 993, tls: 'tls' });
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [tested, setTested] = useState<MigrateTestResult | null>(null);
  const [testError, setTestError] = useState('');
  const [csv, setCsv] = useState('');
  const [imported, setImported] = useState<MigrateImportResult | null>(null);
  const [list, setList] = useState<MigrateAccount[]>([]);
  const [open, setOpen] = useState<Record<string, MigrateDetail>>({});

  const load = useCallback(async (loading = false) => setList((await migrateApi.list(loading)).list), []);
  useEffect(() => { void load(true); }, [load]);
  // While a job is queued or running, its progress is asked for every few seconds.
  const busy = list.some((a) => a.state === 'queued' || a.state === 'running');
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => { void load().catch(() => undefined); }, 3_000);
    return () => clearInterval(t);
  }, [busy, load]);

  const choose = (id: string) => {
    setPreset(id);
    const p = MIGRATE_PRESETS.find((x) => x.id === id);
    if (p) setServer({ host: p.host, port: p.port, tls: p.tls });
  };
  const test = async () => {
    setTested(null);
    setTestError('');
    try {
      setTested(await migrateApi.test(server, user.trim(), password));
    } catch (err) {
      const e = err as ApiError;
      setTestError(migrateReason(m, e.reason, e.message));
    }
  };
  const pickFile = (file: File | undefined) => {
    if (file) void file.text().then(setCsv);
  };
  const queue = async () => {
    const r = await migrateApi.importCsv(server, csv);
    setImported(r);
    if (r.created > 0) Toast.show(m.migImported(r.created));
    await load();
  };
  const showFolders = async (id: string) => {
    const d = await migrateApi.detail(id);
    setOpen((o) => ({ ...o, [id]: d }));
  };
  const finaliseAll = async () => {
    if (!(await Dialog.confirm({ content: m.migFinaliseConfirm }))) return;
    await migrateApi.finalise();
    await load();
  };

  return (
    <AdminPage title={m.migTitle}>
      <div className="mw-migrate">
        <p className="mw-migrate-intro">{m.migIntro}</p>
        <List header={m.migProvider}>
          <List.Item>
            <Selector columns={2} value={[preset]} onChange={(v) => v[0] && choose(v[0])}
              options={[...MIGRATE_PRESETS.map((p) => ({ label: m.migPresets[p.id] ?? p.id, value: p.id })), { label: m.migCustom, value: 'custom' }]} />
          </List.Item>
          <List.Item title={m.migHost}><Input value={server.host} onChange={(host) => { setPreset('custom'); setServer({ ...server, host }); }} /></List.Item>
          <List.Item title={m.migPort}><Input type="number" value={String(server.port)} onChange={(v) => setServer({ ...server, port: Number(v) || 0 })} /></List.Item>
          <List.Item title={m.migTls}>
            <Selector columns={3} value={[server.tls]} onChange={(v) => v[0] && setServer({ ...server, tls: v[0] })}
              options={[{ label: m.migTlsTls, value: 'tls' as const }, { label: m.migTlsStarttls, value: 'starttls' as const }, { label: m.migTlsNone, value: 'none' as const }]} />
          </List.Item>
        </List>

        <List header={m.migTestTitle}>
          <List.Item title={m.migUser}><Input value={user} onChange={setUser} autoComplete="off" /></List.Item>
          <List.Item title={m.migPassword}><Input type="password" value={password} onChange={setPassword} autoComplete="new-password" /></List.Item>
          <List.Item>
            <Button block color="primary" fill="outline" disabled={!user || !password || !server.host} onClick={() => void test()}>{m.migTest}</Button>
            {testError && <div className="mw-migrate-error" role="alert">{testError}</div>}
            {tested && (
              <div className="mw-migrate-ok">
                {m.migTestOk}
                <ul>{tested.folders.map((f) => <li key={f.name}>{f.name} → {f.target} ({f.messages})</li>)}</ul>
              </div>
            )}
          </List.Item>
        </List>

        <List header={m.migCsvTitle}>
          <List.Item description={m.migCsvHint}>
            <label className="mw-migrate-file">
              {m.migCsvPick}
              <input type="file" accept=".csv,text/csv,text/plain" onChange={(e) => pickFile(e.target.files?.[0])} />
            </label>
            <TextArea value={csv} onChange={setCsv} rows={4} placeholder="old@example.com,app-password,new@yourdomain.com" />
            <Button block color="primary" disabled={!csv.trim() || !server.host} onClick={() => void queue()}>{m.migImport}</Button>
            {imported && imported.errors.length > 0 && (
              <ul className="mw-migrate-error">{imported.errors.map((e) => <li key={e.line}>{m.migLine(e.line)}: {migrateReason(m, e.reason)}</li>)}</ul>
            )}
          </List.Item>
        </List>

        <List header={m.migAccounts}>
          {list.length === 0 && <List.Item>{m.migNone}</List.Item>}
          {list.length > 0 && (
            <List.Item>
              <div className="mw-migrate-actions">
                <Button size="small" onClick={() => void migrateApi.rerun().then(() => load())}>{m.migRerunAll}</Button>
                <Button size="small" color="warning" onClick={() => void finaliseAll()}>{m.migFinaliseAll}</Button>
              </div>
            </List.Item>
          )}
        </List>
        <Collapse onChange={(keys) => { for (const k of keys as string[]) if (!open[k]) void showFolders(k); }}>
          {list.map((a) => (
            <Collapse.Panel key={a.id} title={(
              <div className="mw-migrate-account">
                <div className="mw-migrate-line">
                  <span className="mw-migrate-addr">{a.oldAddress} → {a.newAddress}</span>
                  <Tag color={STATE_COLOR[a.state]}>{a.finalisedAt ? m.migFinalised : m.migState[a.state]}</Tag>
                </div>
                <ProgressBar percent={a.messagesTotal ? Math.round((a.messagesDone / a.messagesTotal) * 100) : a.state === 'done' ? 100 : 0} />
                <div className="mw-migrate-sub">
                  {m.migProgress(a.messagesDone, a.messagesTotal, formatFileSize(a.bytesDone), formatFileSize(a.bytesTotal))} · {m.migCopied(a.copiedMessages)} · {m.migRuns(a.runs)}
                </div>
                {a.state === 'failed' && <div className="mw-migrate-error">{migrateReason(m, a.reason, a.reply ?? '')}{a.reply ? ` (${a.reply})` : ''}</div>}
              </div>
            )}>
              <div className="mw-migrate-folders">
                {(open[a.id]?.folders ?? []).map((f) => (
                  <div key={f.name} className="mw-migrate-folder">
                    <div className="mw-migrate-line"><span>{f.name} → {f.target}</span><Tag color={STATE_COLOR[f.state]}>{m.migState[f.state]}</Tag></div>
                    <ProgressBar percent={f.messagesTotal ? Math.round((f.messagesDone / f.messagesTotal) * 100) : f.state === 'done' ? 100 : 0} />
                    <div className="mw-migrate-sub">{m.migProgress(f.messagesDone, f.messagesTotal, formatFileSize(f.bytesDone), formatFileSize(f.bytesTotal))} · {m.migCopied(f.copied)}</div>
                  </div>
                ))}
                <div className="mw-migrate-actions">
                  <Button size="small" onClick={() => void migrateApi.rerun(a.id).then(() => load())}>{m.migRerun}</Button>
                  <Button size="small" color="danger" fill="outline" onClick={() => void migrateApi.remove(a.id).then(() => load())}>{m.migDelete}</Button>
                </div>
              </div>
            </Collapse.Panel>
          ))}
        </Collapse>
      </div>
    </AdminPage>
  );
}
