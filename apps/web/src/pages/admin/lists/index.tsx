import { useEffect, useState } from 'react';
import { Button, Input, List, Selector, TextArea, Toast } from 'antd-mobile';
import type { CompanyListEntry, CompanyListImported, CompanyListTest } from '@mailwing/shared';
import { listsApi } from '../../../api/audit';
import type { ApiError } from '../../../api/request';
import { auditReason, useAuditT } from '../../../i18n/audit';
import { AdminPage } from '../admin-page';
import '../admin-audit.css';

/** Company block and allow lists (issue 17, scope 6), with CSV import and the "test an address" tool. */
export default function AdminListsPage() {
  const m = useAuditT();
  const [entries, setEntries] = useState<CompanyListEntry[]>([]);
  const [kind, setKind] = useState<'block' | 'allow'>('block');
  const [pattern, setPattern] = useState('');
  const [note, setNote] = useState('');
  const [csv, setCsv] = useState('');
  const [imported, setImported] = useState<CompanyListImported | null>(null);
  const [address, setAddress] = useState('');
  const [ip, setIp] = useState('');
  const [tested, setTested] = useState<CompanyListTest | null>(null);
  const fail = (err: ApiError) => Toast.show({ content: auditReason(m, err) });
  const load = () => listsApi.list().then((r) => setEntries(r.list), fail);
  useEffect(() => { void load(); }, []);

  const add = () => listsApi.add(kind, pattern, note).then(() => { setPattern(''); setNote(''); return load(); }, fail);
  const runImport = () => listsApi.importCsv(csv).then((r) => { setImported(r); setCsv(''); return load(); }, fail);
  const test = () => listsApi.test(address, ip).then(setTested, fail);

  return (
    <AdminPage title={m.listsTitle}>
      <div className="mw-audit" data-page="admin-lists">
        <List header={m.listsTest}>
          <div className="mw-audit" style={{ padding: 8 }}>
            <div className="mw-audit-row"><Input placeholder={m.listsTestAddress} value={address} onChange={setAddress} data-field="test-address" /></div>
            <div className="mw-audit-row">
              <Input placeholder={m.listsTestIp} value={ip} onChange={setIp} data-field="test-ip" />
              <Button color="primary" className="mw-audit-touch" onClick={() => void test()} data-action="test-address">{m.listsTestRun}</Button>
            </div>
            {tested && (
              <div className="mw-audit-hit" data-test-result={tested.result}>
                {tested.entry ? m.listsTestHit(tested.result, tested.entry.pattern) + (tested.entry.note ? ` (${tested.entry.note})` : '') : m.listsTestNone}
              </div>
            )}
          </div>
        </List>
        <Selector options={[{ label: m.listsBlock, value: 'block' }, { label: m.listsAllow, value: 'allow' }]} value={[kind]} onChange={(v) => v[0] && setKind(v[0] as 'block' | 'allow')} />
        <div className="mw-audit-row"><Input placeholder={m.listsPattern} value={pattern} onChange={setPattern} data-field="list-pattern" /></div>
        <div className="mw-audit-row">
          <Input placeholder={m.listsNote} value={note} onChange={setNote} />
          <Button color="primary" className="mw-audit-touch" onClick={() => void add()} data-action="list-add">{m.listsAdd}</Button>
        </div>
        <List header={`${m.listsBlock} / ${m.listsAllow}`}>
          {entries.length === 0 && <List.Item>{m.listsEmpty}</List.Item>}
          {entries.map((e) => (
            <List.Item key={e.id} data-entry={e.pattern} description={e.note || undefined} prefix={<span className={`mw-audit-tag mw-audit-tag-${e.kind}`}>{e.kind === 'block' ? m.listsBlock : m.listsAllow}</span>}
              extra={<Button size="small" fill="none" className="mw-audit-touch" onClick={() => void listsApi.remove(e.id).then(load, fail)}>{m.auditDelete}</Button>}>
              {e.pattern}
            </List.Item>
          ))}
        </List>
        <List header={m.listsImport}>
          <div className="mw-audit" style={{ padding: 8 }}>
            <TextArea className="mw-audit-textarea" placeholder={m.listsImportHint} value={csv} onChange={setCsv} rows={4} />
            <Button block className="mw-audit-touch" onClick={() => void runImport()} disabled={!csv.trim()}>{m.listsImport}</Button>
            {imported && <div className="mw-audit-meta">{m.listsImported(imported.added)}</div>}
            {imported?.errors.map((e) => <div key={e.line} className="mw-audit-error">{m.listsLineError(e.line, m.auditReasons[e.reason] ?? e.message)}</div>)}
          </div>
        </List>
        <div className="mw-audit-meta">{m.listsPrecedence}</div>
      </div>
    </AdminPage>
  );
}
