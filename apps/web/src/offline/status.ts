import { createStore, useStore } from '../state/store';

// Issue 15: whether the app is offline and what waits for the network; the banner and the
// outbox page read it.

export interface OfflineStatus {
  offline: boolean;
  /** Mails waiting in the outbox of the current mailbox (failed ones included). */
  outbox: number;
  /** Actions (read, star, move, delete) waiting to be replayed. */
  actions: number;
  /** A replay is running. */
  syncing: boolean;
}

export const offlineStatus = createStore<OfflineStatus>({
  offline: typeof navigator !== 'undefined' && !navigator.onLine,
  outbox: 0,
  actions: 0,
  syncing: false,
});

export function useOfflineStatus<S>(select: (s: OfflineStatus) => S): S {
  return useStore(offlineStatus, select);
}
