import { useEffect, useState } from 'react';
import { Button, Dialog, Form, Input, List, Radio, Selector, Toast } from 'antd-mobile';
import type { AuditRule } from '@mailwing/shared';
import { auditApi } from '../../../api/audit';
import type { ApiError } from '../../../api/request';
import { auditReason, useAuditT } from '../../../i18n/audit';
import { AdminPage } from '../admin-page';
import { DepartmentPicker, PeoplePicker, type Picked } from '../groups/pickers';
import '../admin-audit.css';

const KINDS = ['external', 'keyword', 'member', 'department', 'domain', 'size', 'all'] as const;

/** Audit rules (issue 17, scope 4): who or what holds outgoing mail, who decides, and what a timeout does. */
export default function AdminAuditPage() {
  const m = useAuditT();
  const [rules, setRules] = useState<AuditRule[] | null>(null);
  const [editing, setEditing] = useState(false);
  const [kind, setKind] = useState<string>('external');
  const [onTimeout, setOnTimeout] = useState<'pass' | 'reject'>('pass');
  // Members, departments and auditors are picked by name, never typed as ids.
  const [members, setMembers] = useState<Picked[]>([]);
  const [departments, setDepartments] = useState<string[]>([]);
  const [auditors, setAuditors] = useState<Picked[]>([]);
  const [form] = Form.useForm();
  const fail = (err: ApiError) => Toast.show({ content: auditReason(m, err) });
  const load = () => auditApi.rules().then((r) => setRules(r.list), fail);
  useEffect(() => { void load(); }, []);

  const save = async () => {
    const v = form.getFieldsValue() as { name?: string; condition?: string; timeoutMin?: string };
    const c = (v.condition ?? '').trim();
    const params = kind === 'keyword' ? { keywords: c } : kind === 'member' ? { userIds: members.map((p) => p.id) } : kind === 'department' ? { departmentIds: departments }
      : kind === 'domain' ? { domains: c } : kind === 'size' ? { minBytes: Math.round(Number(c) * 1024 * 1024) } : {};
    try {
      await auditApi.saveRule({ name: v.name ?? '', kind, params: JSON.stringify(params), auditors: auditors.map((p) => p.id).join(','), timeoutMin: Number(v.timeoutMin || 1440), onTimeout });
      setEditing(false);
      form.resetFields();
      setMembers([]);
      setDepartments([]);
      setAuditors([]);
      await load();
    } catch (err) { fail(err as ApiError); }
  };

  const remove = async (id: string) => {
    if (!(await Dialog.confirm({ content: m.auditDeleteConfirm, confirmText: m.auditDelete, cancelText: m.auditCancel }))) return;
    await auditApi.deleteRule(id).then(load, fail);
  };

  return (
    <AdminPage title={m.auditRulesTitle}>
      <div className="mw-audit" data-page="admin-audit" data-state={rules ? 'ready' : 'loading'}>
        {rules && rules.length === 0 && <div className="mw-audit-empty">{m.auditNoRules}</div>}
        <List>
          {(rules ?? []).map((r) => (
            <List.Item key={r.id} data-rule={r.name}
              description={<>{m.auditKinds[r.kind]} · {m.auditBy(r.auditors.map((a) => a.name || a.email).join(', '))} · {m.auditTimeoutText(r.timeoutMin, r.onTimeout === 'pass')}</>}
              extra={<Button size="small" fill="none" className="mw-audit-touch" onClick={() => void remove(r.id)}>{m.auditDelete}</Button>}>
              {r.name}
            </List.Item>
          ))}
        </List>
        {/* Shown once the rules are in: a button that moves as the list arrives takes a tap meant for it on a rule. */}
        {rules && !editing && <Button block color="primary" className="mw-audit-touch" onClick={() => setEditing(true)} data-action="add-rule">{m.auditAddRule}</Button>}
        {editing && (
          <Form form={form} layout="vertical" footer={<Button block color="primary" onClick={() => void save()} data-action="save-rule">{m.auditSave}</Button>}>
            <Form.Item name="name" label={m.auditRuleName}><Input data-field="rule-name" maxLength={60} /></Form.Item>
            <Form.Item label={m.auditKind}>
              <Selector columns={2} options={KINDS.map((k) => ({ label: m.auditKinds[k], value: k }))} value={[kind]} onChange={(v) => v[0] && setKind(v[0])} />
            </Form.Item>
            {kind === 'member' && <Form.Item label={m.auditConditionHint.member}><PeoplePicker value={members} onChange={setMembers} field="rule-member" /></Form.Item>}
            {kind === 'department' && <Form.Item label={m.auditConditionHint.department}><DepartmentPicker value={departments} onChange={setDepartments} /></Form.Item>}
            {kind !== 'member' && kind !== 'department' && m.auditConditionHint[kind] && <Form.Item name="condition" label={m.auditConditionHint[kind]}><Input data-field="rule-condition" /></Form.Item>}
            <Form.Item label={m.auditAuditors}><PeoplePicker value={auditors} onChange={setAuditors} field="rule-auditor" /></Form.Item>
            <Form.Item name="timeoutMin" label={m.auditTimeout}><Input type="number" placeholder="1440" data-field="rule-timeout" /></Form.Item>
            <Form.Item label={m.auditOnTimeout}>
              <Radio.Group value={onTimeout} onChange={(v) => setOnTimeout(v as 'pass' | 'reject')}>
                <Radio value="pass" className="mw-audit-radio">{m.auditTimeoutPass}</Radio>
                <Radio value="reject" className="mw-audit-radio">{m.auditTimeoutReject}</Radio>
              </Radio.Group>
            </Form.Item>
          </Form>
        )}
      </div>
    </AdminPage>
  );
}
