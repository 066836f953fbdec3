// The table page's offline worker, served as /t/sw.js (games.table_views.table_worker) so that
// its scope is /t/. It keeps the last copy of each table page (/t/<token>/) it served and answers
// a reload of that page from the copy when the network does not answer, so the page comes back
// with what the player typed and the "Not sent yet" line (table-offline.js) instead of the
// browser's offline page.
//
// Network first, always: a copy is used only when the network fails, never when it answers. Only
// table pages opened by the phone itself (navigations) are kept, only their 200 answers; a link
// that stops working (404, 410) loses its copy. The files those pages load (the site's own
// styles, scripts and images) are kept the same way, so the copy shows as the page did. Nothing
// posted is ever kept or answered here: a post goes to the network and, when there is none,
// table-offline.js keeps it and sends it later. No other page is kept.
"use strict";

const CACHE = "pegboard-table-pages-1";
const FILES = "pegboard-table-files-1";
const TABLE_PAGE = /^\/t\/[^/]+\/$/;
const KEEP = 8; // the table pages a phone has opened lately: one or two a morning
const KEEP_FILES = 24; // a page's styles, scripts and images, and a version or two before them
const FILE_KINDS = ["style", "script", "image", "font"];

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name !== CACHE && name !== FILES)
            .map((name) => caches.delete(name))
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

async function keep(path, response, name = CACHE, most = KEEP) {
  const cache = await caches.open(name);
  if (response.status === 200 && response.type === "basic") {
    await cache.delete(path); // the newest copy goes last: the oldest are dropped first
    await cache.put(path, response);
    const kept = await cache.keys();
    await Promise.all(kept.slice(0, Math.max(0, kept.length - most)).map((r) => cache.delete(r)));
  } else if (response.status === 404 || response.status === 410) {
    await cache.delete(path);
  }
}

async function fromNetwork(event, key, name, most) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(keep(key, response.clone(), name, most));
    return response;
  } catch (error) {
    const copy = await caches.match(key, { cacheName: name, ignoreVary: true });
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const address = new URL(request.url);
  if (address.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    const path = tablePath(request.url);
    if (path) event.respondWith(fromNetwork(event, path, CACHE, KEEP));
  } else if (FILE_KINDS.includes(request.destination)) {
    // A file a table page loads: its address with its version, as the page names it.
    const key = address.pathname + address.search;
    event.respondWith(fromNetwork(event, key, FILES, KEEP_FILES));
  }
});

// After a form of the page was sent (its answer shown without a navigation), the page asks for a
// fresh copy, so a later reload without a network shows the table as it is now. The request says
// it is a copy (core.context_processors): the server then leaves the messages a post left for the
// page the player sees next unread, even when this copy reaches it first.
const COPY_HEADERS = { "X-Pegboard-Copy": "1" };

self.addEventListener("message", (event) => {
  const path = event.data && tablePath(event.data.refresh || "");
  if (!path) return;
  event.waitUntil(
    fetch(path, { credentials: "same-origin", cache: "no-store", headers: COPY_HEADERS })
      .then((response) => keep(path, response))
      .catch(() => {})
  );
});
