// sw.js: the static board's service worker. After one visit the board
// opens and Denham plays with no network: every file of the folder (the
// list and version below are written by `make web-static`) is kept in a
// cache of that version and served from it first, as the host sent it: with
// the headers of cross-origin isolation (COOP and COEP) where the host sends
// them (the page then has shared memory, offline too), else without (the
// engine unwinds between slices instead: wasi.js). It adds none of its own:
// when it did, the first board from the cache came some 300 ms later
// (README, "Play without installing").
const VERSION = '@VERSION@';
const FILES = [@FILES@];
const CACHE = `denham-${VERSION}`;

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith('denham-') && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

let opened = null; // the cache, opened once for every request

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== location.origin) return;
  e.respondWith((async () => {
    opened ||= caches.open(CACHE).catch((err) => { opened = null; throw err; });
    const cache = await opened;
    // The exact address first: a match that ignores the query scans the
    // whole cache, and Chromium answers such matches one at a time (with
    // it alone, a cached page's scripts ran some 300 ms later).
    const kept = await cache.match(req) || await cache.match(req, { ignoreSearch: true });
    return kept || fetch(req);
  })());
});
