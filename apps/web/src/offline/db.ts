import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Mail, MailList, MboxIndex, ResolvedSignature } from '@mailwing/shared';

// Issue 15, scope 3: the offline store. Every record carries its owner, the mailbox's address
// in lower case, so switching mailboxes never shows another mailbox's mail; logging out
// deletes the whole database.

export const DB_NAME = 'mailwing-offline';

/** A write/send waiting for the network. `key` is its Idempotency-Key: a replay never sends twice. */
export interface OutboxItem {
  key: string;
  owner: string;
  data: Record<string, string | number | boolean>;
  subject: string;
  to: string;
  createdAt: number;
  /** waiting: not yet accepted; failed: the server refused it (reason shown, kept until the user acts). */
  state: 'waiting' | 'failed';
  error?: string;
}

/** A read/star/move/delete done offline, replayed in order when back online. */
export interface QueuedAction {
  key: string;
  owner: string;
  path: string;
  data: Record<string, string | number | boolean>;
  createdAt: number;
}

interface Schema extends DBSchema {
  mbox: { key: string; value: { owner: string; value: MboxIndex } };
  lists: { key: [string, string]; value: { owner: string; query: string; value: MailList; savedAt: number }; indexes: { owner: string } };
  mails: { key: [string, string]; value: { owner: string; id: string; value: Mail; openedAt: number }; indexes: { owner: string; openedAt: number } };
  attachments: { key: [string, string]; value: { owner: string; id: string; blob: Blob; size: number; savedAt: number }; indexes: { savedAt: number } };
  outbox: { key: string; value: OutboxItem; indexes: { owner: string } };
  actions: { key: string; value: QueuedAction; indexes: { owner: string; createdAt: number } };
  /** Version 2: the signature compose puts in for each mode, so a reply written offline has it. */
  signatures: { key: [string, string]; value: { owner: string; mode: string; value: ResolvedSignature } };
}

export type OfflineDb = IDBPDatabase<Schema>;

let opening: Promise<OfflineDb> | null = null;

export function db(): Promise<OfflineDb> {
  opening ??= openDB<Schema>(DB_NAME, 2, {
    upgrade(d, oldVersion) {
      if (oldVersion < 1) version1(d);
      if (oldVersion < 2) d.createObjectStore('signatures', { keyPath: ['owner', 'mode'] });
    },
    // Another tab is wiping the store (logout): let it.
    blocking() {
      void opening?.then((d) => d.close());
      opening = null;
    },
  });
  return opening;
}

function version1(d: OfflineDb): void {
  d.createObjectStore('mbox', { keyPath: 'owner' });
  d.createObjectStore('lists', { keyPath: ['owner', 'query'] }).createIndex('owner', 'owner');
  const mails = d.createObjectStore('mails', { keyPath: ['owner', 'id'] });
  mails.createIndex('owner', 'owner');
  mails.createIndex('openedAt', 'openedAt');
  d.createObjectStore('attachments', { keyPath: ['owner', 'id'] }).createIndex('savedAt', 'savedAt');
  d.createObjectStore('outbox', { keyPath: 'key' }).createIndex('owner', 'owner');
  const actions = d.createObjectStore('actions', { keyPath: 'key' });
  actions.createIndex('owner', 'owner');
  actions.createIndex('createdAt', 'createdAt');
}

/** Logout: every mailbox's cache, outbox and queue go; nothing of the session stays on the device. */
export async function wipe(): Promise<void> {
  const open = opening;
  opening = null;
  if (open) (await open.catch(() => null))?.close();
  await deleteDB(DB_NAME);
}
