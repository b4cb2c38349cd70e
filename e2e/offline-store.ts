import type { Page } from 'playwright-core';

// The web client's offline store (IndexedDB 'mailwing-offline', apps/web/src/offline/db.ts),
// read and written from the tests the way the app itself would find it: a mail left in the
// outbox or an action left in the queue, as if written offline and not yet replayed.

/** Whether the app has opened its offline store on this page yet. */
export const offlineStoreExists = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).some((d) => d.name === 'mailwing-offline'));

/** Puts `value` into `store` ('outbox' or 'actions') directly, so no replay has seen it. */
export function putOffline(page: Page, store: 'outbox' | 'actions', value: Record<string, unknown>): Promise<void> {
  return page.evaluate(([name, item]) => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('mailwing-offline');
    open.onsuccess = () => {
      const tx = open.result.transaction(name, 'readwrite');
      tx.objectStore(name).put(item);
      tx.oncomplete = () => { open.result.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
    open.onerror = () => reject(open.error);
  }), [store, value] as const);
}

/** A mail from alice to bob waiting in the outbox, sent at once (no undo) when replayed. */
export const outboxMail = (key: string, subject: string) => ({
  key, owner: 'alice@demo.test', subject, to: 'bob@demo.test', createdAt: Date.now(), state: 'waiting',
  data: { to: 'bob@demo.test', subject, html: `<p>${subject}</p>`, undo: false },
});

/** Whether `owner`'s kept copy of mail `id` is in the offline store. */
export const keptInDb = (page: Page, owner: string, id: string) => page.evaluate(([o, mid]) => new Promise<boolean>((resolve) => {
  const open = indexedDB.open('mailwing-offline');
  open.onsuccess = () => {
    const get = open.result.transaction('mails').objectStore('mails').get([o, mid]);
    get.onsuccess = () => { resolve(Boolean(get.result)); open.result.close(); };
    get.onerror = () => resolve(false);
  };
  open.onerror = () => resolve(false);
}), [owner, id] as const);
