import { useEffect, useState } from 'react';
import { ActionSheet, Button, Dialog, Input, List, PullToRefresh, Toast } from 'antd-mobile';
import { EditSOutline } from 'antd-mobile-icons';
import type { Signature, SignatureList } from '@mailwing/shared';
import { signatureApi } from '../../../api/mail-texts';
import { refusalText, useMailTextsT } from '../../../i18n/mail-texts';
import { Page } from '../../../ui/page';
import { usePageLayer } from '../../../ui/page-layer';
import { EmptyState, ErrorState } from '../../../ui/state-view';
import { TAB_ROUTES } from '../../../ui/tab-layout';
import { EditorSheet } from './editor-sheet';
import { textOf } from './text-of';

type Editing = { id: string | null; name: string; html: string; key: string } | null;

/** Settings › Signatures (issue 16): several per mailbox, one for new mail and one for replies/forwards. */
export default function SettingSignaturePage() {
  const m = useMailTextsT();
  const [data, setData] = useState<SignatureList | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [saving, setSaving] = useState(false);
  const [layer, openLayer] = usePageLayer();

  const load = async () => {
    try {
      setData(await signatureApi.list());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const nameOf = (id: string | null) => data?.list.find((s) => s.id === id)?.name ?? m.sigNone;
  const refuse = (error: unknown) => Toast.show({ content: refusalText(m, error) });

  const chooseDefault = (which: 'newMail' | 'reply') => {
    if (!data) return;
    const options = [
      ...(which === 'reply' ? [{ key: 'same', text: m.sigSameAsNew }] : []),
      { key: '', text: m.sigNone },
      ...data.list.map((s) => ({ key: s.id, text: s.name })),
    ];
    const choose = async (key: string) => {
      try {
        setData(await signatureApi.defaults({ [which]: key }));
        Toast.show({ content: m.saved });
      } catch (error) {
        refuse(error);
      }
    };
    openLayer((control) => (
      <ActionSheet {...control} closeOnAction actions={options} cancelText={m.cancel} onAction={(action) => void choose(String(action.key))} />
    ));
  };

  const save = async () => {
    if (!editing) return;
    if (!editing.name.trim()) {
      Toast.show({ content: `${m.sigName}: ${m.reasons['input.too_short']}` });
      return;
    }
    setSaving(true);
    try {
      const saved = editing.id ? await signatureApi.update(editing.id, editing.name, editing.html) : await signatureApi.create(editing.name, editing.html);
      Toast.show({ content: saved.removedImages > 0 ? m.imagesRemoved(saved.removedImages) : m.saved });
      // The first signature becomes the new-mail default: that is why one makes a signature.
      if (!editing.id && data && data.list.length === 0 && !data.defaults.newMail) await signatureApi.defaults({ newMail: saved.id }).catch(() => undefined);
      setEditing(null);
      await load();
    } catch (error) {
      refuse(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (sig: { id: string; name: string }) => {
    if (!(await Dialog.confirm({ content: m.sigDeleteConfirm(sig.name), confirmText: m.delete, cancelText: m.cancel }))) return;
    try {
      setData(await signatureApi.remove(sig.id));
      setEditing(null);
      Toast.show({ content: m.deleted });
    } catch (error) {
      refuse(error);
    }
  };

  const open = (s: Signature | null) => setEditing({ id: s?.id ?? null, name: s?.name ?? '', html: s?.html ?? '', key: `${s?.id ?? 'new'}-${Date.now()}` });
  const replyText = data ? (data.defaults.replySameAsNew ? m.sigSameAsNew : nameOf(data.defaults.reply)) : '';
  const isDefault = (id: string) => data !== null && (data.defaults.newMail === id || (!data.defaults.replySameAsNew && data.defaults.reply === id));

  return (
    <Page title={m.titleSignature} back={TAB_ROUTES.settings} right={<a className="mw-nav-action" role="button" data-action="new-signature" onClick={() => open(null)}>{m.sigAdd}</a>}>
      {failed && !data ? <ErrorState onRetry={() => void load()} /> : (
        <PullToRefresh onRefresh={load} pullingText={m.pullToRefresh} canReleaseText={m.releaseToRefresh} refreshingText={m.refreshing} completeText={m.refreshed}>
          <List header={m.sigDefaults} className="mw-gap">
            <List.Item data-row="default-new" extra={data ? nameOf(data.defaults.newMail) : ''} onClick={() => chooseDefault('newMail')}>{m.sigForNew}</List.Item>
            <List.Item data-row="default-reply" extra={replyText} onClick={() => chooseDefault('reply')}>{m.sigForReply}</List.Item>
          </List>
          {data && data.list.length === 0 ? (
            <>
              <EmptyState icon={<EditSOutline />} text={m.sigEmpty} />
              <div className="mw-padded"><Button block color="primary" fill="outline" onClick={() => open(null)}>{m.sigAdd}</Button></div>
            </>
          ) : (
            <List header={m.sigList} className="mw-gap">
              {data?.list.map((s) => (
                <List.Item key={s.id} data-signature={s.name} description={<div className="mw-texts-preview">{textOf(s.html)}</div>} onClick={() => open(s)}>
                  {s.name}{isDefault(s.id) && <span className="mw-texts-badge">{m.sigIsDefault}</span>}
                </List.Item>
              ))}
            </List>
          )}
        </PullToRefresh>
      )}
      <EditorSheet
        open={editing !== null}
        editorKey={editing?.key ?? ''}
        title={editing?.id ? m.sigEdit : m.sigNew}
        initialHtml={editing?.html ?? ''}
        placeholder={m.sigBodyPlaceholder}
        saving={saving}
        onHtml={(html) => setEditing((e) => (e ? { ...e, html } : e))}
        onCancel={() => setEditing(null)}
        onSave={() => void save()}
        fields={(
          <div className="mw-texts-field">
            <label htmlFor="mw-sig-name">{m.sigName}</label>
            <Input id="mw-sig-name" name="name" maxLength={40} placeholder={m.sigNamePlaceholder} value={editing?.name ?? ''} onChange={(name) => setEditing((e) => (e ? { ...e, name } : e))} />
          </div>
        )}
        footer={(
          <>
            <div className="mw-texts-hint">{m.sigImageHint}</div>
            {editing?.id && (
              <div className="mw-texts-danger">
                <Button block color="danger" fill="outline" onClick={() => void remove({ id: editing.id!, name: editing.name })}>{m.delete}</Button>
              </div>
            )}
          </>
        )}
      />
      {layer}
    </Page>
  );
}
