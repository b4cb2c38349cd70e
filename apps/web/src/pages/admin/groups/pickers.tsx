import { useEffect, useState } from 'react';
import { Button, Checkbox, Input, List } from 'antd-mobile';
import type { AdminDepartment, Person } from '@mailwing/shared';
import { pickerApi } from '../../../api/groups';
import { useGroupsT } from '../../../i18n/groups';
import './groups.css';

/** A chosen person: the id the server wants and what the admin recognises. */
export interface Picked { id: string; label: string }

export const personLabel = (p: Pick<Person, 'name' | 'email'>) => (p.name ? `${p.name} <${p.email}>` : p.email);
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function Chips({ items, onRemove }: { items: Picked[]; onRemove: (id: string) => void }) {
  const m = useGroupsT();
  if (items.length === 0) return null;
  return (
    <div className="mw-pick-chips">
      {items.map((p) => (
        <button type="button" key={p.id} className="mw-pick-chip" aria-label={m.pickRemove(p.label)} onClick={() => onRemove(p.id)} data-chip={p.label}>
          <span>{p.label}</span><span aria-hidden="true">×</span>
        </button>
      ))}
    </div>
  );
}

/**
 * People of the admin's scope, found by name or address as the admin types (the
 * console's people list does the matching). `single` replaces the choice instead of adding.
 */
export function PeoplePicker({ value, onChange, single = false, field }: { value: Picked[]; onChange: (v: Picked[]) => void; single?: boolean; field?: string }) {
  const m = useGroupsT();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<Person[] | null>(null);
  useEffect(() => {
    if (!q.trim()) { setFound(null); return; }
    let live = true;
    const t = setTimeout(() => {
      pickerApi.people(q.trim()).then((r) => { if (live) setFound(r.list); }, () => { if (live) setFound([]); });
    }, 250);
    return () => { live = false; clearTimeout(t); };
  }, [q]);
  const chosen = new Set(value.map((p) => p.id));
  const pick = (p: Person) => {
    const item = { id: p.id, label: personLabel(p) };
    onChange(single ? [item] : [...value, item]);
    setQ('');
  };
  return (
    <div className="mw-pick">
      <Chips items={value} onRemove={(id) => onChange(value.filter((p) => p.id !== id))} />
      <div className="mw-pick-row"><Input placeholder={m.pickSearch} value={q} onChange={setQ} clearable data-field={field ?? 'pick-person'} /></div>
      {found && (
        <List className="mw-pick-results">
          {found.length === 0 && <List.Item>{m.pickNone}</List.Item>}
          {found.filter((p) => !chosen.has(p.id)).slice(0, 8).map((p) => (
            <List.Item key={p.id} onClick={() => pick(p)} description={p.email} data-person={p.email}>{p.name || p.email}</List.Item>
          ))}
        </List>
      )}
    </div>
  );
}

/** Departments as an indented tree of checkboxes; those outside the admin's scope cannot be ticked. */
export function DepartmentPicker({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const [list, setList] = useState<AdminDepartment[]>([]);
  useEffect(() => { pickerApi.departments().then((r) => setList(r.list), () => setList([])); }, []);
  const depth = new Map<string, number>();
  const byParent = new Map<string | null, AdminDepartment[]>();
  for (const d of list) byParent.set(d.parentId, [...(byParent.get(d.parentId) ?? []), d]);
  const ordered: AdminDepartment[] = [];
  const walk = (parent: string | null, level: number) => {
    for (const d of byParent.get(parent) ?? []) { depth.set(d.id, level); ordered.push(d); walk(d.id, level + 1); }
  };
  walk(null, 0);
  return (
    <Checkbox.Group value={value} onChange={(v) => onChange(v as string[])}>
      <List className="mw-pick-depts">
        {ordered.map((d) => (
          <List.Item key={d.id} style={{ paddingLeft: 12 + 16 * (depth.get(d.id) ?? 0) }}>
            <Checkbox value={d.id} disabled={!d.inScope} className="mw-pick-check" data-dept={d.name}>{d.name}</Checkbox>
          </List.Item>
        ))}
      </List>
    </Checkbox.Group>
  );
}

/** Addresses typed one at a time (outside members, allowed senders), checked for shape before they are added. */
export function AddressList({ value, onChange, field }: { value: string[]; onChange: (v: string[]) => void; field: string }) {
  const m = useGroupsT();
  const [text, setText] = useState('');
  const [bad, setBad] = useState(false);
  const add = () => {
    const a = text.trim().toLowerCase();
    if (!ADDRESS.test(a)) { setBad(true); return; }
    setBad(false);
    if (!value.includes(a)) onChange([...value, a]);
    setText('');
  };
  return (
    <div className="mw-pick">
      <Chips items={value.map((a) => ({ id: a, label: a }))} onRemove={(a) => onChange(value.filter((x) => x !== a))} />
      <div className="mw-pick-row">
        <Input placeholder="name@example.com" value={text} onChange={(v) => { setText(v); setBad(false); }} onEnterPress={add} data-field={field} />
        <Button className="mw-pick-touch" onClick={add} data-action={`${field}-add`}>{m.add}</Button>
      </div>
      {bad && <div className="mw-pick-error">{m.badAddress}</div>}
    </div>
  );
}
