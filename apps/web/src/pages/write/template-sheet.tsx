import { useEffect, useState } from 'react';
import { List, Popup, SpinLoading } from 'antd-mobile';
import { fillTemplate, type Template, type TemplateBook } from '@mailwing/shared';
import type { Editor } from '@tiptap/react';
import { templateApi } from '../../api/mail-texts';
import { useMailTextsT } from '../../i18n/mail-texts';
import { compose } from '../../state/compose';
import { session } from '../../state/session';
import { reloadSettings, settingsStore } from '../../state/settings';
import { groupByCategory } from '../../state/template-groups';
import { EmptyState } from '../../ui/state-view';
import '../modules/setting-signature/mail-texts.css';

/** The toolbar's template button (the first of the two taps). */
export function TemplateTool({ onPress }: { onPress: () => void }) {
  const m = useMailTextsT();
  return (
    <button type="button" className="mw-tool" aria-label={m.tplInsert} title={m.tplInsert} data-action="insert-template"
      onMouseDown={(e) => e.preventDefault()} onClick={onPress}>
      <span className="mw-tool-glyph" aria-hidden="true">{'{ }'}</span>
    </button>
  );
}

/**
 * Fills the template's variables in for this mail and puts it in: its body at the cursor
 * (or as the body when the editor is empty), its subject when the subject is empty.
 */
export function insertTemplate(editor: Editor, t: Template, language: 'zh' | 'en'): void {
  const s = compose.get();
  const settings = settingsStore.get().settings;
  const first = s.to.find((r) => r.valid);
  const ctx = {
    recipient: first ? { name: first.name, email: first.address } : null,
    sender: { name: settings?.nickname, email: session.get().currentEmailName },
    company: settings?.company,
    now: new Date(),
    language,
    timeZone: settings?.notify.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  const body = fillTemplate(t.html, ctx);
  if (editor.isEmpty) editor.chain().focus().setContent(body, { emitUpdate: true }).run();
  else editor.chain().focus().insertContent(body).run();
  if (s.subject.trim() === '' && t.subject) compose.edit({ subject: fillTemplate(t.subject, ctx, false) });
}

/** The second tap: the user's and the company's templates, by category; one tap inserts. */
export function TemplateSheet({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (t: Template) => void }) {
  const m = useMailTextsT();
  const [book, setBook] = useState<TemplateBook | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!open) return;
    setFailed(false);
    void reloadSettings();
    templateApi.book().then(setBook, () => setFailed(true));
  }, [open]);
  const groups = book ? [
    ...groupByCategory(book.personal, m.tplUncategorised).map((g) => ({ ...g, title: g.name })),
    ...groupByCategory(book.company, m.tplUncategorised).map((g) => ({ ...g, title: `${m.tplCompany} · ${g.name}` })),
  ] : [];
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} bodyClassName="mw-tpl-sheet" aria-label={m.tplInsert}>
      <div className="mw-texts-group-title" role="heading" aria-level={2}>{m.tplInsert}</div>
      {!book && !failed ? <div className="mw-center mw-padded"><SpinLoading color="primary" /></div>
        : groups.length === 0 ? <EmptyState text={failed ? m.loadFailed : m.tplNoneToInsert} />
        : groups.map((g) => (
          <List key={`${g.title}-${g.id ?? ''}`} header={g.title}>
            {g.templates.map((t) => (
              <List.Item key={t.id} data-template={t.name} arrowIcon={false} description={t.subject || undefined} onClick={() => onPick(t)}>{t.name}</List.Item>
            ))}
          </List>
        ))}
    </Popup>
  );
}

