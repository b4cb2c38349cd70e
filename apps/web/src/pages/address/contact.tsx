import { useEffect, useState } from 'react';
import { Button, Dialog, Form, Input, List, Selector, SpinLoading, Switch, Toast } from 'antd-mobile';
import { MailOutline, PhoneFill, StarFill } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isEmail, type Contact, type ContactGroup } from '@mailwing/shared';
import { contactsApi, type ContactForm } from '../../api/contacts';
import { ApiError } from '../../api/request';
import { useAddressT } from '../../i18n/address';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';
import { ADDRESS_ROUTES, useGoBack, writeTo } from './hooks';
import { Initial } from './rows';
import { formErrors } from './server-text';
import './address.css';

type Values = Omit<ContactForm, 'id'>;

const EMPTY: Values = { name: '', email: '', phone: '', company: '', jobTitle: '', jobNumber: '', groupIds: [], important: false };

/**
 * A contact (?id=): its card, with write, call and Edit; ?id=&edit=1 (and no id,
 * a new contact) is the form: name and address required (spec §5), the rest optional.
 */
export default function ContactPage() {
  const m = useAddressT();
  const navigate = useNavigate();
  const goBack = useGoBack(ADDRESS_ROUTES.tab);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  // Tapping a contact shows who it is; editing is a step further (the card's Edit, a swipe's Edit).
  const editing = !id || params.get('edit') === '1';
  const [form] = Form.useForm<Values>();
  const [groups, setGroups] = useState<ContactGroup[] | null>(null);
  const [contact, setContact] = useState<Contact | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  const load = () => {
    setFailed(false);
    contactsApi.list('', undefined, true).then((result) => {
      setGroups(result.groups);
      const found = id ? result.list.find((c) => c.id === id) ?? null : null;
      if (id && !found) return setFailed(true);
      setContact(found);
      if (found) {
        const { name, email, phone, company, jobTitle, jobNumber, groupIds, important } = found;
        form.setFieldsValue({ name, email, phone, company, jobTitle, jobNumber, groupIds, important });
      }
    }, () => setFailed(true));
  };
  useEffect(load, [id, editing]);

  const save = async (values: Values) => {
    setSaving(true);
    try {
      await contactsApi.save({ ...EMPTY, ...values, id: id || undefined });
      Toast.show({ content: m.abSaved });
      goBack();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fields = formErrors(error.fields);
      if (fields.length > 0) form.setFields(fields);
      Toast.show({ content: fields[0]?.errors[0] ?? error.message });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!contact) return;
    const confirmed = await Dialog.confirm({ content: m.abDeleteConfirm(contact.name), confirmText: m.delete, cancelText: m.cancel });
    if (!confirmed) return;
    await contactsApi.remove([contact.id]);
    Toast.show({ content: m.abDeleted });
    goBack();
  };

  const title = !editing ? m.titleContactCard : id ? m.titleContactEdit : m.titleContactNew;
  if (failed) return <Page title={title} back={ADDRESS_ROUTES.tab}><ErrorState onRetry={load} /></Page>;
  const ready = groups !== null;
  if (!editing) {
    const edit = (
      <button type="button" className="mw-ab-nav-text" data-action="edit-contact" disabled={!contact}
        onClick={() => navigate(`${ADDRESS_ROUTES.contact}?id=${encodeURIComponent(id)}&edit=1`)}>
        {m.abEdit}
      </button>
    );
    const groupNames = contact && groups ? groups.filter((g) => contact.groupIds.includes(g.id)).map((g) => g.name).join(', ') : '';
    return (
      <Page title={title} back={ADDRESS_ROUTES.tab} right={edit}>
        {!contact ? <div className="mw-center"><SpinLoading color="primary" /></div> : (
          <div data-testid="contact-card">
            <div className="mw-ab-profile">
              <Initial name={contact.name} email={contact.email} />
              <div className="mw-ab-profile-name">
                {contact.name}{contact.important && <StarFill className="mw-star" aria-label={m.abImportant} />}
              </div>
              <div className="mw-ab-profile-sub">{contact.email}</div>
            </div>
            <div className="mw-ab-actions mw-ab-card-actions">
              <Button color="primary" onClick={() => writeTo(navigate, contact.name, contact.email)} data-action="write">
                <MailOutline /> {m.abWriteMail}
              </Button>
              {contact.phone && (
                <a className="mw-ab-tel" href={`tel:${contact.phone}`} data-action="call"><PhoneFill /> {m.abCall}</a>
              )}
            </div>
            <List className="mw-ab-details">
              <List.Item extra={<a className="mw-ab-value" href={`mailto:${contact.email}`}>{contact.email}</a>}>{m.email}</List.Item>
              <List.Item extra={contact.phone ? <a href={`tel:${contact.phone}`}>{contact.phone}</a> : '—'}>{m.abPhone}</List.Item>
              <List.Item extra={contact.company || '—'}>{m.company}</List.Item>
              <List.Item extra={contact.jobTitle || '—'}>{m.abJobTitle}</List.Item>
              {contact.jobNumber && <List.Item extra={contact.jobNumber}>{m.abJobNumber}</List.Item>}
              {groupNames && <List.Item extra={groupNames}>{m.titleGroups}</List.Item>}
            </List>
          </div>
        )}
      </Page>
    );
  }
  return (
    <Page title={title} back={ADDRESS_ROUTES.tab}>
      {!ready && <div className="mw-center"><SpinLoading color="primary" /></div>}
      <Form
        form={form}
        className="mw-ab-form"
        layout="horizontal"
        style={ready ? undefined : { display: 'none' }}
        initialValues={EMPTY}
        onFinish={(values) => void save(values)}
        footer={
          <>
            <Button block type="submit" color="primary" size="large" loading={saving}>{m.abSave}</Button>
            {contact && <Button block className="mw-gap" color="danger" fill="outline" onClick={() => void remove()}>{m.delete}</Button>}
          </>
        }
      >
        <Form.Item name="name" label={m.name} rules={[{ required: true, whitespace: true, message: m.abNameRequired }]}>
          <Input name="name" clearable maxLength={100} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="email"
          label={m.email}
          rules={[
            { required: true, whitespace: true, message: m.abEmailRequired },
            { validator: async (_rule, value: string) => {
              if (value?.trim() && !isEmail(value.trim())) throw new Error(m.emailInvalid);
            } },
          ]}
        >
          <Input name="email" type="email" clearable autoComplete="off" placeholder={m.emailPlaceholder} />
        </Form.Item>
        <Form.Item name="phone" label={m.abPhone}>
          <Input name="phone" type="tel" clearable maxLength={40} placeholder={m.abOptional} />
        </Form.Item>
        <Form.Item name="company" label={m.company}>
          <Input name="company" clearable maxLength={100} placeholder={m.abOptional} />
        </Form.Item>
        <Form.Item name="jobTitle" label={m.abJobTitle}>
          <Input name="jobTitle" clearable maxLength={100} placeholder={m.abOptional} />
        </Form.Item>
        <Form.Item name="jobNumber" label={m.abJobNumber}>
          <Input name="jobNumber" clearable maxLength={40} placeholder={m.abOptional} />
        </Form.Item>
        {groups && groups.length > 0 && (
          <Form.Item name="groupIds" label={m.titleGroups} layout="vertical">
            <Selector multiple options={groups.map((g) => ({ label: g.name, value: g.id }))} />
          </Form.Item>
        )}
        <Form.Item name="important" label={m.abMark} valuePropName="checked" childElementPosition="right">
          <Switch />
        </Form.Item>
      </Form>
    </Page>
  );
}
