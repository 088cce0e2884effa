// coi-sw.js — a service worker that makes the demo cross-origin isolated on a static host that cannot send
// headers (docs/embedding.md "Hosting"): it answers every request of its scope from the network and adds the headers the
// host would have sent, COOP same-origin and COEP require-corp (so crossOriginIsolated is true and the threaded
// build runs), and CORP same-origin on same-origin answers (so they may be loaded under COEP).
//
// The page registers it only when it is not isolated and was asked to (?coi=1, or data-coi="sw" on <html>:
// app/build.js), then reloads once so the page itself comes through the worker; a session flag stops a second
// reload if isolation still fails (an old browser, a private window without service workers), and the page then
// runs the single-thread build and says why. Unregister it from the browser's site settings, or with
// navigator.serviceWorker.getRegistrations() in the console.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // A request the worker cannot repeat as is (DevTools' cache-only requests for other origins) goes its own way.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith((async () => {
    const response = await fetch(request);
    if (response.status === 0) return response; // opaque (no-cors, other origin): its headers cannot be changed
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    if (new URL(request.url).origin === self.location.origin) headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  })());
});
