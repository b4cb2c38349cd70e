import { useState } from 'react';
import { ActionSheet, Button, Dialog, Input, List, Toast } from 'antd-mobile';
import { AddOutline, RightOutline } from 'antd-mobile-icons';
import type { Template, TemplateCategory, TemplateShelf } from '@mailwing/shared';
import type { templateApi } from '../../../api/mail-texts';
import { refusalText, useMailTextsT } from '../../../i18n/mail-texts';
import { groupByCategory } from '../../../state/template-groups';
import { usePageLayer } from '../../../ui/page-layer';
import { EditorSheet } from '../setting-signature/editor-sheet';
import { textOf } from '../setting-signature/text-of';

type ShelfApi = typeof templateApi.personal;
type Editing = { id: string | null; name: string; categoryId: string; subject: string; html: string; key: string } | null;

async function askName(title: string, confirmText: string, cancelText: string, current = ''): Promise<string | null> {
  let value = current;
  const ok = await Dialog.confirm({
    title,
    content: <Input className="mw-link-input" defaultValue={current} maxLength={30} autoFocus aria-label={title} onChange={(v) => { value = v; }} />,
    confirmText,
    cancelText,
  });
  return ok && value.trim() ? value.trim() : null;
}

/** A shelf of templates with its categories that the caller may change: personal, or the company's for its admin. */
export function ShelfEditor({ shelf, api, onChanged }: { shelf: TemplateShelf; api: ShelfApi; onChanged: () => Promise<void> }) {
  const m = useMailTextsT();
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [layer, openLayer] = usePageLayer();
  const refuse = (error: unknown) => Toast.show({ content: refusalText(m, error) });
  const categoryName = (id: string) => shelf.categories.find((c) => c.id === id)?.name ?? m.tplUncategorised;

  const open = (t: Template | null) => setEditing({
    id: t?.id ?? null, name: t?.name ?? '', categoryId: t?.categoryId ?? '', subject: t?.subject ?? '', html: t?.html ?? '', key: `${t?.id ?? 'new'}-${Date.now()}`,
  });

  const save = async () => {
    if (!editing) return;
    if (!editing.name.trim()) {
      Toast.show({ content: `${m.tplName}: ${m.reasons['input.too_short']}` });
      return;
    }
    setSaving(true);
    const v = { name: editing.name, categoryId: editing.categoryId, subject: editing.subject, html: editing.html };
    try {
      const saved = editing.id ? await api.update(editing.id, v) : await api.create(v);
      Toast.show({ content: saved.removedImages > 0 ? m.imagesRemoved(saved.removedImages) : m.saved });
      setEditing(null);
      await onChanged();
    } catch (error) {
      refuse(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (id: string, name: string) => {
    if (!(await Dialog.confirm({ content: m.tplDeleteConfirm(name), confirmText: m.delete, cancelText: m.cancel }))) return;
    try {
      await api.remove(id);
      setEditing(null);
      Toast.show({ content: m.deleted });
      await onChanged();
    } catch (error) {
      refuse(error);
    }
  };

  const addCategory = async () => {
    const name = await askName(m.tplAddCategory, m.save, m.cancel);
    if (!name) return;
    try {
      await api.createCategory(name);
      await onChanged();
    } catch (error) {
      refuse(error);
    }
  };

  const changeCategory = async (c: TemplateCategory, action: string) => {
    try {
      if (action === 'rename') {
        const name = await askName(m.tplRename, m.save, m.cancel, c.name);
        if (!name) return;
        await api.renameCategory(c.id, name);
      } else {
        if (!(await Dialog.confirm({ content: m.tplDeleteCategoryConfirm(c.name), confirmText: m.delete, cancelText: m.cancel }))) return;
        await api.removeCategory(c.id);
      }
      await onChanged();
    } catch (error) {
      refuse(error);
    }
  };
  const categoryActions = (c: TemplateCategory) => openLayer((control) => (
    <ActionSheet {...control} closeOnAction extra={c.name} cancelText={m.cancel}
      actions={[{ key: 'rename', text: m.tplRename }, { key: 'delete', text: m.delete, danger: true }]}
      onAction={(action) => void changeCategory(c, String(action.key))} />
  ));

  const pickCategory = () => openLayer((control) => (
    <ActionSheet {...control} closeOnAction cancelText={m.cancel}
      actions={[{ key: '', text: m.tplUncategorised }, ...shelf.categories.map((c) => ({ key: c.id, text: c.name }))]}
      onAction={(action) => setEditing((e) => (e ? { ...e, categoryId: String(action.key) } : e))} />
  ));

  const groups = groupByCategory(shelf, m.tplUncategorised);
  return (
    <>
      {groups.length === 0 && <div className="mw-texts-hint">{m.tplEmpty}</div>}
      {groups.map((g) => (
        <List key={g.id ?? 'none'} header={g.name} className="mw-gap" data-category={g.name}>
          {g.templates.map((t) => (
            <List.Item key={t.id} data-template={t.name} description={<div className="mw-texts-preview">{t.subject || textOf(t.html)}</div>} onClick={() => open(t)}>{t.name}</List.Item>
          ))}
        </List>
      ))}
      <div className="mw-padded"><Button block color="primary" fill="outline" data-action="new-template" onClick={() => open(null)}><AddOutline /> {m.tplAdd}</Button></div>
      <List header={m.tplCategories}>
        {shelf.categories.map((c) => <List.Item key={c.id} data-category-row={c.name} onClick={() => categoryActions(c)}>{c.name}</List.Item>)}
        <List.Item data-action="new-category" prefix={<AddOutline />} onClick={() => void addCategory()}>{m.tplAddCategory}</List.Item>
      </List>
      <EditorSheet
        open={editing !== null}
        editorKey={editing?.key ?? ''}
        title={editing?.id ? m.tplEdit : m.tplNew}
        initialHtml={editing?.html ?? ''}
        placeholder={m.tplBody}
        saving={saving}
        onHtml={(html) => setEditing((e) => (e ? { ...e, html } : e))}
        onCancel={() => setEditing(null)}
        onSave={() => void save()}
        fields={(
          <>
            <div className="mw-texts-field">
              <label htmlFor="mw-tpl-name">{m.tplName}</label>
              <Input id="mw-tpl-name" name="name" maxLength={60} placeholder={m.tplNamePlaceholder} value={editing?.name ?? ''} onChange={(name) => setEditing((e) => (e ? { ...e, name } : e))} />
            </div>
            <div className="mw-texts-field">
              <label>{m.tplCategory}</label>
              <a role="button" className="mw-texts-pick" data-action="pick-category" onClick={pickCategory}>
                <span>{editing?.categoryId ? categoryName(editing.categoryId) : m.tplUncategorised}</span><RightOutline />
              </a>
            </div>
            <div className="mw-texts-field">
              <label htmlFor="mw-tpl-subject">{m.tplSubject}</label>
              <Input id="mw-tpl-subject" name="subject" maxLength={998} placeholder={m.tplSubjectPlaceholder} value={editing?.subject ?? ''} onChange={(subject) => setEditing((e) => (e ? { ...e, subject } : e))} />
            </div>
          </>
        )}
        footer={(
          <>
            <div className="mw-texts-hint">{m.tplVariables}</div>
            {editing?.id && (
              <div className="mw-texts-danger">
                <Button block color="danger" fill="outline" onClick={() => void remove(editing.id!, editing.name)}>{m.delete}</Button>
              </div>
            )}
          </>
        )}
      />
      {layer}
    </>
  );
}

/** The company's templates as a user sees them: to read, and to use in compose. */
export function ReadOnlyShelf({ shelf }: { shelf: TemplateShelf }) {
  const m = useMailTextsT();
  const groups = groupByCategory(shelf, m.tplUncategorised);
  if (groups.length === 0) return <div className="mw-texts-hint">{m.tplCompanyEmpty}</div>;
  return (
    <>
      {groups.map((g) => (
        <List key={g.id ?? 'none'} header={g.name}>
          {g.templates.map((t) => (
            <List.Item key={t.id} data-company-template={t.name} description={<div className="mw-texts-preview">{t.subject || textOf(t.html)}</div>}
              onClick={() => void Dialog.alert({ title: t.name, content: <div className="mw-texts-hint">{t.subject && <p><b>{t.subject}</b></p>}{textOf(t.html)}</div>, confirmText: m.ok })}>
              {t.name}
            </List.Item>
          ))}
        </List>
      ))}
    </>
  );
}
