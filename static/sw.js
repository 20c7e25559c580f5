// finder's service worker (see docs/public-pages.md, "Offline"). It keeps exactly three kinds of
// things for use without a connection, and nothing else:
//   - the last calendar page the visitor opened (one copy, stored under "/"),
//   - the last "My night" page (one copy, stored under "/my-night"),
//   - the map's data of the last map opened (/?<filters>&map=data; one copy, stored under "/?map=data"),
//   - the fingerprinted static files (/static/<name>.<hash>.<ext>; one version of each file; the
//     map's Leaflet, clusters, outlines and map.js among them once the map has been opened).
// Pages are fetched from the network first; the kept copy is served only when the network fails (or
// has not answered within a few seconds and a copy exists), marked so that the page shows
// "Offline, last updated HH:MM"; the map's data likewise falls back to its kept copy, so the
// outlines and venues still show on a street with no signal. Every other request (htmx fragments, APIs, tracking, other pages)
// goes to the network untouched.
"use strict";

var CACHE = "finder-pack-v1";
var PAGE_SLOTS = { "/": "/", "/my-night": "/my-night" };
var MAP_DATA_SLOT = "/?map=data";
var FINGERPRINTED = /\/static\/(.+)\.([0-9a-f]{10})(\.[a-z0-9]+)$/;
// The site's base path ("" or "/fete"): the worker is served at <base>/sw.js, its scope is <base>/.
var BASE = new URL(self.registration ? self.registration.scope : self.location.href).pathname.replace(/\/$/, "");

/**
 * An address's path within the site and its language (docs/languages.md, "Addresses"): the base
 * path and a language prefix ("/en") removed, so "/fete/en/my-night" is "/my-night". Null when the
 * address is outside the site.
 */
function sitePath(url) {
  if (url.origin !== self.location.origin || url.pathname.indexOf(BASE) !== 0) return null;
  var path = url.pathname.slice(BASE.length) || "/";
  var language = /^\/(fr|en)(\/|$)/.exec(path);
  if (language) path = path.slice(3) || "/";
  return path;
}
// A page waits this long for the network before a kept copy is shown (a poor signal on the street).
var NETWORK_WAIT_MS = 6000;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf("finder-pack-") === 0 && name !== CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            }),
        );
      })
      .then(function () {
        return self.clients.claim();
      }),
  );
});

/** The slot a page address is kept under, or null when the worker does not keep it. */
function pageSlot(url) {
  var path = sitePath(url);
  return path === null ? null : PAGE_SLOTS[path] || null;
}

/** Whether a calendar or My night response is worth keeping: a full HTML page of the list itself. */
function keepable(url, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return false;
  if (sitePath(url) === "/" && url.searchParams.has("event")) return false; // an event's page, not the calendar
  return (response.headers.get("content-type") || "").indexOf("text/html") === 0;
}

/** Stores a page copy under its slot with the time it was saved. */
function keepPage(slot, response) {
  return response.text().then(function (html) {
    var copy = new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "x-finder-saved-at": new Date().toISOString() } });
    return caches.open(CACHE).then(function (cache) {
      return cache.put(slot, copy);
    });
  });
}

/** A kept page, marked as served offline: its <body> gets data-offline (the page script shows the notice). */
function offlineCopy(cached) {
  var savedAt = cached.headers.get("x-finder-saved-at") || "";
  return cached.text().then(function (html) {
    var marked = html.replace(/<body(?=[\s>])/, '<body data-offline="' + savedAt.replace(/[^0-9TZ:.-]/g, "") + '"');
    return new Response(marked, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
}

function pageFromNetworkFirst(event, url, slot) {
  // Past the browser's HTTP cache ("no-cache" revalidates): a stale copy it would serve by itself
  // while offline would hide that the page is not fresh. Redirects reach the page as they are.
  var network = fetch(url.href, { cache: "no-cache", credentials: "same-origin", redirect: "manual" }).then(function (response) {
    if (keepable(url, response)) event.waitUntil(keepPage(slot, response.clone()));
    return response;
  });
  event.waitUntil(network.catch(function () {}));
  return caches.open(CACHE).then(function (cache) {
    return cache.match(slot).then(function (cached) {
      if (!cached) return network;
      var timer;
      var slow = new Promise(function (resolve) {
        timer = setTimeout(resolve, NETWORK_WAIT_MS);
      });
      return Promise.race([network, slow])
        .then(function (response) {
          clearTimeout(timer);
          return response || offlineCopy(cached);
        })
        .catch(function () {
          clearTimeout(timer);
          return offlineCopy(cached);
        });
    });
  });
}

/** Whether an address is the homepage map's JSON (fetched by the page when the map opens). */
function isMapData(url) {
  return sitePath(url) === "/" && url.searchParams.get("map") === "data";
}

function keepMapData(response) {
  if (!response || response.status !== 200 || (response.headers.get("content-type") || "").indexOf("application/json") !== 0) return Promise.resolve();
  return response.text().then(function (body) {
    return caches.open(CACHE).then(function (cache) {
      return cache.put(MAP_DATA_SLOT, new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }));
    });
  });
}

/** The map's JSON from the network; its kept copy (the last map opened) when the network fails. */
function mapDataFromNetworkFirst(event, url) {
  return fetch(url.href, { cache: "no-cache", credentials: "same-origin" })
    .then(function (response) {
      event.waitUntil(keepMapData(response.clone()));
      return response;
    })
    .catch(function (error) {
      return caches.open(CACHE).then(function (cache) {
        return cache.match(MAP_DATA_SLOT).then(function (cached) {
          if (cached) return cached;
          throw error;
        });
      });
    });
}

/** Drops the other versions of a fingerprinted file (same name, another hash). */
function pruneVersions(cache, path) {
  var match = FINGERPRINTED.exec(path);
  if (!match) return Promise.resolve();
  return cache.keys().then(function (requests) {
    return Promise.all(
      requests.map(function (request) {
        var other = FINGERPRINTED.exec(new URL(request.url).pathname);
        if (other && other[1] === match[1] && other[3] === match[3] && other[2] !== match[2]) return cache.delete(request);
        return undefined;
      }),
    );
  });
}

function keepStatic(cache, request, response) {
  var path = new URL(request.url).pathname;
  return cache.put(request, response).then(function () {
    return pruneVersions(cache, path);
  });
}

function staticFromCacheFirst(event) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(event.request, { ignoreVary: true, ignoreSearch: true }).then(function (cached) {
      if (cached) return cached;
      return fetch(event.request).then(function (response) {
        if (response.status === 200 && response.type === "basic") event.waitUntil(keepStatic(cache, event.request, response.clone()));
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    var slot = pageSlot(url);
    if (slot) event.respondWith(pageFromNetworkFirst(event, url, slot));
    return;
  }
  if (isMapData(url)) event.respondWith(mapDataFromNetworkFirst(event, url));
  else if (FINGERPRINTED.test(url.pathname)) event.respondWith(staticFromCacheFirst(event));
});

// A page asks the worker to keep addresses it loaded before the worker was running (the first
// visit), or the visitor's My night after a save. Only addresses the worker keeps anyway are taken.
self.addEventListener("message", function (event) {
  var data = event.data;
  if (!data || data.type !== "keep" || !Array.isArray(data.urls)) return;
  var jobs = data.urls.slice(0, 40).map(function (raw) {
    var url;
    try {
      url = new URL(String(raw), self.location.origin);
    } catch (e) {
      return undefined;
    }
    if (url.origin !== self.location.origin) return undefined;
    if (isMapData(url)) {
      return fetch(url.href, { credentials: "same-origin" })
        .then(keepMapData)
        .catch(function () {});
    }
    var slot = pageSlot(url);
    if (slot) {
      return fetch(url.href, { credentials: "same-origin" })
        .then(function (response) {
          if (keepable(url, response)) return keepPage(slot, response);
          return undefined;
        })
        .catch(function () {});
    }
    if (!FINGERPRINTED.test(url.pathname)) return undefined;
    return caches.open(CACHE).then(function (cache) {
      return cache.match(url.href, { ignoreVary: true }).then(function (cached) {
        if (cached) return undefined;
        var request = new Request(url.href, { credentials: "same-origin" });
        return fetch(request)
          .then(function (response) {
            if (response.status === 200) return keepStatic(cache, request, response);
            return undefined;
          })
          .catch(function () {});
      });
    });
  });
  event.waitUntil(
    Promise.all(jobs).then(function () {
      if (event.source && event.source.postMessage) event.source.postMessage({ type: "kept" });
    }),
  );
});
