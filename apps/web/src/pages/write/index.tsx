import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Button, DatePicker, Dialog, SpinLoading, Switch, Toast } from 'antd-mobile';
import { ClockCircleOutline, CloseOutline, EnvironmentOutline, RightOutline } from 'antd-mobile-icons';
import { PaperclipIcon } from '../../ui/icons';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { DATE_PICKER_YEARS, isImageFile, type ComposeMode } from '@mailwing/shared';
import { api, refreshMbox, uploadedFileUrl } from '../../api/endpoints';
import { ApiError } from '../../api/request';
import { useLanguage, useT, type Messages } from '../../i18n';
import { compose, useCompose, type ComposeSource } from '../../state/compose';
import { checkFiles, mentionsAttachment, ownText, sendProblems, type SendField, type SendProblem } from '../../state/compose-rules';
import { takeChosenRecipients, type RecipientField } from '../../state/recipient-choice';
import { AddressBookButton, CHOOSER_ROUTE } from '../../ui/address-book-button';
import { formatDateTime } from '../../ui/date-time';
import { Page } from '../../ui/page';
import { ErrorState } from '../../ui/state-view';
import { TAB_ROUTES } from '../../ui/tab-layout';
import { WRITE_ROUTE } from '../../ui/compose-button';
import { AddressField } from './address-field';
import { AttachmentItems, problemText } from './attachment-items';
import type { Editor } from '@tiptap/react';
import { FromRow } from './from-row';
import { insertTemplate, TemplateSheet, TemplateTool } from './template-sheet';
import { refusedRecipients } from '../../api/undo-send';
import { useReadWriteT } from '../../i18n/read-write';
import { showUndoToast } from './undo-toast';
import { sendOrQueue } from '../../offline/queue';
import { offlineMessages } from '../../i18n/offline';

// The editor is most of this page's weight: it loads in its own chunk while
// the header fields are already usable.
const RichEditor = lazy(() => import('./rich-editor'));

export const ATTACH_ROUTE = '/pages/modules/other-attach-upload/index';
const AUTOSAVE_MS = 5_000;

const MODES: Array<[param: string, mode: ComposeMode]> = [['draft', 'edit'], ['reply', 'reply'], ['replyAll', 'replyAll'], ['forward', 'forward']];

function sourceOf(params: URLSearchParams): ComposeSource {
  for (const [param, mode] of MODES) {
    const mid = params.get(param);
    // &only=<attachment id>: forward just that file of the mail (the image viewer's Forward).
    if (mid) return mode === 'forward' && params.get('only') ? { mid, mode, only: params.get('only')! } : { mid, mode };
  }
  return null;
}

type Errors = Partial<Record<SendField, string>>;

function problemMessage(m: Messages, problem: SendProblem): string {
  return { noRecipient: m.noRecipient, badAddress: m.badAddress, emptySubject: m.subjectEmpty, sendAtPast: m.sendAtPast, emptyReply: m.replyEmpty }[problem];
}

/**
 * The earliest a timed send can be picked for: the first whole minute at
 * least 30 s away, so the time first offered is not already past when the
 * user gets to press Send.
 */
function firstPickableMinute(): Date {
  return new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
}

/** Compose (?draft=, ?reply=, ?replyAll=, ?forward= a mail id): write, save as draft, send. */
export default function WritePage() {
  const m = useT();
  const rw = useReadWriteT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = useCompose();
  const [errors, setErrors] = useState<Errors>({});
  // Addresses write/send refused (issue 14): red in their field until changed.
  const [refused, setRefused] = useState<ReadonlySet<string>>(new Set());
  const [showCopies, setShowCopies] = useState(false);
  const [picking, setPicking] = useState(false);
  // Taken when the picker opens, so its earliest time is not stale by then.
  const [pickFrom, setPickFrom] = useState(firstPickableMinute);
  const [picked, setPicked] = useState<Date>(pickFrom);
  // Set when this page opens the attachment page: the mail stays open, so no "saved" note.
  const staying = useRef(false);
  const entryKey = location.key;
  // The live editor (issue 16): the From row swaps its signature, the template sheet inserts into it.
  const [editor, setEditor] = useState<Editor | null>(null);
  const [templates, setTemplates] = useState(false);
  const language = useLanguage();

  useEffect(() => {
    compose.begin(entryKey, sourceOf(params));
    // The history entry names the mail; its query cannot change under it.
  }, [entryKey]);

  // Back from the address book chooser (or sent here to write to someone):
  // the people chosen go into the field they were chosen for, once.
  useEffect(() => {
    const chosen = takeChosenRecipients();
    if (!chosen) return;
    compose.addRecipients(chosen.field, chosen.recipients);
    if (chosen.field !== 'to') setShowCopies(true);
  }, [entryKey]);

  // Drafts (issue brief): every few seconds when something changed, when the
  // page is hidden, and when it is left.
  useEffect(() => {
    const timer = setInterval(() => void compose.saveDraft().catch(() => undefined), AUTOSAVE_MS);
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void compose.saveDraft().catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onHidden);
      // Off to the attachment page the mail stays open: save without a word.
      const quiet = staying.current;
      staying.current = false;
      compose.saveDraft().then((saved) => {
        if (saved && !quiet) Toast.show({ content: m.savedToDrafts });
      }, () => {
        if (!quiet) Toast.show({ content: m.saveFailed });
      });
    };
  }, []);

  // A reply or forward opens with the cursor in the body, above the quote (issue 14): the
  // quote starts with an empty paragraph for the answer, the signature below it.
  const replyMode = state.entryKey === entryKey && state.source && state.source.mode !== 'edit';
  useEffect(() => {
    if (editor && !editor.isDestroyed && replyMode) editor.commands.focus('start');
  }, [editor, replyMode]);

  const mine = state.entryKey === entryKey;
  const copiesShown = showCopies || state.cc.length > 0 || state.bcc.length > 0;
  const busy = state.phase === 'sending';

  const clearError = (field: SendField) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  const bookButton = (field: RecipientField, label: string) => (
    <AddressBookButton field={field} label={label} onOpen={() => {
      clearError(field);
      // The mail stays open: save it quietly, as on the way to the attachment page.
      staying.current = true;
      navigate(`${CHOOSER_ROUTE}?type=${field}`);
    }} />
  );

  const onImage = async (file: File): Promise<string | null> => {
    const { refused } = checkFiles([file], [], state.limits);
    const problem = !isImageFile(file.name) ? 'badFormat' : refused[0]?.problem;
    if (problem) {
      Toast.show({ content: problemText(m, problem) });
      return null;
    }
    const loading = Toast.show({ icon: 'loading', content: m.imageUploading, duration: 0, maskClickable: false });
    try {
      const result = await api.uploadFile(file, () => undefined, new AbortController().signal);
      return uploadedFileUrl(result.id);
    } catch (error) {
      Toast.show({ content: error instanceof ApiError ? error.fields.file ?? error.message : m.requestFailed });
      return null;
    } finally {
      loading.close();
    }
  };

  const send = async () => {
    if (state.phase !== 'ready') return;
    const found = sendProblems(state, Date.now());
    if (Object.keys(found).length > 0) {
      const shown: Errors = {};
      for (const [field, problem] of Object.entries(found)) shown[field as SendField] = problemMessage(m, problem);
      setErrors(shown);
      Toast.show({ content: Object.values(shown)[0] });
      return;
    }
    setErrors({});
    // Spec §5 warnings.
    if (compose.uploading()) {
      const wait = await Dialog.confirm({ content: m.stillUploading, confirmText: m.sendWhenDone, cancelText: m.cancel });
      if (!wait) return;
      const waiting = Toast.show({ icon: 'loading', content: m.waitingUploads, duration: 0, maskClickable: false });
      await compose.waitForUploads();
      waiting.close();
    }
    const current = compose.get();
    // A large attachment from the disk is a link in the body: it counts as the attachment the text mentions.
    const diskLink = current.html.includes('/pages/modules/disk/share?s=');
    if (!current.attachments.some((a) => a.status === 'done') && !diskLink && mentionsAttachment(ownText(current.html))) {
      const anyway = await Dialog.confirm({ content: m.attachMentioned, confirmText: m.sendAnyway, cancelText: m.cancel });
      if (!anyway) return;
    }
    let result;
    try {
      // Issue 15: offline, or when the network drops on the way, the mail waits in the outbox.
      result = await compose.send(sendOrQueue);
    } catch (error) {
      // A 422 marks its fields; a refused recipient is red in its field, worded in the UI language.
      if (error instanceof ApiError) {
        const fields: Errors = {};
        for (const field of ['to', 'cc', 'bcc', 'subject', 'sendAt'] as const) {
          if (error.fields[field]) fields[field] = error.fields[field];
        }
        const refusedList = refusedRecipients(error);
        const worded = (r: (typeof refusedList)[number]) => rw.refusedRecipient(r.address, rw.sendReasons[r.reason] ?? rw.recipientRefused);
        for (const field of ['to', 'cc', 'bcc'] as const) {
          const inField = refusedList.filter((r) => r.field === field);
          if (inField.length > 0) fields[field] = inField.map(worded).join('; ');
        }
        setRefused(new Set(refusedList.map((r) => r.address.toLowerCase())));
        setErrors(fields);
        Toast.show({ content: refusedList.length > 0 ? worded(refusedList[0]!) : error.message });
      }
      return;
    }
    void refreshMbox();
    if ('queued' in result && result.queued) {
      Toast.show({ content: offlineMessages().queuedToast, duration: 4000 });
      if (location.key === 'default') navigate(TAB_ROUTES.inbox, { replace: true });
      else navigate(-1);
      return;
    }
    if (result.undoUntil) {
      // Issue 14: no result page; the mail waits on the server and a toast offers Undo.
      showUndoToast({
        id: result.id,
        until: result.undoUntil,
        onUndone: (draftId) => {
          void refreshMbox();
          navigate(`${WRITE_ROUTE}?draft=${encodeURIComponent(draftId)}`);
        },
      });
      if (location.key === 'default') navigate(TAB_ROUTES.inbox, { replace: true });
      else navigate(-1);
      return;
    }
    const target = current.replyTo ? '/pages/modules/reply-success/index' : '/pages/modules/write-result/index';
    navigate(result.sendAt ? `${target}?at=${result.sendAt}` : target, { replace: true });
  };

  const pickTime = (date: Date) => {
    // Spec §5: a timed send is never earlier than now (the picker's minimum can go stale while it is open).
    if (date.getTime() < Date.now()) {
      setErrors((e) => ({ ...e, sendAt: m.sendAtPast }));
      Toast.show({ content: m.sendAtPast });
      return;
    }
    clearError('sendAt');
    compose.edit({ sendAt: Math.floor(date.getTime() / 1000) });
  };

  const sendButton = (
    <Button size="small" color="primary" className="mw-send" loading={busy} disabled={!mine || state.phase !== 'ready'} onClick={() => void send()}>
      {m.send}
    </Button>
  );

  const openPicker = () => {
    const from = firstPickableMinute();
    setPickFrom(from);
    setPicked(state.sendAt && state.sendAt * 1000 >= from.getTime() ? new Date(state.sendAt * 1000) : from);
    setPicking(true);
  };
  const maxDate = new Date(pickFrom.getFullYear() + DATE_PICKER_YEARS, pickFrom.getMonth(), pickFrom.getDate());
  const attachCount = state.attachments.length;
  const mode = state.source?.mode;
  const pageTitle = mode === 'reply' || mode === 'replyAll' ? rw.titleReply : mode === 'forward' ? rw.titleForward : m.titleWrite;

  return (
    <Page title={pageTitle} back={TAB_ROUTES.inbox} right={sendButton} bodyClassName="mw-compose">
      {!mine || state.phase === 'loading' ? (
        <div className="mw-center"><SpinLoading color="primary" /></div>
      ) : state.phase === 'failed' ? (
        <ErrorState onRetry={() => compose.retry()} />
      ) : (
        <form className="mw-compose-form" onSubmit={(e) => e.preventDefault()} noValidate>
          {!state.source && <FromRow editor={editor} />}
          <AddressField
            name="to"
            label={m.to}
            value={state.to}
            error={errors.to}
            refused={refused}
            onAdd={(r) => {
              clearError('to');
              compose.addRecipients('to', r);
            }}
            onRemove={(i) => compose.removeRecipient('to', i)}
            extra={<>{!copiesShown && <a className="mw-compose-more" onClick={() => setShowCopies(true)}>{m.showCcBcc}</a>}{bookButton('to', m.to)}</>}
          />
          {copiesShown && (
            <>
              <AddressField
                name="cc"
                label={m.cc}
                value={state.cc}
                error={errors.cc}
                refused={refused}
                onAdd={(r) => {
                  clearError('cc');
                  compose.addRecipients('cc', r);
                }}
                onRemove={(i) => compose.removeRecipient('cc', i)}
                extra={bookButton('cc', m.cc)}
              />
              <AddressField
                name="bcc"
                label={m.bcc}
                value={state.bcc}
                error={errors.bcc}
                refused={refused}
                onAdd={(r) => {
                  clearError('bcc');
                  compose.addRecipients('bcc', r);
                }}
                onRemove={(i) => compose.removeRecipient('bcc', i)}
                extra={bookButton('bcc', m.bcc)}
              />
            </>
          )}
          <div className="mw-compose-row-wrap">
            <div className={`mw-compose-row${errors.subject ? ' has-error' : ''}`}>
              <label className="mw-compose-label" htmlFor="mw-subject">{m.subject}</label>
              <input
                id="mw-subject"
                name="subject"
                className="mw-compose-input"
                type="text"
                enterKeyHint="next"
                maxLength={998}
                value={state.subject}
                onChange={(e) => {
                  clearError('subject');
                  compose.edit({ subject: e.target.value });
                }}
              />
            </div>
            {errors.subject && <div className="mw-field-error" role="alert">{errors.subject}</div>}
          </div>

          <div className="mw-compose-options">
            <a
              className="mw-option"
              role="button"
              data-option="attachments"
              onClick={() => {
                staying.current = true;
                navigate(ATTACH_ROUTE);
              }}
            >
              <PaperclipIcon />
              <span>{m.addAttachment}</span>
              {attachCount > 0 && <span className="mw-option-count">{attachCount}</span>}
              <RightOutline className="mw-option-arrow" />
            </a>
            <a
              className="mw-option"
              role="button"
              data-option="disk"
              onClick={() => {
                // A disk file goes in as a link (超大附件): the mail stays open, as for attachments.
                staying.current = true;
                navigate('/pages/modules/disk/index?pick=1');
              }}
            >
              <PaperclipIcon />
              <span>{m.largeAttachFromDisk}</span>
              <RightOutline className="mw-option-arrow" />
            </a>
            <a
              className="mw-option"
              role="button"
              data-option="location"
              onClick={() => {
                // The place comes back as a link and a small map at the end of the body (issue 15 §6).
                staying.current = true;
                navigate('/choose-location?for=write');
              }}
            >
              <EnvironmentOutline />
              <span>{rw.insertLocation}</span>
              <RightOutline className="mw-option-arrow" />
            </a>
            <label className="mw-option">
              <span className={state.urgent ? 'mw-urgent-label is-on' : 'mw-urgent-label'}>{m.urgent}</span>
              <Switch
                className="mw-option-switch"
                checked={state.urgent}
                onChange={(urgent) => compose.edit({ urgent })}
                aria-label={m.urgent}
              />
            </label>
            <span className={`mw-option${state.sendAt ? ' is-on' : ''}${errors.sendAt ? ' has-error' : ''}`} data-option="timed">
              <a role="button" className="mw-option-main" onClick={openPicker}>
                <ClockCircleOutline />
                <span>{state.sendAt ? formatDateTime(state.sendAt) : m.timedSend}</span>
              </a>
              {state.sendAt && (
                <a
                  role="button"
                  className="mw-option-clear"
                  aria-label={m.timedSendClear}
                  onClick={() => {
                    clearError('sendAt');
                    compose.edit({ sendAt: null });
                  }}
                >
                  <CloseOutline />
                </a>
              )}
            </span>
          </div>
          {errors.sendAt && <div className="mw-field-error" role="alert">{errors.sendAt}</div>}
          <DatePicker
            visible={picking}
            onClose={() => setPicking(false)}
            precision="minute"
            title={m.timedSend}
            min={pickFrom}
            max={maxDate}
            value={picked}
            onSelect={setPicked}
            confirmText={m.ok}
            cancelText={m.cancel}
            onConfirm={pickTime}
          />

          <AttachmentItems items={state.attachments} compact />

          {errors.body && <div className="mw-field-error mw-body-error" role="alert">{errors.body}</div>}
          <Suspense fallback={<div className="mw-center"><SpinLoading color="primary" /></div>}>
            <RichEditor
              // A new mail (or the loaded draft, reply or forward) starts a fresh editor.
              key={`${state.entryKey}-${state.source?.mid ?? ''}`}
              initialHtml={state.html}
              placeholder={m.bodyPlaceholder}
              onChange={(html, text) => {
                clearError('body');
                compose.edit({ html, text });
              }}
              onImage={onImage}
              onEditor={setEditor}
              tools={<TemplateTool onPress={() => setTemplates(true)} />}
            />
          </Suspense>
          <TemplateSheet open={templates} onClose={() => setTemplates(false)} onPick={(t) => {
            setTemplates(false);
            if (editor) insertTemplate(editor, t, language);
          }} />
          {state.savedAt && <div className="mw-compose-saved" role="status">{m.draftSaved(formatDateTime(Math.floor(state.savedAt / 1000)).slice(11))}</div>}
        </form>
      )}
    </Page>
  );
}
