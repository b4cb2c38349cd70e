import { Modal, Toast } from 'antd-mobile';
import { Code, REQUEST_TIMEOUT_MS, TOAST_MS } from '@mailwing/shared';
import { messages } from '../i18n';
import { reasonText, refusalText } from '../i18n/reason-text';
import { session } from '../state/session';
import { afterFirstScreen } from '../state/first-screen';
import { takeEarly } from './early-take';
import type { kept as KeptFn } from '../offline/index';

// The only module that talks to the server (DESIGN.md). Spec §7: base is the
// page's origin plus /h5, GET sends a query, POST a form-encoded body, the
// token rides in `t`; spec §8: the error catalogue below.

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  data?: Params;
  /** Show the loading toast (default true, spec §7). */
  loading?: boolean;
  /** Do not toast or pop up errors; 401 still logs out. For background refreshes. */
  quiet?: boolean;
  headers?: Record<string, string>;
  /**
   * Call with this token instead of the session's (a bound mailbox's own
   * token). Its 401 only rejects: it says nothing about the current session.
   */
  token?: string;
}

/** Issue 15: kept reads and the action queue (offline/), loaded after the first screen. */
const kept = (...args: Parameters<typeof KeptFn>) => import('../offline/index').then((o) => o.kept(...args)).catch(() => undefined);

/**
 * A rejected call. code is the envelope code, 0 for a network failure, -status
 * for a non-2xx HTTP answer, or ABORTED when the caller cancelled it. fields
 * holds a 422's field → message object, for forms that show each by its field.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly fields: Readonly<Record<string, string>>;
  /** A 429's seconds until the next try, when the server said. */
  readonly retryAfter?: number;
  /** The refusal's stable reason code (API.md), for pages that say it in the user's language. */
  readonly reason?: string;
  /** The whole refusal envelope, for pages that need more than a field's text (write/send's `refused`). */
  readonly details?: Readonly<Record<string, unknown>>;
  constructor(code: number, message: string, fields: Record<string, string> = {}, retryAfter?: number, reason?: string, details?: Record<string, unknown>) {
    super(message);
    this.details = details;
    this.name = 'ApiError';
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
    this.reason = reason;
  }
}

/** The code of a call the caller cancelled (an upload's abort). */
export const ABORTED = -1000;

/** A 422's error object as field → text; other shapes give {}. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!error || typeof error !== 'object' || Array.isArray(error)) return {};
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(error)) {
    const text = errorText(value);
    if (text) out[field] = text;
  }
  return out;
}

interface Envelope {
  code?: unknown;
  data?: unknown;
  error?: unknown;
  errors?: unknown;
  retryAfter?: unknown;
  reason?: unknown;
  reasons?: unknown;
}

const AUTO_LOGIN_PATH = '/login/h5-auto-login';

/**
 * Spec §7: the page's own origin plus /h5, or, for a page opened from a file (file: has no
 * origin to call), the fixed fallback host. That host is a build setting: set
 * VITE_API_FALLBACK_HOST (e.g. https://mail.example.com) when running `npm run build`.
 */
export function apiBaseFor(location: Pick<Location, 'protocol' | 'origin'>, fallbackHost: string | undefined): string {
  if (location.protocol === 'file:' || location.origin === 'null') {
    if (fallbackHost) return `${fallbackHost.replace(/\/+$/, '')}/h5`;
  }
  return `${location.origin}/h5`;
}

export function apiBase(): string {
  return apiBaseFor(window.location, import.meta.env.VITE_API_FALLBACK_HOST as string | undefined);
}

function appendParams(query: URLSearchParams, data: Params | undefined): void {
  for (const [key, value] of Object.entries(data ?? {})) {
    if (value === undefined || value === null) continue;
    query.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
}

/** An absolute API URL with the query and, when logged in, the token as `t`. The path may carry a query of its own (spec §7: a POST's `?code=`). */
export function apiUrl(path: string, data?: Params, token = session.get().token): string {
  const query = new URLSearchParams();
  appendParams(query, data);
  if (token) query.set('t', token);
  const qs = query.toString();
  return `${apiBase()}${path}${qs ? `${path.includes('?') ? '&' : '?'}${qs}` : ''}`;
}

/** Spec §8: object values or array items joined by commas. */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'number') return String(error);
  if (Array.isArray(error)) return error.map(errorText).filter(Boolean).join(',');
  if (error && typeof error === 'object') return Object.values(error).map(errorText).filter(Boolean).join(',');
  return '';
}

// Several calls may run at once; one spinner stays up until the last ends.
let inFlight = 0;
let spinner: { close(): void } | null = null;

function startLoading(): void {
  inFlight += 1;
  if (inFlight === 1) spinner = Toast.show({ icon: 'loading', content: messages().loading, duration: 0, maskClickable: false });
}

function stopLoading(): void {
  inFlight = Math.max(0, inFlight - 1);
  if (inFlight === 0) {
    spinner?.close();
    spinner = null;
  }
}

function toast(content: string): void {
  Toast.show({ content, duration: TOAST_MS });
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', data, loading = true, quiet = false } = options;
  const m = messages();
  const token = options.token ?? session.get().token;
  const url = method === 'GET' ? apiUrl(path, data, token) : apiUrl(path, undefined, token);
  const init: RequestInit = { method, headers: { ...options.headers }, credentials: 'omit' };
  if (method === 'POST') {
    const body = new URLSearchParams();
    appendParams(body, data);
    init.body = body;
    (init.headers as Record<string, string>)['Content-Type'] = 'application/x-www-form-urlencoded';
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  init.signal = controller.signal;
  if (loading) startLoading();
  let envelope: Envelope;
  try {
    let response: Response;
    try {
      // The first screen's calls may already be on their way (api/early.ts).
      response = await ((method === 'GET' ? takeEarly(url, controller.signal) : undefined) ?? fetch(url, init));
    } catch {
      // Offline, refused, or our own timeout abort.
      throw new ApiError(0, m.requestFailedRetry);
    }
    // Spec §8: a non-2xx HTTP status is rejected without a message, except an
    // overloaded server or proxy (503, 429): "system busy, please retry" (issue 15).
    if (response.status === 503 || response.status === 429) throw new ApiError(0, (await reasonText('server.busy')) ?? m.requestFailedRetry, {}, undefined, 'server.busy');
    if (!response.ok) throw new ApiError(-response.status, `HTTP ${response.status}`);
    try {
      envelope = (await response.json()) as Envelope;
    } catch {
      throw new ApiError(0, m.dataFormatError);
    }
  } catch (error) {
    // The spinner and a message toast are one antd-mobile Toast (a singleton): closing
    // the spinner after showing the message would close the message too. So the
    // spinner goes first, then the message.
    if (loading) stopLoading();
    if (error instanceof ApiError && error.code === 0) {
      // Issue 15: a kept answer, or the action queued for when the network is back.
      const hit = await kept(path, data, token);
      if (hit !== undefined) return hit as T;
      if (!quiet) toast(error.message);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (loading) stopLoading();

  const code = typeof envelope.code === 'number' ? envelope.code : Number(envelope.code);
  if (code === Code.Ok) {
    // Kept for offline reading once the first screen is shown: on a phone, the offline
    // layer's code must not compete with the first screen's (state/first-screen.ts).
    if (method === 'GET') void afterFirstScreen().then(() => kept(path, data, token, envelope.data));
    return envelope.data as T;
  }
  const reason = typeof envelope.reason === 'string' ? envelope.reason : undefined;
  const { text, fields } = await localRefusal(envelope, code, m.requestFailed);

  if (code === Code.Unauthorized) {
    // A 401 for the session's token means it expired; without one (a wrong
    // password at login) the server's own words say more. A token that is no
    // longer the session's (another mailbox's, or one switched away from
    // while this call ran) must not log the current mailbox out.
    const hadSession = Boolean(token) && token === session.get().token;
    if (!quiet) toast(hadSession ? m.loggedOut : text || m.requestFailed);
    if (hadSession) session.logout();
    // A call that had no session at all: "not logged in", and to the login page (spec §8).
    else if (reason === 'session.missing' && !quiet) window.location.replace('#/pages/login/index');
    throw new ApiError(code, text || m.loggedOut, {}, undefined, reason);
  }
  if (code === Code.AutoLoginRefused) {
    if (path === AUTO_LOGIN_PATH) {
      window.location.replace('#/pages/login/index');
    } else if (!quiet) {
      Modal.alert({ title: m.warmReminder, content: text, confirmText: m.ok });
    }
    throw new ApiError(code, text, {}, undefined, reason);
  }
  if (!quiet) toast(text);
  const retryAfter = Number(envelope.retryAfter) || undefined;
  throw new ApiError(code, text, fields, retryAfter, reason, envelope as Record<string, unknown>);
}

/** A refusal envelope in the user's language, by its reason codes (API.md). */
function localRefusal(envelope: Envelope, code: number, fallback: string) {
  const reasons = envelope.reasons && typeof envelope.reasons === 'object' ? (envelope.reasons as Record<string, string>) : undefined;
  return refusalText({
    code, reason: typeof envelope.reason === 'string' ? envelope.reason : undefined, reasons, retryAfter: Number(envelope.retryAfter) || undefined,
    english: errorText(envelope.error ?? envelope.errors), englishFields: fieldErrors(envelope.error ?? envelope.errors),
  }, fallback);
}

export interface UploadOptions {
  fields?: Params;
  onProgress?: (percent: number) => void;
  /** Aborting it cancels the upload; the promise then rejects with code ABORTED and no message shown. */
  signal?: AbortSignal;
  /** Do not toast errors: the caller shows them beside the file. */
  quiet?: boolean;
}

/**
 * Uploads one file as multipart/form-data with progress (DESIGN.md: long work
 * shows progress). XMLHttpRequest, because fetch cannot report upload progress.
 */
export function upload<T>(path: string, file: Blob, options: UploadOptions = {}): Promise<T> {
  const { fields = {}, onProgress, signal, quiet = false } = options;
  const m = messages();
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError(ABORTED, ''));
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) form.append(key, String(value));
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    const { token } = session.get();
    xhr.open('POST', apiUrl(path, undefined, token));
    // No timeout: a big file on a slow uplink takes longer than spec §9's
    // 60 s, and the user sees its progress and can cancel it.
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    const fail = () => {
      settle();
      if (!quiet) toast(m.requestFailedRetry);
      reject(new ApiError(0, m.requestFailedRetry));
    };
    xhr.onerror = fail;
    xhr.onabort = () => {
      settle();
      reject(new ApiError(ABORTED, ''));
    };
    xhr.onload = async () => {
      settle();
      if (xhr.status < 200 || xhr.status >= 300) return reject(new ApiError(-xhr.status, `HTTP ${xhr.status}`));
      const body = (xhr.response ?? {}) as Envelope;
      if (body.code === Code.Ok) return resolve(body.data as T);
      if (body.code === Code.Unauthorized && token && token === session.get().token) session.logout();
      const code = Number(body.code);
      const { text, fields } = await localRefusal(body, code, m.requestFailed);
      if (!quiet) toast(text);
      reject(new ApiError(code, text, fields, undefined, typeof body.reason === 'string' ? body.reason : undefined));
    };
    xhr.send(form);
  });
}

/** Starts a browser download of an API URL (the server sends Content-Disposition). */
export function download(path: string, data: Params, fileName?: string): void {
  const a = document.createElement('a');
  a.href = apiUrl(path, data);
  a.rel = 'noopener';
  if (fileName) a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
