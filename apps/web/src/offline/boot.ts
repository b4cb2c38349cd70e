import { refreshMbox } from '../api/endpoints';
import { offlineMessages } from '../i18n/offline';
import { subscribeLanguage } from './language';
import { sessionStore } from '../state/session';
import { refreshCounts, replay } from './queue';
import { wipe } from './db';
import { offlineStatus } from './status';
import './offline.css';

// Issue 15, scope 3: the offline banner and the replay triggers, started after the first
// screen (main.tsx). The banner sits above the app, in the page's flow, and the app's height
// shrinks by its height (offline.css): it covers nothing.

export const OUTBOX_ROUTE = '#/pages/outbox/index';
/** While the server is unreachable with the device online (a server restart), try this often. */
const PROBE_MS = 30_000;

function banner(): HTMLElement {
  const el = document.createElement('div');
  el.className = 'mw-offline-banner';
  el.setAttribute('role', 'status');
  el.hidden = true;
  document.body.insertBefore(el, document.getElementById('root'));
  return el;
}

function render(el: HTMLElement): void {
  const s = offlineStatus.get();
  const loggedIn = Boolean(sessionStore.get().token);
  const shown = loggedIn && (s.offline || s.outbox > 0);
  el.hidden = !shown;
  document.documentElement.classList.toggle('mw-has-offline-banner', shown);
  if (!shown) return;
  const m = offlineMessages();
  el.classList.toggle('mw-offline-banner--online', !s.offline);
  el.replaceChildren();
  const text = document.createElement('span');
  text.className = 'mw-offline-text';
  text.textContent = s.offline ? m.offlineBanner : s.syncing ? m.syncingBanner : m.failed;
  el.append(text);
  if (s.outbox > 0) {
    const link = document.createElement('a');
    link.className = 'mw-offline-outbox';
    link.href = OUTBOX_ROUTE;
    link.textContent = m.outboxLink(s.outbox);
    el.append(link);
  }
}

export function startOffline(): void {
  const el = banner();
  const draw = () => render(el);
  offlineStatus.subscribe(draw);
  subscribeLanguage(draw);
  let owner = sessionStore.get().currentEmailName;
  let token = sessionStore.get().token;
  sessionStore.subscribe(() => {
    const now = sessionStore.get().currentEmailName;
    const had = token;
    token = sessionStore.get().token;
    // Logout (and password-free entry's clean start) drop the token: every mailbox's kept
    // mail, outbox and queue leave the device with it.
    if (had && !token) void wipe().then(() => offlineStatus.set({ outbox: 0, actions: 0 }));
    draw();
    if (now === owner) return;
    // Another mailbox (or none): its own counts, and its own queue to replay.
    owner = now;
    void refreshCounts().then(() => replay());
  });
  window.addEventListener('offline', () => offlineStatus.set({ offline: true }));
  window.addEventListener('online', () => {
    offlineStatus.set({ offline: false });
    void replay();
    void refreshMbox();
  });
  setInterval(() => {
    if (offlineStatus.get().offline && navigator.onLine) {
      void refreshMbox();
      void replay();
    }
  }, PROBE_MS);
  draw();
  void refreshCounts().then(() => replay());
}
