import type { Folder, RuleAction, RuleCondition, Tag } from '@mailwing/shared';
import type { MailRulesMessages } from '../../../i18n/mail-rules';
import { folderName } from '../../../ui/folder-name';

type Field = RuleCondition['field'];
type ActionType = RuleAction['type'];

/** A fresh condition of a kind, with the first operator that fits it. */
export function newCondition(field: Field): RuleCondition {
  switch (field) {
    case 'size': return { field, op: 'over', value: 1024 };
    case 'attachment': return { field, op: 'yes' };
    case 'header': return { field, name: '', op: 'contains', value: '' };
    default: return { field, op: 'contains', value: '' };
  }
}

export function newAction(type: ActionType, folders: Folder[], tags: readonly Tag[]): RuleAction {
  switch (type) {
    case 'move': return { type, folder: folders.find((f) => Number(f.mid) >= 100)?.mid ?? '6' };
    case 'tag': return { type, tag: tags[0]?.id ?? '' };
    case 'forward': return { type, to: '' };
    case 'reject': return { type, message: '' };
    default: return { type };
  }
}

/** Whether a draft can be counted or saved: every text that needs a value has one. */
export function complete(c: RuleCondition): boolean {
  if (c.field === 'attachment' || c.field === 'size') return true;
  if (c.field === 'header') return c.name.trim() !== '' && (c.op === 'exists' || c.value.trim() !== '');
  return c.value.trim() !== '';
}

const Select = <T extends string>({ value, options, onChange, label }: { value: T; options: [T, string][]; onChange: (v: T) => void; label: string }) => (
  <select className="mw-rule-select" aria-label={label} value={value} onChange={(e) => onChange(e.target.value as T)}>
    {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
  </select>
);

export function ConditionRow({ m, c, onChange, onRemove }: { m: MailRulesMessages; c: RuleCondition; onChange: (c: RuleCondition) => void; onRemove: () => void }) {
  const fields: [Field, string][] = [['from', m.fieldFrom], ['to', m.fieldTo], ['subject', m.fieldSubject], ['body', m.fieldBody], ['size', m.fieldSize], ['attachment', m.fieldAttachment], ['header', m.fieldHeader]];
  const textOps: [string, string][] = [['contains', m.opContains], ['not_contains', m.opNotContains], ['equals', m.opEquals]];
  let rest;
  if (c.field === 'size') {
    rest = (<>
      <Select label={m.fieldSize} value={c.op} options={[['over', m.opOver], ['under', m.opUnder]]} onChange={(op) => onChange({ ...c, op })} />
      <input className="mw-rule-input" type="number" min={1} inputMode="numeric" aria-label={m.value} value={c.value} onChange={(e) => onChange({ ...c, value: Number(e.target.value) || 1 })} />
    </>);
  } else if (c.field === 'attachment') {
    rest = <Select label={m.fieldAttachment} value={c.op} options={[['yes', m.opYes], ['no', m.opNo]]} onChange={(op) => onChange({ ...c, op })} />;
  } else if (c.field === 'header') {
    rest = (<>
      <input className="mw-rule-input" aria-label={m.headerName} placeholder={m.headerName} value={c.name} onChange={(e) => onChange({ ...c, name: e.target.value })} />
      <Select label={m.fieldHeader} value={c.op} options={[...textOps, ['exists', m.opExists]] as [typeof c.op, string][]} onChange={(op) => onChange({ ...c, op })} />
      {c.op === 'exists' ? null : <input className="mw-rule-input" aria-label={m.value} placeholder={m.value} value={c.value} onChange={(e) => onChange({ ...c, value: e.target.value })} />}
    </>);
  } else {
    const ops = (c.field === 'from' || c.field === 'to' ? [...textOps, ['domain', m.opDomain]] : textOps) as [typeof c.op, string][];
    rest = (<>
      <Select label={m.ruleMatch} value={c.op} options={ops} onChange={(op) => onChange({ ...c, op })} />
      <input className="mw-rule-input" aria-label={m.value} placeholder={m.value} value={c.value} onChange={(e) => onChange({ ...c, value: e.target.value })} />
    </>);
  }
  return (
    <div className="mw-rule-row" data-condition={c.field}>
      <Select label={m.conditions} value={c.field} options={fields} onChange={(f) => onChange(newCondition(f))} />
      {rest}
      <button type="button" className="mw-rule-remove" aria-label={m.remove} onClick={onRemove}>×</button>
    </div>
  );
}

export function ActionRow({ m, a, folders, tags, onChange, onRemove }: {
  m: MailRulesMessages; a: RuleAction; folders: Folder[]; tags: readonly Tag[]; onChange: (a: RuleAction) => void; onRemove: () => void;
}) {
  const types: [ActionType, string][] = [['move', m.actMove], ['tag', m.actTag], ['read', m.actRead], ['star', m.actStar], ['forward', m.actForward], ['delete', m.actDelete], ['reject', m.actReject]];
  let rest = null;
  if (a.type === 'move') {
    const targets = folders.filter((f) => f.mid !== '1' && f.mid !== '2');
    rest = <Select label={m.chooseFolder} value={a.folder} options={targets.map((f) => [f.mid, folderName(m, f)])} onChange={(folder) => onChange({ ...a, folder })} />;
  } else if (a.type === 'tag') {
    rest = tags.length === 0 ? <span className="mw-rule-note">{m.noTags}</span>
      : <Select label={m.chooseTag} value={a.tag} options={tags.map((t) => [t.id, t.name])} onChange={(tag) => onChange({ ...a, tag })} />;
  } else if (a.type === 'forward') {
    rest = <input className="mw-rule-input" type="email" aria-label={m.forwardTo} placeholder={m.forwardTo} value={a.to} onChange={(e) => onChange({ ...a, to: e.target.value })} />;
  } else if (a.type === 'reject') {
    rest = <input className="mw-rule-input" aria-label={m.rejectMessage} placeholder={m.rejectMessage} value={a.message} onChange={(e) => onChange({ ...a, message: e.target.value })} />;
  }
  return (
    <div className="mw-rule-row" data-action={a.type}>
      <Select label={m.actions} value={a.type} options={types} onChange={(t) => onChange(newAction(t, folders, tags))} />
      {rest}
      <button type="button" className="mw-rule-remove" aria-label={m.remove} onClick={onRemove}>×</button>
    </div>
  );
}
