import { useCallback, useEffect, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { Dialog, Popup, Toast } from 'antd-mobile';
import { formatFileSize, type AdminDepartment, type PeopleImportResult, type Person, type QuotaSummary } from '@mailwing/shared';
import { adminPeopleApi, type PersonFields } from '../../../api/admin-people';
import { peopleReason, usePeopleT, type PeopleMessages } from '../../../i18n/people';
import { ErrorState } from '../../../ui/state-view';
import { AdminPage } from '../admin-page';
import './people.css';

const GB = 1024 ** 3;
const PAGE_SIZE = 50;
/** GB as typed (a comma is a decimal point too) to bytes; '' or nonsense is null. */
const gbToBytes = (v: string): number | null => {
  const n = Number(v.trim().replace(',', '.'));
  return v.trim() === '' || !Number.isFinite(n) || n < 0 ? null : Math.round(n * GB);
};
const bytesToGb = (b: number) => String(Math.round((b / GB) * 100) / 100);
const percent = (used: number, quota: number) => (quota > 0 ? Math.min(100, Math.round((used / quota) * 100)) : 0);

/** The department tree as children lists, roots first; ids that are their own ancestors cannot occur (the server refuses cycles). */
function childrenOf(list: AdminDepartment[]): Map<string | null, AdminDepartment[]> {
  const ids = new Set(list.map((d) => d.id));
  const map = new Map<string | null, AdminDepartment[]>();
  for (const d of list) {
    // A parent the admin cannot see is shown as a root, so nothing in scope goes missing.
    const parent = d.parentId !== null && ids.has(d.parentId) ? d.parentId : null;
    map.set(parent, [...(map.get(parent) ?? []), d]);
  }
  for (const kids of map.values()) kids.sort((a, b) => a.name.localeCompare(b.name));
  return map;
}

/** Each department with its depth, in tree order: for the department pickers. */
function flatten(tree: Map<string | null, AdminDepartment[]>, parent: string | null = null, depth = 0): { d: AdminDepartment; depth: number }[] {
  return (tree.get(parent) ?? []).flatMap((d) => [{ d, depth }, ...flatten(tree, d.id, depth + 1)]);
}

function subtreeIds(tree: Map<string | null, AdminDepartment[]>, id: string): Set<string> {
  const out = new Set([id]);
  for (const k of tree.get(id) ?? []) for (const x of subtreeIds(tree, k.id)) out.add(x);
  return out;
}

function UsageBar({ used, quota, label }: { used: number; quota: number; label: string }) {
  const pct = percent(used, quota);
  const level = pct >= 95 ? 'is-full' : pct >= 85 ? 'is-warn' : '';
  return (
    <div className="mw-ppl-usage" data-usage={pct}>
      <div className="mw-ppl-bar"><span className={level} style={{ width: `${pct}%` }} /></div>
      <div className="mw-admin-sub">{label}</div>
    </div>
  );
}

function DepartmentSelect({ m, value, onChange, options, id, allowNone }: {
  m: PeopleMessages; value: string; onChange: (v: string) => void; options: { d: AdminDepartment; depth: number }[]; id: string; allowNone?: boolean;
}) {
  return (
    <select id={id} name={id} className="mw-admin-input mw-ppl-select" value={value} onChange={(e) => onChange(e.target.value)}>
      {allowNone && <option value="">{m.pplNoDepartment}</option>}
      {options.map(({ d, depth }) => (
        <option key={d.id} value={d.id} disabled={!d.inScope}>{`${'\u00a0\u00a0'.repeat(depth)}${d.name}`}</option>
      ))}
    </select>
  );
}

interface FormState { email: string; name: string; password: string; jobTitle: string; phone: string; departmentId: string; role: 'user' | 'admin'; quotaGb: string }

/** Create (person = null) or edit one user: details, department (a move), role, quota with usage; and the account actions. */
function PersonForm({ m, person, departments, defaultDepartment, onDone, onClose }: {
  m: PeopleMessages; person: Person | null; departments: { d: AdminDepartment; depth: number }[]; defaultDepartment: string;
  onDone: () => Promise<void>; onClose: () => void;
}) {
  const [f, setF] = useState<FormState>(() => ({
    email: person?.email ?? '', name: person?.name ?? '', password: '', jobTitle: person?.jobTitle ?? '', phone: person?.phone ?? '',
    departmentId: person ? person.departmentId ?? '' : defaultDepartment, role: person?.role ?? 'user', quotaGb: person ? bytesToGb(person.quotaBytes) : '',
  }));
  const [error, setError] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [scope, setScope] = useState<Set<string>>(() => new Set(person?.scope ?? []));
  const [busy, setBusy] = useState(false);
  const set = (k: keyof FormState) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setF({ ...f, [k]: e.target.value });

  const act = async (call: () => Promise<unknown>, done?: string, close = true) => {
    setError('');
    setBusy(true);
    try {
      await call();
      if (done) Toast.show(done);
      await onDone();
      if (close) onClose();
      return true;
    } catch (err) {
      setError(peopleReason(m, err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const quota = gbToBytes(f.quotaGb);
    const fields: PersonFields = { name: f.name.trim(), jobTitle: f.jobTitle.trim(), phone: f.phone.trim(), departmentId: f.departmentId, role: f.role };
    if (quota !== null) fields.quotaBytes = quota;
    if (!person) {
      void act(() => adminPeopleApi.create({ ...fields, name: f.name.trim(), email: f.email.trim(), password: f.password }), m.pplCreated);
      return;
    }
    // Only what changed goes to the server: a department admin may not send a role, even an unchanged one.
    const changed: PersonFields = {};
    if (fields.name !== person.name) changed.name = fields.name;
    if (fields.jobTitle !== person.jobTitle) changed.jobTitle = fields.jobTitle;
    if (fields.phone !== person.phone) changed.phone = fields.phone;
    if (fields.departmentId !== (person.departmentId ?? '')) changed.departmentId = fields.departmentId;
    if (fields.role !== person.role) changed.role = fields.role;
    if (quota !== null && quota !== person.quotaBytes) changed.quotaBytes = quota;
    void act(() => adminPeopleApi.update(person.id, changed), m.pplSaved);
  };
  const toggle = async () => {
    if (!person) return;
    const disable = person.status === 'active';
    if (disable && !(await Dialog.confirm({ content: m.pplDisableConfirm(person.email), confirmText: m.pplDisable, cancelText: m.pplCancel }))) return;
    await act(() => adminPeopleApi.update(person.id, { status: disable ? 'disabled' : 'active' }), m.pplSaved);
  };
  const remove = async () => {
    if (!person || !(await Dialog.confirm({ content: m.pplDeleteConfirm(person.email), confirmText: m.pplDelete, cancelText: m.pplCancel }))) return;
    await act(() => adminPeopleApi.remove(person.id), m.pplDeleted);
  };
  const reset = async () => {
    if (!person) return;
    if (await act(() => adminPeopleApi.resetPassword(person.id, newPassword), m.pplPasswordReset, false)) setNewPassword('');
  };

  return (
    <form className="mw-ppl-form" onSubmit={submit} data-form={person ? 'edit' : 'create'}>
      <h3>{person ? m.pplEditUser : m.pplNewUser}</h3>
      {person ? (
        <div className="mw-ppl-email">{person.email}</div>
      ) : (
        <div className="mw-admin-field">
          <label htmlFor="ppl-email">{m.pplEmail}</label>
          <input id="ppl-email" name="email" type="email" className="mw-admin-input mw-ppl-wide" value={f.email} onChange={set('email')} placeholder={m.pplEmailHint} autoComplete="off" required />
        </div>
      )}
      <div className="mw-admin-field">
        <label htmlFor="ppl-name">{m.pplName}</label>
        <input id="ppl-name" name="name" className="mw-admin-input mw-ppl-wide" value={f.name} onChange={set('name')} maxLength={100} required />
      </div>
      {!person && (
        <div className="mw-admin-field">
          <label htmlFor="ppl-password">{m.pplPassword}</label>
          <input id="ppl-password" name="password" type="text" className="mw-admin-input mw-ppl-wide" value={f.password} onChange={set('password')} placeholder={m.pplPasswordHint} autoComplete="new-password" minLength={8} required />
        </div>
      )}
      <div className="mw-ppl-two">
        <div className="mw-admin-field">
          <label htmlFor="ppl-job">{m.pplJobTitle}</label>
          <input id="ppl-job" name="jobTitle" className="mw-admin-input mw-ppl-wide" value={f.jobTitle} onChange={set('jobTitle')} maxLength={100} />
        </div>
        <div className="mw-admin-field">
          <label htmlFor="ppl-phone">{m.pplPhone}</label>
          <input id="ppl-phone" name="phone" type="tel" className="mw-admin-input mw-ppl-wide" value={f.phone} onChange={set('phone')} maxLength={40} />
        </div>
      </div>
      <div className="mw-ppl-two">
        <div className="mw-admin-field">
          <label htmlFor="ppl-department">{m.pplDepartment}</label>
          <DepartmentSelect m={m} id="ppl-department" value={f.departmentId} onChange={(v) => setF({ ...f, departmentId: v })} options={departments} allowNone={!person || person.departmentId === null} />
        </div>
        <div className="mw-admin-field">
          <label htmlFor="ppl-role">{m.pplRole}</label>
          <select id="ppl-role" name="role" className="mw-admin-input mw-ppl-select" value={f.role} onChange={set('role')}>
            <option value="user">{m.pplRoleUser}</option>
            <option value="admin">{m.pplRoleAdmin}</option>
          </select>
        </div>
      </div>
      <div className="mw-admin-field">
        <label htmlFor="ppl-quota">{m.pplQuota}</label>
        <input id="ppl-quota" name="quotaGb" inputMode="decimal" className="mw-admin-input mw-ppl-wide" value={f.quotaGb} onChange={set('quotaGb')} placeholder="5" />
        {person && <UsageBar used={person.usedBytes} quota={person.quotaBytes} label={m.pplUsage(formatFileSize(person.usedBytes), formatFileSize(person.quotaBytes), percent(person.usedBytes, person.quotaBytes))} />}
      </div>
      {error && <div className="mw-ppl-error" role="alert">{error}</div>}
      <div className="mw-admin-actions mw-ppl-pad">
        <button type="submit" className="mw-admin-btn is-primary" disabled={busy}>{person ? m.pplSave : m.pplCreate}</button>
        <button type="button" className="mw-admin-btn" onClick={onClose}>{m.pplCancel}</button>
      </div>
      {person && (
        <>
          {person.role === 'admin' && (
            <fieldset className="mw-admin-field mw-ppl-section mw-ppl-scope" data-scope>
              <legend>{m.pplScope}</legend>
              <div className="mw-admin-sub">{m.pplScopeHint}</div>
              {departments.filter(({ d }) => d.parentId !== null).map(({ d, depth }) => (
                <label key={d.id} className="mw-ppl-check" style={{ paddingLeft: depth * 14 }}>
                  <input type="checkbox" name="scope" value={d.id} checked={scope.has(d.id)} disabled={!d.inScope}
                    onChange={(e) => setScope((s) => { const n = new Set(s); if (e.target.checked) n.add(d.id); else n.delete(d.id); return n; })} />
                  {d.name}
                </label>
              ))}
              <button type="button" className="mw-admin-btn" disabled={busy} onClick={() => void act(() => adminPeopleApi.setScope(person.id, [...scope]), m.pplSaved, false)}>{m.pplScopeSave}</button>
            </fieldset>
          )}
          <div className="mw-admin-field mw-ppl-section">
            <label htmlFor="ppl-new-password">{m.pplNewPassword}</label>
            <div className="mw-admin-form mw-ppl-nopad">
              <input id="ppl-new-password" name="newPassword" type="text" className="mw-admin-input" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} placeholder={m.pplPasswordHint} autoComplete="new-password" />
              <button type="button" className="mw-admin-btn" disabled={busy || newPassword.length < 8} onClick={() => void reset()}>{m.pplResetPassword}</button>
            </div>
          </div>
          <div className="mw-admin-actions mw-ppl-pad">
            <button type="button" className="mw-admin-btn" data-action="toggle" disabled={busy} onClick={() => void toggle()}>{person.status === 'active' ? m.pplDisable : m.pplEnable}</button>
            <button type="button" className="mw-admin-btn is-danger" disabled={busy} onClick={() => void remove()}>{m.pplDelete}</button>
          </div>
        </>
      )}
    </form>
  );
}

/** The CSV import: pick a file, send it, and list each line that failed with its reason. */
function ImportForm({ m, onDone, onClose }: { m: PeopleMessages; onDone: () => Promise<void>; onClose: () => void }) {
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState('');
  const [result, setResult] = useState<PeopleImportResult | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setResult(null);
    setError('');
    setCsv(await file.text());
  };
  const run = async () => {
    setBusy(true);
    setError('');
    try {
      const r = await adminPeopleApi.importCsv(csv);
      setResult(r);
      if (r.created > 0) await onDone();
    } catch (err) {
      setError(peopleReason(m, err));
    } finally {
      setBusy(false);
    }
  };
  const failed = result?.lines.filter((l) => !l.ok) ?? [];
  return (
    <div className="mw-ppl-form">
      <h3>{m.pplImportTitle}</h3>
      <div className="mw-admin-intro">{m.pplImportHint}</div>
      <div className="mw-admin-actions mw-ppl-pad">
        <label className="mw-admin-btn mw-ppl-file">
          {fileName || m.pplImportPick}
          <input type="file" name="csv" accept=".csv,text/csv,text/plain" onChange={(e) => void pick(e)} />
        </label>
        <button type="button" className="mw-admin-btn is-primary" disabled={!csv || busy} onClick={() => void run()}>{m.pplImportRun}</button>
        <button type="button" className="mw-admin-btn" onClick={onClose}>{m.pplCancel}</button>
      </div>
      {error && <div className="mw-ppl-error" role="alert">{error}</div>}
      {result && (
        <div className="mw-ppl-result" data-import-result={`${result.created}/${result.failed}`}>
          <div className="mw-ppl-summary">{m.pplImportResult(result.created, result.failed)}</div>
          {failed.map((l) => (
            <div key={l.line} className="mw-ppl-line" data-line={l.line} data-reason={l.reason ?? ''}>
              <strong>{m.pplLine(l.line)}</strong> {l.email && <span className="mw-ppl-line-email">{l.email}</span>}
              <div>{(l.reason && m.pplReasons[l.reason]) || (l.reason && m.reasons[l.reason]) || l.error}</div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

type DeptEdit = { mode: 'add' | 'rename' | 'move'; value: string } | null;

/** People, departments and quotas (issue 17, scope 2): the tree, a department's people, their accounts, and storage. */
export default function AdminPeoplePage() {
  const m = usePeopleT();
  const [departments, setDepartments] = useState<AdminDepartment[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(null);
  const [deptEdit, setDeptEdit] = useState<DeptEdit>(null);
  const [deptError, setDeptError] = useState('');
  const [q, setQ] = useState('');
  const [people, setPeople] = useState<{ list: Person[]; total: number; page: number } | null>(null);
  const [editing, setEditing] = useState<Person | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [quota, setQuota] = useState<QuotaSummary | null>(null);
  const [companyGb, setCompanyGb] = useState('');
  const [quotaError, setQuotaError] = useState('');

  const tree = useMemo(() => childrenOf(departments ?? []), [departments]);
  const flat = useMemo(() => flatten(tree), [tree]);
  const current = departments?.find((d) => d.id === selected) ?? null;
  // The server's scope rule: an admin whose reach includes the top of the tree is company-wide (only they set the company total).
  const companyWide = Boolean(departments?.length) && (tree.get(null) ?? []).every((d) => d.inScope);

  const loadDepartments = useCallback(async () => {
    try {
      const list = (await adminPeopleApi.departments()).list;
      setDepartments(list);
      setFailed(false);
      // The top of the tree starts open, so its departments show at once.
      setExpanded((e) => (e.size > 0 ? e : new Set(list.filter((d) => d.parentId === null).map((d) => d.id))));
    } catch {
      setFailed(true);
    }
  }, []);
  const loadQuota = useCallback(async () => {
    try {
      const s = await adminPeopleApi.quota();
      setQuota(s);
      setCompanyGb(s.companyQuotaBytes === null ? '' : bytesToGb(s.companyQuotaBytes));
    } catch { /* the storage card stays hidden */ }
  }, []);
  const loadPeople = useCallback(async (page = 1) => {
    try {
      const r = await adminPeopleApi.list({ q: q.trim(), department: selected ?? undefined, page, size: PAGE_SIZE });
      setPeople((prev) => ({ list: page === 1 || !prev ? r.list : [...prev.list, ...r.list], total: r.total, page }));
    } catch (err) {
      Toast.show(peopleReason(m, err));
    }
  }, [q, selected, m]);

  useEffect(() => {
    void loadDepartments();
    void loadQuota();
  }, [loadDepartments, loadQuota]);
  // Typing in the search box asks once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => void loadPeople(1), q ? 300 : 0);
    return () => clearTimeout(timer);
  }, [loadPeople, q]);

  const refreshAll = async () => {
    await Promise.all([loadDepartments(), loadPeople(1), loadQuota()]);
  };

  const deptAct = async (call: () => Promise<unknown>) => {
    setDeptError('');
    try {
      await call();
      setDeptEdit(null);
      await refreshAll();
      return true;
    } catch (err) {
      setDeptError(peopleReason(m, err));
      return false;
    }
  };
  const saveDept = async (e: FormEvent) => {
    e.preventDefault();
    if (!current || !deptEdit) return;
    const value = deptEdit.value.trim();
    if (!value) return;
    if (deptEdit.mode === 'add') {
      await deptAct(async () => {
        const { id } = await adminPeopleApi.createDepartment(current.id, value);
        setExpanded((s) => new Set(s).add(current.id));
        setSelected(id);
      });
    } else if (deptEdit.mode === 'rename') {
      await deptAct(() => adminPeopleApi.renameDepartment(current.id, value));
    } else {
      await deptAct(() => adminPeopleApi.moveDepartment(current.id, value));
    }
  };
  const deleteDept = async () => {
    if (!current || !(await Dialog.confirm({ content: m.pplDeleteDeptConfirm(current.name), confirmText: m.pplDeleteDept, cancelText: m.pplCancel }))) return;
    if (await deptAct(() => adminPeopleApi.deleteDepartment(current.id))) setSelected(current.parentId);
  };
  const saveCompanyQuota = async (e: FormEvent) => {
    e.preventDefault();
    setQuotaError('');
    const bytes = gbToBytes(companyGb);
    if (companyGb.trim() !== '' && bytes === null) return setQuotaError(m.pplReasons['input.invalid']!);
    try {
      const s = await adminPeopleApi.setCompanyQuota(bytes);
      setQuota(s);
      Toast.show(m.pplSaved);
    } catch (err) {
      setQuotaError(peopleReason(m, err));
    }
  };
  const openPerson = async (id: string) => {
    try {
      setEditing(await adminPeopleApi.get(id));
    } catch (err) {
      Toast.show(peopleReason(m, err));
    }
  };

  const renderNode = (d: AdminDepartment, depth: number) => {
    const kids = tree.get(d.id) ?? [];
    const open = expanded.has(d.id);
    return (
      <li key={d.id}>
        <div className={`mw-ppl-node${selected === d.id ? ' is-selected' : ''}${d.inScope ? '' : ' is-out'}`} style={{ paddingLeft: 4 + depth * 18 }} data-dept={d.name}>
          {kids.length > 0 ? (
            <button type="button" className="mw-ppl-toggle" aria-expanded={open} aria-label={open ? m.pplCollapse : m.pplExpand}
              onClick={() => setExpanded((s) => { const n = new Set(s); if (open) n.delete(d.id); else n.add(d.id); return n; })}>
              {open ? '▾' : '▸'}
            </button>
          ) : <span className="mw-ppl-toggle" aria-hidden />}
          <button type="button" className="mw-ppl-name" disabled={!d.inScope} title={d.inScope ? undefined : m.pplOutOfScope}
            onClick={() => { setSelected(selected === d.id ? null : d.id); setDeptEdit(null); setDeptError(''); }}>
            <span>{d.name}</span>
            <span className="mw-ppl-count">{m.pplPeopleCount(d.people)}</span>
          </button>
        </div>
        {open && kids.length > 0 && <ul>{kids.map((k) => renderNode(k, depth + 1))}</ul>}
      </li>
    );
  };

  if (failed) return <AdminPage title={m.pplTitle}><ErrorState text={m.loadFailed} onRetry={() => void loadDepartments()} /></AdminPage>;
  const moveTargets = current ? flat.filter(({ d }) => !subtreeIds(tree, current.id).has(d.id)) : [];

  return (
    <AdminPage title={m.pplTitle}>
      <div className="mw-ppl">
        <section className="mw-admin-card mw-ppl-tree" data-card="departments">
          <h3>{m.pplDepartments}</h3>
          <ul>{(tree.get(null) ?? []).map((d) => renderNode(d, 0))}</ul>
          {current && (
            <div className="mw-ppl-dept-actions" data-selected={current.name}>
              <div className="mw-admin-actions">
                <button type="button" className="mw-admin-btn" onClick={() => setDeptEdit({ mode: 'add', value: '' })}>{m.pplAddDept}</button>
                <button type="button" className="mw-admin-btn" onClick={() => setDeptEdit({ mode: 'rename', value: current.name })}>{m.pplRenameDept}</button>
                {current.parentId !== null && (
                  <>
                    <button type="button" className="mw-admin-btn" onClick={() => setDeptEdit({ mode: 'move', value: current.parentId ?? '' })}>{m.pplMoveDept}</button>
                    <button type="button" className="mw-admin-btn is-danger" onClick={() => void deleteDept()}>{m.pplDeleteDept}</button>
                  </>
                )}
              </div>
              {deptEdit && (
                <form className="mw-admin-form mw-ppl-nopad" onSubmit={(e) => void saveDept(e)}>
                  {deptEdit.mode === 'move' ? (
                    <DepartmentSelect m={m} id="dept-parent" value={deptEdit.value} onChange={(v) => setDeptEdit({ ...deptEdit, value: v })} options={moveTargets} />
                  ) : (
                    <input name="deptName" className="mw-admin-input" value={deptEdit.value} maxLength={100} autoFocus
                      placeholder={m.pplDeptName} aria-label={m.pplDeptName} onChange={(e) => setDeptEdit({ ...deptEdit, value: e.target.value })} />
                  )}
                  <button type="submit" className="mw-admin-btn is-primary" disabled={!deptEdit.value.trim()}>{m.pplSave}</button>
                  <button type="button" className="mw-admin-btn" onClick={() => setDeptEdit(null)}>{m.pplCancel}</button>
                </form>
              )}
              {deptError && <div className="mw-ppl-error" role="alert">{deptError}</div>}
            </div>
          )}
        </section>

        <section className="mw-admin-card mw-ppl-people" data-card="people">
          <h3>{current ? current.name : companyWide ? m.pplAllPeople : m.pplAllScoped}</h3>
          <input type="search" name="q" className="mw-admin-input mw-ppl-wide mw-ppl-search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={m.pplSearch} aria-label={m.pplSearch} />
          <div className="mw-admin-actions">
            <button type="button" className="mw-admin-btn is-primary" onClick={() => setEditing('new')}>{m.pplAddUser}</button>
            <button type="button" className="mw-admin-btn" onClick={() => setImporting(true)}>{m.pplImport}</button>
          </div>
          <ul className="mw-ppl-list">
            {people && people.list.length === 0 && <li className="mw-admin-sub mw-ppl-empty">{m.pplNoPeople}</li>}
            {people?.list.map((p) => (
              <li key={p.id}>
                <button type="button" className="mw-ppl-person" data-person={p.email} data-status={p.status} onClick={() => void openPerson(p.id)}>
                  <span className="mw-ppl-person-head">
                    <span className="mw-ppl-person-name">{p.name}</span>
                    {p.role === 'admin' && <span className="mw-ppl-tag">{m.pplAdmin}</span>}
                    {p.status === 'disabled' && <span className="mw-ppl-tag is-off">{m.pplDisabled}</span>}
                  </span>
                  <span className="mw-admin-sub">{p.email}{p.jobTitle ? ` · ${p.jobTitle}` : ''}</span>
                  <UsageBar used={p.usedBytes} quota={p.quotaBytes} label={m.pplUsage(formatFileSize(p.usedBytes), formatFileSize(p.quotaBytes), percent(p.usedBytes, p.quotaBytes))} />
                </button>
              </li>
            ))}
          </ul>
          {people && people.list.length < people.total && (
            <div className="mw-admin-actions">
              <button type="button" className="mw-admin-btn" onClick={() => void loadPeople(people.page + 1)}>{m.pplLoadMore}</button>
              <span className="mw-admin-sub">{m.pplShown(people.list.length, people.total)}</span>
            </div>
          )}
        </section>

        {quota && (
          <section className="mw-admin-card" data-card="quota">
            <h3>{m.pplQuotaTitle}</h3>
            <UsageBar used={quota.usedBytes} quota={quota.companyQuotaBytes ?? quota.allocatedBytes}
              label={m.pplCompanyUsage(formatFileSize(quota.usedBytes), formatFileSize(quota.allocatedBytes), quota.companyQuotaBytes === null ? null : formatFileSize(quota.companyQuotaBytes))} />
            {companyWide && <form className="mw-ppl-quota-form" onSubmit={(e) => void saveCompanyQuota(e)}>
              <label htmlFor="company-quota">{m.pplCompanyQuota}</label>
              <div className="mw-admin-form mw-ppl-nopad">
                <input id="company-quota" name="companyQuota" inputMode="decimal" className="mw-admin-input" value={companyGb} onChange={(e) => setCompanyGb(e.target.value)} />
                <button type="submit" className="mw-admin-btn">{m.pplSetQuota}</button>
              </div>
            </form>}
            {quotaError && <div className="mw-ppl-error" role="alert">{quotaError}</div>}
            {quota.nearFull.length > 0 && (
              <div className="mw-ppl-near">
                <div className="mw-dns-label">{m.pplNearFull}</div>
                {quota.nearFull.map((u) => (
                  <button type="button" key={u.id} className="mw-ppl-person" onClick={() => void openPerson(u.id)}>
                    <span className="mw-admin-sub">{u.email}</span>
                    <UsageBar used={u.usedBytes} quota={u.quotaBytes} label={m.pplUsage(formatFileSize(u.usedBytes), formatFileSize(u.quotaBytes), percent(u.usedBytes, u.quotaBytes))} />
                  </button>
                ))}
              </div>
            )}
          </section>
        )}
      </div>

      <Popup visible={editing !== null} onMaskClick={() => setEditing(null)} bodyClassName="mw-ppl-sheet" destroyOnClose>
        {editing !== null && (
          <PersonForm key={editing === 'new' ? 'new' : editing.id} m={m} person={editing === 'new' ? null : editing} departments={flat}
            defaultDepartment={selected ?? ''} onDone={refreshAll} onClose={() => setEditing(null)} />
        )}
      </Popup>
      <Popup visible={importing} onMaskClick={() => setImporting(false)} bodyClassName="mw-ppl-sheet" destroyOnClose>
        {importing && <ImportForm m={m} onDone={refreshAll} onClose={() => setImporting(false)} />}
      </Popup>
    </AdminPage>
  );
}
