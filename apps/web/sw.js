/* global __VERSION__, __SHELL__ -- filled in by the build (vite.config.ts) */
// Mailwing service worker: caches the app shell only. API calls (/h5/…) carry
// session tokens and private mail, so they always go to the network untouched.
const CACHE = __VERSION__;
const SHELL = __SHELL__;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/h5/')) return;
  if (request.mode === 'navigate') {
    // Network first, so a new build shows at once; the cached shell when offline.
    event.respondWith(fetch(request).catch(() => caches.match('./index.html', { ignoreSearch: true }).then((r) => r || caches.match('./'))));
    return;
  }
  event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
});

// Web Push (RFC 8030; the payload is encrypted per RFC 8291 and decrypted by
// the browser). The server sends a PushPayload: { title, body, mid, email, url }.
// userVisibleOnly subscriptions must show a notification for every push.
self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(payload.title || 'Mailwing', {
    body: payload.body || '',
    // One notification per mail: a repeated push for it replaces, not stacks. Ids are
    // per mailbox, so two bound mailboxes' mail with the same id must not collide.
    tag: payload.mid ? `${payload.email || ''}:${payload.mid}` : undefined,
    data: payload,
    icon: './icon-192.png',
    badge: './icon-192.png',
  }));
});

/**
 * Where a tap goes: the payload's url (the read page for the mail), ours only,
 * carrying the mailbox as &email= so the app switches to it first (a bound
 * mailbox that is not the current one).
 */
function openUrl(payload) {
  const fallback = `./#/pages/read-mail/index?mid=${encodeURIComponent(payload.mid || '')}`;
  let url;
  try {
    url = new URL(payload.url || fallback, self.registration.scope);
  } catch {
    url = new URL(fallback, self.registration.scope);
  }
  if (url.origin !== self.location.origin) url = new URL(fallback, self.registration.scope);
  if (payload.email && !/[?&]email=/.test(url.hash)) {
    url.hash += `${url.hash.includes('?') ? '&' : '?'}email=${encodeURIComponent(payload.email)}`;
  }
  return url.href;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = openUrl(event.notification.data || {});
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((c) => c.url.startsWith(self.registration.scope));
    if (!open) return self.clients.openWindow(target);
    await open.focus();
    // The page routes to it (main.tsx): only the hash changes, so nothing reloads
    // and nothing typed there is lost.
    open.postMessage({ type: 'mailwing:open', url: target });
    return undefined;
  })());
});
