import { Dialog, Toast } from 'antd-mobile';
import { REQUEST_TIMEOUT_MS } from '@mailwing/shared';
import { offlineMessages } from '../i18n/offline';
import { db } from './db';
import { settlesWithin } from './deadline';
import { replay } from './queue';

// Issue 15: logout deletes the offline store (boot.ts), outbox included, so mail written
// offline would be lost without a word. Before the usual "Log out?" question the settings
// page asks here: online, the outbox is sent first (usually that empties it and nothing
// more is asked); whatever still waits is counted and the user chooses, Cancel being the
// safe, emphasised answer and what closing the dialog means.

/**
 * Mails still waiting in the outbox, every mailbox of the device (logout wipes them all).
 * Online, the outbox is sent first, with a loading toast: a server that hangs would otherwise
 * leave the user looking at nothing. The wait is bounded by the request timeout, the one
 * every call of the app has (REQUEST_TIMEOUT_MS); after it, what still waits is counted.
 */
async function waiting(): Promise<number> {
  const d = await db();
  if (!navigator.onLine) return d.count('outbox');
  // Queued actions (read, star, move, delete) are sent too: logout would wipe them as well.
  const mail = await d.count('outbox');
  if (mail === 0 && (await d.count('actions')) === 0) return 0;
  const loading = Toast.show({ icon: 'loading', content: mail > 0 ? offlineMessages().logoutSending : offlineMessages().logoutSyncing, duration: 0, maskClickable: false });
  try {
    await settlesWithin(replay(), REQUEST_TIMEOUT_MS);
  } finally {
    loading.close();
  }
  return (await db()).count('outbox');
}

/**
 * 'none' when nothing waits (the caller asks its usual question), 'discard' when the user
 * chose to log out anyway, 'cancel' otherwise.
 */
export async function askBeforeLogout(): Promise<'none' | 'discard' | 'cancel'> {
  const n = await waiting().catch(() => 0);
  if (n === 0) return 'none';
  const m = offlineMessages();
  return new Promise((resolve) => {
    Dialog.show({
      title: m.logoutOutboxTitle,
      content: m.logoutOutbox(n),
      closeOnMaskClick: true,
      closeOnAction: true,
      // Cancel first and bold: the answer that loses nothing.
      actions: [
        { key: 'cancel', text: m.cancel, bold: true },
        { key: 'discard', text: m.logoutDiscard, danger: true },
      ],
      onAction: (action) => resolve(action.key === 'discard' ? 'discard' : 'cancel'),
      onClose: () => resolve('cancel'),
    });
  });
}
