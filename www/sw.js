// The playground's service worker: after a first visit the page, its workers and lessons (built into the wasm)
// load and run with no network. Each build stamps VERSION and FILES here (www/stamp-sw.sh, a Trunk post-build
// hook). A new build installs into a cache of its own and waits: pages open on the old build keep getting only
// old files until the page (www/offline.js) tells it to take over and reloads, so old and new never mix.
const VERSION = '__VERSION__';
const FILES = __FILES__;
// Several copies of the playground may live on one site: each scope keeps its own caches.
const PREFIX = `ibcc-playground ${self.registration.scope} `;
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (e) => {
  // Past the HTTP cache: files without a hash in their names (index.html, worker.js) must be this build's.
  const fresh = ['./', ...FILES].map((f) => new Request(f, { cache: 'reload' }));
  e.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(fresh)));
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (e) => {
  if (e.data === 'take-over') self.skipWaiting();
});

self.addEventListener('fetch', (e) => {
  const request = e.request;
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  const path = request.url.slice(self.registration.scope.length).split(/[?#]/)[0];
  // The page itself, with any query (?embed) or fragment (a share link): the cached index.
  const key = path === '' || path === 'index.html' ? './' : FILES.includes(path) ? path : null;
  if (key === null) return;
  e.respondWith((async () => {
    const hit = await (await caches.open(CACHE)).match(key);
    return hit ?? fetch(request);
  })());
});
