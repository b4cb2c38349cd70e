import { Dialog, Toast } from 'antd-mobile';
import { TOAST_MS } from '@mailwing/shared';
import { switchTo, unbindMailbox } from '../../api/mailboxes';
import { settingsMessages } from '../../i18n/settings';
import { session, sameAddress } from '../../state/session';

// What a tap or a swipe in the mailbox tab does. Loaded when the tab opens,
// after its first paint, so the first-screen bundle does not carry it.


/** Switches to a bound mailbox at once (spec §6), with a spinner while the token is checked. */
export async function pickMailbox(email: string): Promise<boolean> {
  if (sameAddress(email, session.get().currentEmailName)) return false;
  const m = settingsMessages();
  Toast.show({ icon: 'loading', content: m.loading, duration: 0, maskClickable: false });
  const switched = await switchTo(email);
  // Shown in the spinner's place: closing it first would leave its input-blocking mask behind the new toast.
  // A failure's reason has replaced the spinner already (the request layer's
  // toast, gone after TOAST_MS); should there be none, the spinner goes then too.
  if (switched) Toast.show({ content: <>{m.mbSwitched}<br />{email}</> });
  else setTimeout(() => Toast.clear(), TOAST_MS);
  return switched;
}

/** Unbinds a mailbox after a confirmation; spec §5: never the one in use. True when it is gone. */
export async function unbindFlow(email: string): Promise<boolean> {
  const m = settingsMessages();
  if (sameAddress(email, session.get().currentEmailName)) {
    Toast.show({ content: m.mbUnbindCurrent });
    return false;
  }
  const confirmed = await Dialog.confirm({ content: m.mbUnbindConfirm(email), confirmText: m.mbUnbind, cancelText: m.cancel });
  if (!confirmed) return false;
  try {
    await unbindMailbox(email);
  } catch {
    return false;
  }
  session.removeMailbox(email);
  return true;
}
