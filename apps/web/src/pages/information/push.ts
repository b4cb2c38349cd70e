import { bindPush, pushKey, unbindPush } from '../../api/settings';

// Web Push on this device (RFC 8030): the browser's subscription, made with our
// VAPID key on the service worker, and tied to the session on the server.

export type PushState = 'on' | 'off' | 'denied' | 'unsupported' | 'insecure' | 'no-worker';

/** The VAPID key comes base64url-encoded; subscribe() wants the bytes. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  const raw = atob(b64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameBytes(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/** What stands in the way, if anything, before asking for permission. */
function blocker(): PushState | null {
  if (!window.isSecureContext) return 'insecure';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return null;
}

async function subscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return registration ? registration.pushManager.getSubscription() : null;
}

function subscriptionInput(sub: PushSubscription) {
  const keys = sub.toJSON().keys ?? {};
  return { endpoint: sub.endpoint, p256dh: keys.p256dh ?? '', auth: keys.auth ?? '' };
}

/**
 * This device's state. When it is subscribed, the subscription is tied to the
 * current session again (quietly): another bound mailbox may be current now,
 * and push services renew subscriptions now and then.
 */
export async function pushState(): Promise<PushState> {
  const blocked = blocker();
  if (blocked) return blocked;
  if (!(await navigator.serviceWorker.getRegistration())) return 'no-worker';
  const sub = await subscription();
  if (!sub || Notification.permission !== 'granted') return 'off';
  void bindPush(subscriptionInput(sub), true).catch(() => undefined);
  return 'on';
}

/** Asks for permission, subscribes with the server's key and binds the subscription to this session. */
export async function turnPushOn(): Promise<PushState> {
  const blocked = blocker();
  if (blocked) return blocked;
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return 'no-worker';
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'off';
  const ready = await navigator.serviceWorker.ready;
  const key = base64UrlBytes((await pushKey()).publicKey);
  let sub = await ready.pushManager.getSubscription();
  // Made with another key (the server's keys were replaced): it cannot receive our pushes.
  if (sub && !sameBytes(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await bindPush(subscriptionInput(sub));
  return 'on';
}

/** Ends this device's subscription (for every mailbox on it), telling the server first. */
export async function turnPushOff(): Promise<PushState> {
  const sub = await subscription();
  if (sub) {
    await unbindPush(sub.endpoint).catch(() => undefined);
    await sub.unsubscribe();
  }
  return 'off';
}
