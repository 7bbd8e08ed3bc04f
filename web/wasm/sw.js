// sw.js: the static board's service worker. After one visit the board
// opens and Denham plays with no network: every file of the folder (the
// list and version below are written by `make web-static`) is kept in a
// cache of that version and served from it first. What it serves carries
// the headers of cross-origin isolation (COOP and COEP), so that a page it
// serves may give the engine its commands through shared memory (no host
// needs to set them); the first visit, not yet served by it, is not
// isolated and the engine unwinds between slices instead (wasi.js).
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

function isolated(r) {
  if (r.type === 'opaque' || r.status === 0) return r;
  const headers = new Headers(r.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(r.body, { status: r.status, statusText: r.statusText, headers });
}

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
    return isolated(kept || await fetch(req));
  })());
});
