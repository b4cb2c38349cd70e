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
