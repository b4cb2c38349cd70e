import { prefillFromMail, type Mail, type MailList, type MailSummary, type MboxIndex, type ResolvedSignature } from '@mailwing/shared';
import { fetchAttachmentBlob } from '../api/offline-fetch';
import { session } from '../state/session';
import { db, type OfflineDb } from './db';
import { OFFLINE_ATTACH_FILE_MAX, OFFLINE_ATTACH_TOTAL_MAX, OFFLINE_MAILS_MAX, OFFLINE_PAGES } from './limits';
import { offlineStatus } from './status';

// Issue 15, scope 3: reads kept for offline use. request.ts hands every successful folder
// index, folder list (its first OFFLINE_PAGES pages) and opened mail here, and asks here when
// the network fails. Records are per mailbox (owner); attachments of opened mails are kept up
// to the caps in limits.ts.

type Data = Record<string, unknown> | undefined;

const ownerOf = (email: string) => email.trim().toLowerCase();

function listQuery(data: Data): string | null {
  const page = Number(data?.page ?? 1) || 1;
  if (page > OFFLINE_PAGES) return null;
  return JSON.stringify([String(data?.mid ?? '0'), page, Number(data?.size ?? 0), String(data?.filter ?? ''), String(data?.tag ?? '')]);
}

/** Keeps a successful answer for offline reading. `email` is the mailbox the call was made for. */
export async function remember(path: string, data: Data, value: unknown, email: string): Promise<void> {
  const owner = ownerOf(email);
  if (!owner) return;
  offlineStatus.set({ offline: false });
  const d = await db();
  if (path === '/mbox/index') {
    await d.put('mbox', { owner, value: value as MboxIndex });
  } else if (path === '/mail/list') {
    const query = listQuery(data);
    if (query) await d.put('lists', { owner, query, value: value as MailList, savedAt: Date.now() });
  } else if (path === '/read/index') {
    const mail = value as Mail;
    await d.put('mails', { owner, id: String(mail.id), value: mail, openedAt: Date.now() });
    await trimMails(d);
    void keepAttachments(d, owner, mail);
  } else if (path === '/signature/default') {
    await d.put('signatures', { owner, mode: String(data?.mode ?? ''), value: value as ResolvedSignature });
  }
}

/** A kept answer for a call the network refused, or undefined when none is kept. */
export async function recall(path: string, data: Data, email: string): Promise<unknown> {
  const owner = ownerOf(email);
  offlineStatus.set({ offline: true });
  if (!owner) return undefined;
  const d = await db();
  if (path === '/mbox/index') return (await d.get('mbox', owner))?.value;
  if (path === '/mail/list') {
    const query = listQuery(data);
    return query ? (await d.get('lists', [owner, query]))?.value : undefined;
  }
  if (path === '/read/index') return (await d.get('mails', [owner, String(data?.mid ?? '')]))?.value;
  if (path === '/signature/default') return (await d.get('signatures', [owner, String(data?.mode ?? '')]))?.value;
  if (path === '/write/load') return composeFromKept(d, owner, data);
  return undefined;
}

/**
 * write/load for a reply or forward of a kept mail, offline: the same answer the server
 * gives, made by the same shared rule (packages/shared compose-prefill.ts) from the mail as
 * read/index gave it. A draft (mode edit) is not answered: its own kept copy may be stale.
 */
async function composeFromKept(d: OfflineDb, owner: string, data: Data): Promise<unknown> {
  const mode = String(data?.mode ?? '');
  if (mode !== 'reply' && mode !== 'replyAll' && mode !== 'forward') return undefined;
  const kept = await d.get('mails', [owner, String(data?.mid ?? '')]);
  if (!kept) return undefined;
  const lang = data?.lang === 'en' ? 'en' : 'zh';
  const tz = Number(data?.tz ?? 0) || 0;
  return prefillFromMail(kept.value, mode, { lang, tz, self: owner, token: session.get().token });
}

async function trimMails(d: OfflineDb): Promise<void> {
  const count = await d.count('mails');
  if (count <= OFFLINE_MAILS_MAX) return;
  let extra = count - OFFLINE_MAILS_MAX;
  let cursor = await d.transaction('mails', 'readwrite').store.index('openedAt').openCursor();
  while (cursor && extra > 0) {
    await cursor.delete();
    extra -= 1;
    cursor = await cursor.continue();
  }
}

async function keepAttachments(d: OfflineDb, owner: string, mail: Mail): Promise<void> {
  const token = session.get().token;
  for (const a of mail.attachments) {
    if (a.inline || a.size > OFFLINE_ATTACH_FILE_MAX) continue;
    if (await d.getKey('attachments', [owner, a.id])) continue;
    const blob = await fetchAttachmentBlob(a.id, token);
    // The session may have moved on (logout, another mailbox) while the bytes came.
    if (!blob || blob.size > OFFLINE_ATTACH_FILE_MAX || session.get().token !== token) continue;
    try {
      await d.put('attachments', { owner, id: a.id, blob, size: blob.size, savedAt: Date.now() });
    } catch {
      return; // the store was wiped or the device is out of space: stop quietly
    }
    await evictAttachments(d);
  }
}

/** Oldest first, until the kept attachments fit OFFLINE_ATTACH_TOTAL_MAX. */
export async function evictAttachments(d: OfflineDb, max = OFFLINE_ATTACH_TOTAL_MAX): Promise<void> {
  const tx = d.transaction('attachments', 'readwrite');
  let total = 0;
  const rows: { key: [string, string]; size: number }[] = [];
  for (let c = await tx.store.index('savedAt').openCursor(); c; c = await c.continue()) {
    rows.push({ key: [c.value.owner, c.value.id], size: c.value.size });
    total += c.value.size;
  }
  for (const row of rows) {
    if (total <= max) break;
    await tx.store.delete(row.key);
    total -= row.size;
  }
  await tx.done;
}

/** A kept attachment of the current mailbox, for reading it offline. */
export async function keptAttachment(id: string): Promise<Blob | null> {
  const owner = ownerOf(session.get().currentEmailName);
  if (!owner) return null;
  return (await (await db()).get('attachments', [owner, id]))?.blob ?? null;
}

/**
 * An action done offline shows at once in what is kept: read and star change the kept
 * rows, move and delete take the mail out of the kept lists of its folder.
 */
export async function applyLocally(email: string, path: string, data: Record<string, string | number | boolean>): Promise<void> {
  const owner = ownerOf(email);
  if (!owner) return;
  const ids = new Set(String(data.ids ?? '').split(',').filter(Boolean));
  const patch = (m: MailSummary): MailSummary | null => {
    if (!ids.has(String(m.id))) return m;
    if (path === '/mailop/read') return { ...m, read: Boolean(data.read) };
    if (path === '/mailop/star') return { ...m, star: Boolean(data.star) };
    return String(m.mid) === String(data.to) ? m : null;
  };
  const d = await db();
  const tx = d.transaction(['lists', 'mails'], 'readwrite');
  for (let c = await tx.objectStore('lists').index('owner').openCursor(owner); c; c = await c.continue()) {
    const list = c.value.value;
    const next = list.list.map(patch).filter((m): m is MailSummary => m !== null);
    const removed = list.list.length - next.length;
    await c.update({ ...c.value, value: { ...list, list: next, total: Math.max(0, list.total - removed) } });
  }
  for (const id of ids) {
    const kept = await tx.objectStore('mails').get([owner, id]);
    if (!kept) continue;
    const next = patch(kept.value);
    await tx.objectStore('mails').put({ ...kept, value: next ? { ...kept.value, ...next } : kept.value });
  }
  await tx.done;
}
