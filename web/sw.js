// Keeps the page working offline once loaded: every file of the page is cached on first
// visit and served from the cache, refreshed from the network when it answers.
"use strict";
const CACHE = "oddsmith-v2";
const FILES = ["./", "index.html", "app.js", "style.css", "engine.js", "worker.js", "oddsmith.js", "oddsmith_bg.wasm", "DejaVuSans.ttf"];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  e.respondWith(
    fetch(e.request)
      .then((r) => {
        if (r.ok) { const copy = r.clone(); caches.open(CACHE).then((c) => c.put(e.request, copy)); }
        return r;
      })
      .catch(() => caches.match(e.request, { ignoreSearch: true }).then((r) => r || Response.error())),
  );
});
