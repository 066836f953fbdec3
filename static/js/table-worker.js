// The table page's offline worker, served as /t/sw.js (games.table_views.table_worker) so that
// its scope is /t/. It keeps the last copy of each table page (/t/<token>/) it served and answers
// a reload of that page from the copy when the network does not answer, so the page comes back
// with what the player typed and the "Not sent yet" line (table-offline.js) instead of the
// browser's offline page.
//
// Network first, always: a copy is used only when the network fails, never when it answers. Only
// table pages opened by the phone itself (navigations) are kept, only their 200 answers; a link
// that stops working (404, 410) loses its copy. Nothing posted is ever kept or answered here: a
// post goes to the network and, when there is none, table-offline.js keeps it and sends it later.
"use strict";

const CACHE = "pegboard-table-pages-1";
const TABLE_PAGE = /^\/t\/[^/]+\/$/;
const KEEP = 8; // the table pages a phone has opened lately: one or two a morning

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name !== CACHE).map((name) => caches.delete(name))
        )
      )
      .then(() => self.clients.claim())
  );
});

function tablePath(url) {
  const address = new URL(url, self.location.href);
  if (address.origin !== self.location.origin || !TABLE_PAGE.test(address.pathname)) return null;
  return address.pathname;
}

async function keep(path, response) {
  const cache = await caches.open(CACHE);
  if (response.status === 200 && response.type === "basic") {
    await cache.delete(path); // the newest copy goes last: the oldest are dropped first
    await cache.put(path, response);
    const kept = await cache.keys();
    await Promise.all(kept.slice(0, Math.max(0, kept.length - KEEP)).map((r) => cache.delete(r)));
  } else if (response.status === 404 || response.status === 410) {
    await cache.delete(path);
  }
}

async function fromNetwork(event, path) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(keep(path, response.clone()));
    return response;
  } catch (error) {
    const copy = await caches.match(path, { cacheName: CACHE, ignoreVary: true });
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.mode !== "navigate") return;
  const path = tablePath(request.url);
  if (!path) return;
  event.respondWith(fromNetwork(event, path));
});

// After a form of the page was sent (its answer shown without a navigation), the page asks for a
// fresh copy, so a later reload without a network shows the table as it is now.
self.addEventListener("message", (event) => {
  const path = event.data && tablePath(event.data.refresh || "");
  if (!path) return;
  event.waitUntil(
    fetch(path, { credentials: "same-origin", cache: "no-store" })
      .then((response) => keep(path, response))
      .catch(() => {})
  );
});
