import { useEffect, useState } from 'react';
import { Button, Form, Input, Picker, Selector, SpinLoading, Toast } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import { isEmail, type DepartmentTree } from '@mailwing/shared';
import { directoryApi } from '../../../api/directory';
import { api } from '../../../api/endpoints';
import { ApiError } from '../../../api/request';
import { useAddressT } from '../../../i18n/address';
import { reasonText } from '../../../i18n/reason-text';
import { flattenDepartments } from '../../../state/address-book';
import { Page } from '../../../ui/page';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import { ADDRESS_ROUTES, useGoBack } from '../../address/hooks';
import { formErrors } from '../../address/server-text';
import '../../address/address.css';

interface Values {
  email: string;
  password: string;
  name: string;
  /** Picker and Selector values are arrays of one. */
  departmentId: string[];
  jobTitle: string;
  phone: string;
  role: Array<'user' | 'admin'>;
}

/**
 * Edit member (spec §2, §6), for admins: ?id= edits one, otherwise a new
 * member (?dept= preselects the department). The server decides who may do
 * what; its refusals (not an admin, a demo company, outside the admin's
 * departments, an admin in the root department) are shown as it words them.
 */
export default function MemberEditPage() {
  const m = useAddressT();
  const goBack = useGoBack(ADDRESS_ROUTES.company);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [form] = Form.useForm<Values>();
  const [tree, setTree] = useState<DepartmentTree | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  // Spec §6: only admins edit members. A user who reaches this page (a link, history)
  // is told so instead of being shown a form the server would refuse.
  const [denied, setDenied] = useState<string | null>(null);

  const load = () => {
    setFailed(false);
    Promise.all([api.check(), directoryApi.departments(true), id ? directoryApi.member(id) : Promise.resolve(null)]).then(async ([account, departments, member]) => {
      if (account.role !== 'admin') {
        setDenied((await reasonText('admin.required')) ?? m.requestFailed);
        return;
      }
      setTree(departments);
      if (member) {
        form.setFieldsValue({
          name: member.name, email: member.email, departmentId: member.departmentId ? [member.departmentId] : [], jobTitle: member.jobTitle, phone: member.phone, role: [member.role],
        });
      } else {
        const dept = params.get('dept');
        form.setFieldsValue({ departmentId: dept ? [dept] : [], role: ['user'] });
      }
    }, () => setFailed(true));
  };
  useEffect(load, [id]);

  const save = async (values: Values) => {
    setSaving(true);
    try {
      await directoryApi.edit({
        id: id || undefined,
        email: id ? undefined : values.email.trim(),
        password: id ? undefined : values.password,
        name: values.name.trim(),
        departmentId: values.departmentId[0] ?? '',
        jobTitle: values.jobTitle?.trim() ?? '',
        phone: values.phone?.trim() ?? '',
        role: values.role[0] ?? 'user',
      });
      Toast.show({ content: m.abSaved });
      goBack();
    } catch (error) {
      // The request layer has toasted the server's words; a 422 also marks its fields.
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) form.setFields(formErrors(error.fields));
    } finally {
      setSaving(false);
    }
  };

  if (failed) return <Page title={m.titleMemberEdit} back={ADDRESS_ROUTES.company}><ErrorState onRetry={load} /></Page>;
  if (denied !== null) return <Page title={m.titleMemberEdit} back={ADDRESS_ROUTES.company}><div data-testid="admin-only"><EmptyState text={denied} /></div></Page>;
  const departments = tree ? flattenDepartments(tree.list, tree.rootId) : [];
  const options = departments.map(({ department, depth }) => ({ label: `${'\u3000'.repeat(depth)}${department.name}`, value: department.id }));
  return (
    <Page title={m.titleMemberEdit} back={ADDRESS_ROUTES.company}>
      {!tree && <div className="mw-center"><SpinLoading color="primary" /></div>}
      <Form
        form={form}
        className="mw-ab-form"
        layout="horizontal"
        style={tree ? undefined : { display: 'none' }}
        initialValues={{ email: '', password: '', name: '', departmentId: [], jobTitle: '', phone: '', role: ['user'] }}
        onFinish={(values) => void save(values)}
        footer={<Button block type="submit" color="primary" size="large" loading={saving}>{m.abSave}</Button>}
      >
        <Form.Item
          name="email"
          label={m.email}
          disabled={Boolean(id)}
          rules={id ? [] : [
            { required: true, whitespace: true, message: m.emailInvalid },
            { validator: async (_r, v: string) => {
              if (v?.trim() && !isEmail(v.trim())) throw new Error(m.emailInvalid);
            } },
          ]}
        >
          <Input name="email" type="email" autoComplete="off" placeholder={m.emailPlaceholder} />
        </Form.Item>
        {!id && (
          <Form.Item name="password" label={m.abInitialPassword} rules={[{ required: true, min: 8, message: m.abPasswordShort }]}>
            <Input name="password" type="password" autoComplete="new-password" placeholder={m.abPasswordShort} />
          </Form.Item>
        )}
        <Form.Item name="name" label={m.name} rules={[{ required: true, whitespace: true, message: m.abNameEmpty }]}>
          <Input name="name" clearable maxLength={100} />
        </Form.Item>
        <Form.Item
          name="departmentId"
          label={m.abDepartment}
          trigger="onConfirm"
          rules={[{ required: true, type: 'array', min: 1, message: m.abChooseDepartment }]}
          onClick={(_e, picker) => picker.current?.open()}
          arrow
        >
          <Picker columns={[options]} confirmText={m.ok} cancelText={m.cancel} title={m.abChooseDepartment}>
            {(items) => <span data-field="department">{items[0] ? items[0].value && departments.find((d) => d.department.id === items[0]!.value)?.department.name : <span className="mw-muted">{m.abChooseDepartment}</span>}</span>}
          </Picker>
        </Form.Item>
        <Form.Item name="jobTitle" label={m.abJobTitle}>
          <Input name="jobTitle" clearable maxLength={100} placeholder={m.abOptional} />
        </Form.Item>
        <Form.Item name="phone" label={m.abPhone}>
          <Input name="phone" type="tel" clearable maxLength={40} placeholder={m.abOptional} />
        </Form.Item>
        <Form.Item name="role" label={m.role} rules={[{ required: true, type: 'array', min: 1 }]}>
          <Selector options={[{ label: m.roleUser, value: 'user' }, { label: m.roleAdmin, value: 'admin' }]} />
        </Form.Item>
      </Form>
    </Page>
  );
}
