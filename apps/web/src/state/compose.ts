import { isEmail, VIDEO_MAX_SECONDS, type ComposeData, type ComposeLimits, type ComposeMode, type SendResult } from '@mailwing/shared';
import { api, type ComposeForm } from '../api/endpoints';
import { ABORTED, ApiError } from '../api/request';
import { addRecipients, checkFiles, DEFAULT_LIMITS, formatRecipients, type AttachProblem, type Recipient } from './compose-rules';
import { createStore, useStore } from './store';
import { placeSignature } from './signature-block';
import { session } from './session';
import { signatureFor, signaturePlace } from './signature-seam';
import { previewKind, THUMB_MAX_BYTES } from '../ui/preview-kind';
import { messages } from '../i18n';

// The mail being written. It lives outside the compose page so that it
// survives a visit to the attachment page and back, and so that uploads go on
// while the user is elsewhere. One mail at a time: opening the compose page
// from a new history entry starts a new one.

export type UploadStatus = 'uploading' | 'done' | 'failed';

export interface ComposeAttachment {
  /** Local key, stable for the life of the row. */
  key: string;
  name: string;
  size: number;
  /** The id write/send takes: an upload id, or "<mailId>.<index>" for a file of an existing mail. */
  id: string | null;
  progress: number;
  status: UploadStatus;
  error: string;
  /** A picked image's own bytes (an object URL) for its thumbnail while it uploads (issue 14). */
  localPreview?: string;
}

/** `only`: forwarding one attachment of the mail (issue 14): the others are left off. */
export type ComposeSource = { mid: string; mode: ComposeMode; only?: string } | null;

export interface ComposeState {
  /** The history entry (location.key) of the compose page this mail belongs to. */
  entryKey: string | null;
  phase: 'loading' | 'ready' | 'failed' | 'sending' | 'sent';
  source: ComposeSource;
  to: Recipient[];
  cc: Recipient[];
  bcc: Recipient[];
  subject: string;
  html: string;
  text: string;
  urgent: boolean;
  sendAt: number | null;
  attachments: ComposeAttachment[];
  draftId: string | null;
  replyTo: string | null;
  forwardOf: string | null;
  /** Counts changes; the draft on the server is current when savedRevision equals it. */
  revision: number;
  savedRevision: number;
  /** When the draft was last saved (ms), for the page's "saved" note. */
  savedAt: number | null;
  limits: ComposeLimits;
}

type Content = Pick<ComposeState, 'to' | 'cc' | 'bcc' | 'subject' | 'html' | 'text' | 'urgent' | 'sendAt'>;

const EMPTY: ComposeState = {
  entryKey: null,
  phase: 'ready',
  source: null,
  to: [],
  cc: [],
  bcc: [],
  subject: '',
  html: '',
  text: '',
  urgent: false,
  sendAt: null,
  attachments: [],
  draftId: null,
  replyTo: null,
  forwardOf: null,
  revision: 0,
  savedRevision: 0,
  savedAt: null,
  limits: DEFAULT_LIMITS,
};

export const composeStore = createStore<ComposeState>(EMPTY);

// Not state: the running uploads' cancel handles, and the chain that keeps
// draft saves one after another (each must carry the id the last one returned).
const uploads = new Map<string, AbortController>();
let saving: Promise<unknown> = Promise.resolve();
// Bumped whenever a new mail starts, so late answers for the old one are dropped.
let generation = 0;
let nextKey = 1;

const get = () => composeStore.get();

function patchAttachment(key: string, patch: Partial<ComposeAttachment>, changed = false): void {
  const s = get();
  if (!s.attachments.some((a) => a.key === key)) return;
  composeStore.set({
    attachments: s.attachments.map((a) => (a.key === key ? { ...a, ...patch } : a)),
    ...(changed ? { revision: s.revision + 1 } : {}),
  });
}

// A reopened draft gives back half-typed recipients as typed; they stay invalid chips.
function fromAddresses(list: ComposeData['to']): Recipient[] {
  return list.map((a) => ({ name: a.name, address: a.address, valid: isEmail(a.address) }));
}

function abortUploads(): void {
  for (const controller of uploads.values()) controller.abort();
  uploads.clear();
  for (const a of get().attachments) if (a.localPreview) URL.revokeObjectURL(a.localPreview);
}

// Only an image small enough for a thumbnail keeps an object URL of its bytes.
const localPreviewOf = (file: File) =>
  previewKind(file.name) === 'image' && file.size <= THUMB_MAX_BYTES && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined;

/** The body with the sender's signature for this mode (issue 16), set before the editor shows it. */
async function withSignature(html: string, mode: ComposeMode | null): Promise<string> {
  const place = signaturePlace(mode);
  if (!place) return html;
  const s = session.get();
  const signature = await signatureFor(mode, { email: s.currentEmailName, token: s.token });
  return signature ? placeSignature(html, signature.html, place) : html;
}

async function startNew(gen: number): Promise<void> {
  const html = await withSignature('', null);
  if (gen === generation) composeStore.set({ phase: 'ready', html });
}

async function load(source: NonNullable<ComposeSource>, gen: number): Promise<void> {
  try {
    const loaded = await api.loadCompose(source.mid, source.mode);
    const data = { ...loaded, html: await withSignature(loaded.html, source.mode) };
    if (gen !== generation) return;
    composeStore.set({
      phase: 'ready',
      to: fromAddresses(data.to),
      cc: fromAddresses(data.cc),
      bcc: fromAddresses(data.bcc),
      subject: data.subject,
      html: data.html,
      urgent: data.urgent,
      sendAt: data.sendAt,
      attachments: data.attachments.filter((a) => !source.only || a.id === source.only).map((a) => ({ key: `k${nextKey++}`, name: a.name, size: a.size, id: a.id, progress: 100, status: 'done', error: '' })),
      draftId: data.draftId,
      replyTo: data.replyTo,
      forwardOf: data.forwardOf,
    });
  } catch {
    if (gen === generation) composeStore.set({ phase: 'failed' });
  }
}

/**
 * The form write/draft and write/send take. Only finished uploads go along.
 * A draft keeps half-typed recipients too (the server stores them as typed);
 * send is checked for them before it gets here.
 */
export function composeForm(s: ComposeState = get()): ComposeForm {
  return {
    to: formatRecipients(s.to),
    cc: formatRecipients(s.cc),
    bcc: formatRecipients(s.bcc),
    subject: s.subject,
    html: s.html,
    text: s.text,
    attachIds: s.attachments.flatMap((a) => (a.status === 'done' && a.id ? [a.id] : [])).join(','),
    urgent: s.urgent ? 1 : 0,
    sendAt: s.sendAt ?? undefined,
    draftId: s.draftId ?? undefined,
    replyTo: s.replyTo ?? undefined,
    forwardOf: s.forwardOf ?? undefined,
  };
}

/** A video file's length in seconds from its metadata, or null when the browser cannot tell (within 5 s). */
function videoSeconds(file: File): Promise<number | null> {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return Promise.resolve(null);
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    const done = (value: number | null) => {
      clearTimeout(timer);
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      resolve(value);
    };
    const timer = setTimeout(() => done(null), 5_000);
    video.preload = 'metadata';
    video.onloadedmetadata = () => done(Number.isFinite(video.duration) ? video.duration : null);
    video.onerror = () => done(null);
    video.src = url;
  });
}

export const compose = {
  get,

  /**
   * Called by the compose page for its history entry. The same entry (back
   * from the attachment page) keeps the mail; a new one starts a new mail,
   * empty or loaded from the draft, reply or forward it names.
   */
  begin(entryKey: string, source: ComposeSource): void {
    if (get().entryKey === entryKey) return;
    abortUploads();
    generation += 1;
    const { limits } = get();
    composeStore.set({ ...EMPTY, limits, entryKey, source, phase: 'loading' });
    if (source) void load(source, generation);
    else void startNew(generation);
    const gen = generation;
    void api.composeLimits().then((l) => {
      if (gen === generation) composeStore.set({ limits: l });
    }, () => undefined);
  },

  /** Loads the mail again after a failed load. */
  retry(): void {
    const { source } = get();
    if (!source) return;
    composeStore.set({ phase: 'loading' });
    void load(source, generation);
  },

  /** A change the user made. */
  edit(patch: Partial<Content>): void {
    composeStore.set({ ...patch, revision: get().revision + 1 });
  },

  /** The mail now goes out from another mailbox (issue 16): its draft there starts afresh. */
  senderChanged(): void {
    composeStore.set({ draftId: null, revision: get().revision + 1 });
  },

  addRecipients(field: 'to' | 'cc' | 'bcc', more: Recipient[]): void {
    if (more.length === 0) return;
    compose.edit({ [field]: addRecipients(get()[field], more) });
  },

  removeRecipient(field: 'to' | 'cc' | 'bcc', index: number): void {
    compose.edit({ [field]: get()[field].filter((_, i) => i !== index) });
  },

  /** Checks the picked files (spec §8, §9), starts uploading those that pass, and returns the refused ones. */
  addFiles(files: File[]): Array<{ file: File; problem: AttachProblem }> {
    const s = get();
    // A failed upload is not sent, so it does not count against the limits.
    const { accepted, refused } = checkFiles(files, s.attachments.filter((a) => a.status !== 'failed'), s.limits);
    const rows = accepted.map((file) => ({ file, row: {
      key: `k${nextKey++}`, name: file.name, size: file.size, id: null, progress: 0, status: 'uploading' as const, error: '', localPreview: localPreviewOf(file),
    } }));
    composeStore.set({ attachments: [...s.attachments, ...rows.map((r) => r.row)], revision: s.revision + 1 });
    for (const { file, row } of rows) void compose.upload(row.key, file);
    return refused;
  },

  async upload(key: string, file: File): Promise<void> {
    const controller = new AbortController();
    uploads.set(key, controller);
    try {
      // Spec §9: a video may run at most VIDEO_MAX_SECONDS. Read from the file's own
      // metadata before any byte is sent; a file the browser cannot read is let through.
      if (previewKind(file.name) === 'video') {
        const seconds = await videoSeconds(file);
        if (controller.signal.aborted) return;
        if (seconds !== null && seconds > VIDEO_MAX_SECONDS + 0.5) {
          patchAttachment(key, { status: 'failed', error: messages().videoTooLong(VIDEO_MAX_SECONDS) });
          return;
        }
      }
      const result = await api.uploadFile(file, (progress) => patchAttachment(key, { progress }), controller.signal);
      patchAttachment(key, { id: result.id, name: result.name, size: result.size, progress: 100, status: 'done' }, true);
    } catch (error) {
      if (error instanceof ApiError && error.code === ABORTED) return;
      const text = error instanceof ApiError ? error.fields.file ?? error.message : String(error);
      patchAttachment(key, { status: 'failed', error: text });
    } finally {
      uploads.delete(key);
    }
  },

  /** Cancels an upload in progress, or takes a file off the mail. */
  removeAttachment(key: string): void {
    uploads.get(key)?.abort();
    uploads.delete(key);
    const s = get();
    const gone = s.attachments.find((a) => a.key === key)?.localPreview;
    if (gone) URL.revokeObjectURL(gone);
    composeStore.set({ attachments: s.attachments.filter((a) => a.key !== key), revision: s.revision + 1 });
  },

  uploading(): boolean {
    return get().attachments.some((a) => a.status === 'uploading');
  },

  /** Resolves once no upload is running (finished, failed or cancelled). */
  waitForUploads(): Promise<void> {
    if (!compose.uploading()) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = composeStore.subscribe(() => {
        if (!compose.uploading()) {
          stop();
          resolve();
        }
      });
    });
  },

  /** Whether there are changes the draft on the server does not have yet. */
  unsaved(): boolean {
    const s = get();
    return s.phase === 'ready' && s.revision !== s.savedRevision;
  },

  /**
   * Saves the mail into Drafts when it changed. Saves run one after another,
   * each with the draft id the previous one returned (the id changes on every
   * save). Resolves to whether it saved.
   */
  saveDraft(): Promise<boolean> {
    const run = async (): Promise<boolean> => {
      if (!compose.unsaved()) return false;
      const gen = generation;
      const s = get();
      const { id } = await api.saveDraft(composeForm(s));
      if (gen !== generation) return false;
      composeStore.set({ draftId: id, savedRevision: s.revision, savedAt: Date.now() });
      return true;
    };
    const next = saving.then(run, run);
    saving = next.catch(() => undefined);
    return next;
  },

  /**
   * Sends the mail, after any draft save in flight (so the draft it replaces
   * is the latest). The mail is then done: no more autosave.
   */
  async send(via: (form: ComposeForm) => Promise<SendResult> = api.send): Promise<SendResult> {
    // 'sending' stops autosave, which would otherwise race the send for the draft.
    composeStore.set({ phase: 'sending' });
    const gen = generation;
    try {
      await saving;
      const result = await via(composeForm());
      if (gen === generation) composeStore.set({ phase: 'sent', savedRevision: get().revision });
      return result;
    } catch (error) {
      if (gen === generation) composeStore.set({ phase: 'ready' });
      throw error;
    }
  },
};

export function useCompose(): ComposeState {
  return useStore(composeStore, (s) => s);
}
