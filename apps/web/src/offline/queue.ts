import { Toast } from 'antd-mobile';
import { IDEMPOTENCY_KEY_HEADER, TOAST_MS, type Changed, type SendResult } from '@mailwing/shared';
import type { ComposeForm } from '../api/endpoints';
import { publish } from '../api/live-events';
import { refreshMbox } from '../api/endpoints';
import { ApiError, request } from '../api/request';
import { offlineMessages } from '../i18n/offline';
import { session } from '../state/session';
import { applyLocally } from './cache';
import { db, type OutboxItem, type QueuedAction } from './db';
import { offlineStatus } from './status';

// Issue 15, scope 3: what waits for the network. A mail written offline goes to the outbox and
// an action (read, star, move, delete) to the queue, each with an Idempotency-Key made once;
// both are replayed in order when the connection is back. The server honours the key, so a
// replay whose answer was lost (or two tabs replaying at once) never sends a mail twice. A
// refused action is dropped and said (the server's state wins); a refused mail stays in the
// outbox, marked, until the user deletes or retries it.

type Form = Record<string, string | number | boolean>;

const ownerOf = (email: string) => email.trim().toLowerCase();
const currentOwner = () => ownerOf(session.get().currentEmailName);

/** A random key: randomUUID needs a secure context, getRandomValues does not. */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function plain(data: Record<string, unknown>): Form {
  const out: Form = {};
  for (const [k, v] of Object.entries(data)) if (v !== undefined && v !== null) out[k] = v as string | number | boolean;
  return out;
}

/** The counts the banner shows, for the current mailbox. */
export async function refreshCounts(): Promise<void> {
  const owner = currentOwner();
  if (!owner) return offlineStatus.set({ outbox: 0, actions: 0 });
  const d = await db();
  offlineStatus.set({ outbox: await d.countFromIndex('outbox', 'owner', owner), actions: await d.countFromIndex('actions', 'owner', owner) });
}

/** The current mailbox's outbox, oldest first. */
export async function outboxItems(): Promise<OutboxItem[]> {
  const owner = currentOwner();
  if (!owner) return [];
  const items = await (await db()).getAllFromIndex('outbox', 'owner', owner);
  return items.sort((a, b) => a.createdAt - b.createdAt);
}

export async function removeFromOutbox(key: string): Promise<void> {
  await (await db()).delete('outbox', key);
  await refreshCounts();
}

/** A failed item goes back to waiting and is tried again now. */
export async function retryOutboxItem(key: string): Promise<void> {
  const d = await db();
  const item = await d.get('outbox', key);
  if (item) await d.put('outbox', { ...item, state: 'waiting', error: undefined });
  await replay();
}

/**
 * write/send, or the outbox when the network is not there. The key is made before the first
 * try and kept with the mail: if the first try reached the server and only its answer was
 * lost, the replay returns that first answer and sends nothing again.
 */
export async function sendOrQueue(form: ComposeForm): Promise<SendResult & { queued?: true }> {
  const email = session.get().currentEmailName;
  const key = newKey();
  // Online, the server holds the mail for the undo window (issue 14) as usual; from the
  // outbox it goes at once, since nobody is there to undo it.
  const data = plain({ ...form, undo: navigator.onLine });
  if (navigator.onLine) {
    try {
      return await request<SendResult>('/write/send', { method: 'POST', data, quiet: true, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 0) throw error;
    }
  }
  const item: OutboxItem = { key, owner: ownerOf(email), data, subject: form.subject, to: form.to, createdAt: Date.now(), state: 'waiting' };
  await (await db()).put('outbox', item);
  offlineStatus.set({ offline: true });
  await refreshCounts();
  return { id: '', sendAt: null, status: 'sending', undoUntil: null, queued: true };
}

/** An action the network refused: kept for replay, and shown at once in the kept lists. */
export async function queueAction(email: string, path: string, data: Form): Promise<Changed> {
  const action: QueuedAction = { key: newKey(), owner: ownerOf(email), path, data: plain(data), createdAt: Date.now() };
  await (await db()).put('actions', action);
  await applyLocally(email, path, action.data);
  await refreshCounts();
  return { changed: String(data.ids ?? '').split(',').filter(Boolean).length };
}

/** Errors that mean "not now" (no network, busy, logged out): stop and try again later. */
const later = (error: unknown) => !(error instanceof ApiError) || error.code === 0 || error.code === 401 || error.code === 429 || error.code < 0;

let running: Promise<void> | null = null;
let again = false;

/** While a replay runs, a failed replayed action must not be queued again (offline/index.ts). */
export const replaying = () => running !== null;

/**
 * Replays the current mailbox's queue, then its outbox. One run at a time per tab; a call made
 * while a run is under way gets one more run after it, since that run may have read the
 * outbox before the caller's mail was put there (logout waits on this promise to count what
 * is left: it must not see a run that never looked at the mail it is asking about).
 */
export function replay(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      do {
        again = false;
        await run();
      } while (again);
    } finally {
      running = null;
    }
  })();
  return running;
}

async function run(): Promise<void> {
  const { token } = session.get();
  const owner = currentOwner();
  if (!token || !owner || !navigator.onLine) return;
  const d = await db();
  const actions = (await d.getAllFromIndex('actions', 'owner', owner)).sort((a, b) => a.createdAt - b.createdAt);
  const outbox = (await d.getAllFromIndex('outbox', 'owner', owner)).filter((i) => i.state === 'waiting').sort((a, b) => a.createdAt - b.createdAt);
  if (actions.length === 0 && outbox.length === 0) return refreshCounts();
  offlineStatus.set({ syncing: true });
  let conflicts = 0;
  let sent = 0;
  let changed = false;
  const call = <T>(path: string, data: Form, key: string) =>
    request<T>(path, { method: 'POST', data, loading: false, quiet: true, token, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
  try {
    for (const action of actions) {
      try {
        await call(action.path, action.data, action.key);
      } catch (error) {
        if (later(error)) return;
        // The server's state wins: the mail was moved, deleted or changed meanwhile.
        conflicts += 1;
      }
      changed = true;
      await d.delete('actions', action.key);
    }
    for (const item of outbox) {
      try {
        await call<SendResult>('/write/send', item.data, item.key);
        await d.delete('outbox', item.key);
        sent += 1;
      } catch (error) {
        if (later(error)) return;
        await d.put('outbox', { ...item, state: 'failed', error: error instanceof ApiError ? error.message : String(error) });
      }
      changed = true;
    }
  } finally {
    offlineStatus.set({ syncing: false });
    const m = offlineMessages();
    if (conflicts > 0) Toast.show({ content: m.conflictToast(conflicts), duration: Math.max(TOAST_MS, 5000) });
    else if (sent > 0) Toast.show({ content: m.sentToast(sent), duration: TOAST_MS });
    if (changed) {
      // Every list reloads from the server, which now has the last word.
      publish({ type: 'mail', kinds: ['resync'], ids: [], folders: [], mbox: null });
      void refreshMbox();
    }
    await refreshCounts();
  }
}
