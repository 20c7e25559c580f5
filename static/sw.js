// finder's service worker (see docs/public-pages.md, "Offline"). It keeps, in one versioned cache,
// these things for use without a connection, and nothing else:
//   - the last calendar page the visitor opened (one copy, stored under "/"),
//   - the last "My night" page (one copy, stored under "/my-night"),
//   - the map's data of the last map opened (/?<filters>&map=data; one copy, stored under "/?map=data"),
//   - the details (the event modal's htmx fragment) of the events listed on the calendar pages the
//     visitor opened (at most MAX_LISTED_DETAILS, the oldest dropped first) and of every event of the
//     last My night kept (at most 30, replaced with the night),
//   - the offline page (/offline, in the visitor's language), shown instead of the browser's error
//     for any other page when the network fails,
//   - the fingerprinted static files (/static/<name>.<hash>.<ext>; one version of each file; the
//     map's Leaflet, clusters, outlines and map.js among them once the map has been opened).
// Pages are fetched from the network first; the kept copy is served only when the network fails (or
// has not answered within a few seconds and a copy exists), marked so that the page shows
// "Offline, last updated HH:MM"; an event's page (/?event=… or its share link) offline is the kept
// calendar with that event's kept details open. The map's data and the details likewise fall back to
// their kept copies. Every other request (other htmx fragments, APIs, tracking) goes to the network
// untouched.
"use strict";

// A new version of what is kept gets a new name: the old cache is deleted when this worker activates.
var CACHE = "finder-pack-v2";
var PAGE_SLOTS = { "/": "/", "/my-night": "/my-night" };
var MAP_DATA_SLOT = "/?map=data";
var OFFLINE_PAGE = "/offline";
// Details are kept under these made-up addresses (never requested by a page).
var LISTED_DETAILS = "/offline-pack/listed/";
var SAVED_DETAILS = "/offline-pack/saved/";
var MAX_LISTED_DETAILS = 100;
// A detail kept less than this long ago is not fetched again when a page lists its event again.
var DETAILS_FRESH_MS = 10 * 60 * 1000;
var EVENT_KEY = /^[a-z0-9_-]{1,64}$/;
var SHARE_PATH = /^\/event\/([^/]+)/;
// Pages the worker never answers for (the console and the machine endpoints).
var UNTOUCHED_PATHS = /^\/(admin|api|sw\.js)(\/|$)/;
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

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(keepOfflinePage(null).catch(function () {}));
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

function openCache() {
  return caches.open(CACHE);
}

/** The slot a page address is kept under, or null when the worker does not keep it. */
function pageSlot(url) {
  var path = sitePath(url);
  return path === null ? null : PAGE_SLOTS[path] || null;
}

function isHtml(response) {
  return (response.headers.get("content-type") || "").indexOf("text/html") === 0;
}

/** Whether a calendar or My night response is worth keeping: a full HTML page of the list itself. */
function keepable(url, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return false;
  if (sitePath(url) === "/" && url.searchParams.has("event")) return false; // an event's page, not the calendar
  return isHtml(response);
}

/** Stores a page copy under its slot with the time it was saved. */
function keepPage(slot, response) {
  return response.text().then(function (html) {
    var copy = new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "x-finder-saved-at": new Date().toISOString() } });
    return openCache().then(function (cache) {
      return cache.put(slot, copy);
    });
  });
}

/** The keys of a My night address (`/my-night?e=<key>,<key>`), at most 30. */
function nightKeys(url) {
  return (url.searchParams.get("e") || "")
    .split(",")
    .map(function (key) {
      return key.toLowerCase();
    })
    .filter(function (key) {
      return EVENT_KEY.test(key);
    })
    .slice(0, 30);
}

/** After My night was kept: its events' details are kept too (and those of the previous night dropped). */
function keepPageAndExtras(slot, url, response) {
  return keepPage(slot, response).then(function () {
    if (slot === "/my-night") return keepSavedDetails(nightKeys(url));
    return undefined;
  });
}

// ---- event details (the modal's fragment) --------------------------------------------------------

/** The event key of a details request (`/?event=<key>` sent by htmx), else null. */
function detailsKey(url, request) {
  if (sitePath(url) !== "/" || !url.searchParams.has("event") || url.searchParams.get("map")) return null;
  if (request && request.headers.get("hx-request") !== "true") return null;
  var key = (url.searchParams.get("event") || "").toLowerCase();
  return EVENT_KEY.test(key) ? key : null;
}

function fetchDetails(key) {
  return fetch(BASE + "/?event=" + encodeURIComponent(key), { credentials: "same-origin", cache: "no-cache", headers: { "HX-Request": "true" } });
}

function detailsCopy(html) {
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "x-finder-saved-at": new Date().toISOString() } });
}

/** Drops the oldest listed details past the bound (a cache lists its entries oldest first). */
function pruneListed(cache) {
  return cache.keys().then(function (requests) {
    var listed = requests.filter(function (request) {
      return new URL(request.url).pathname.indexOf(LISTED_DETAILS) === 0;
    });
    var extra = listed.length - MAX_LISTED_DETAILS;
    return Promise.all(
      listed.slice(0, Math.max(0, extra)).map(function (request) {
        return cache.delete(request);
      }),
    );
  });
}

/** Stores an event's details under the listed slot (and the saved one when the event is saved). */
function keepDetails(key, response) {
  if (!response || response.status !== 200 || !isHtml(response)) return Promise.resolve();
  return response.text().then(function (html) {
    return openCache().then(function (cache) {
      // A put replaces the older entry and goes last, so the pruning drops the least recently kept.
      return cache
        .put(LISTED_DETAILS + key, detailsCopy(html))
        .then(function () {
          return cache.match(SAVED_DETAILS + key);
        })
        .then(function (saved) {
          if (saved) return cache.put(SAVED_DETAILS + key, detailsCopy(html));
          return undefined;
        })
        .then(function () {
          return pruneListed(cache);
        });
    });
  });
}

function savedAt(response) {
  var at = Date.parse((response && response.headers.get("x-finder-saved-at")) || "");
  return isNaN(at) ? 0 : at;
}

/** Keeps the details of listed events, skipping those kept a short while ago; one request at a time. */
function keepListedDetails(keys) {
  return openCache().then(function (cache) {
    return keys.reduce(function (chain, key) {
      return chain.then(function () {
        return cache.match(LISTED_DETAILS + key).then(function (kept) {
          if (kept && Date.now() - savedAt(kept) < DETAILS_FRESH_MS) return undefined;
          return fetchDetails(key)
            .then(function (response) {
              return keepDetails(key, response);
            })
            .catch(function () {});
        });
      });
    }, Promise.resolve());
  });
}

/** Keeps the details of every event of My night, replacing those of the previous night. */
function keepSavedDetails(keys) {
  return openCache().then(function (cache) {
    return cache
      .keys()
      .then(function (requests) {
        return Promise.all(
          requests.map(function (request) {
            var path = new URL(request.url).pathname;
            if (path.indexOf(SAVED_DETAILS) === 0 && keys.indexOf(path.slice(SAVED_DETAILS.length)) < 0) return cache.delete(request);
            return undefined;
          }),
        );
      })
      .then(function () {
        return keys.reduce(function (chain, key) {
          return chain.then(function () {
            return cache.match(LISTED_DETAILS + key).then(function (listed) {
              if (listed && Date.now() - savedAt(listed) < DETAILS_FRESH_MS) return cache.put(SAVED_DETAILS + key, listed);
              return fetchDetails(key)
                .then(function (response) {
                  if (!response.ok || !isHtml(response)) return undefined;
                  return response.text().then(function (html) {
                    return cache.put(SAVED_DETAILS + key, detailsCopy(html));
                  });
                })
                .catch(function () {});
            });
          });
        }, Promise.resolve());
      });
  });
}

/** An event's kept details (saved first, then listed), or undefined. */
function keptDetails(key) {
  return openCache().then(function (cache) {
    return cache.match(SAVED_DETAILS + key).then(function (saved) {
      return saved || cache.match(LISTED_DETAILS + key);
    });
  });
}

/** The details from the network (kept for later); the kept copy when the network fails. */
function detailsFromNetworkFirst(event, key) {
  return fetch(event.request)
    .then(function (response) {
      if (response.status === 200) event.waitUntil(keepDetails(key, response.clone()).catch(function () {}));
      return response;
    })
    .catch(function (error) {
      return keptDetails(key).then(function (kept) {
        if (kept) return kept;
        throw error; // the page says in place that the details need a connection
      });
    });
}

// ---- pages -------------------------------------------------------------------------------------

/**
 * A kept page, marked as served offline: its <body> gets data-offline (the page script shows the
 * notice). With `detailsHtml`, that event's details are put in the page's modal slot, open, as the
 * server renders an event's page.
 */
function offlineCopy(cached, detailsHtml) {
  var at = cached.headers.get("x-finder-saved-at") || "";
  return cached.text().then(function (html) {
    var marked = html.replace(/<body(?=[\s>])/, '<body data-offline="' + at.replace(/[^0-9TZ:.-]/g, "") + '"');
    if (detailsHtml) {
      var open = detailsHtml.replace(/<dialog(?=[\s>])/, "<dialog open");
      // The calendar copy's modal slot is empty (event pages are never kept as the calendar).
      marked = marked.replace('<div id="modal-root"></div>', function () {
        return '<div id="modal-root">' + open + "</div>";
      });
    }
    return new Response(marked, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
}

/** The calendar copy with an event's kept details open; the offline page when either is missing. */
function eventPageOffline(key) {
  return Promise.all([openCache(), key ? keptDetails(key) : Promise.resolve(undefined)]).then(function (found) {
    return found[0].match("/").then(function (calendar) {
      if (!calendar) return offlinePage();
      if (!found[1]) return offlineCopy(calendar, null);
      return found[1].text().then(function (html) {
        return offlineCopy(calendar, html);
      });
    });
  });
}

function pageFromNetworkFirst(event, url, slot) {
  // Past the browser's HTTP cache ("no-cache" revalidates): a stale copy it would serve by itself
  // while offline would hide that the page is not fresh. Redirects reach the page as they are.
  var network = fetch(url.href, { cache: "no-cache", credentials: "same-origin", redirect: "manual" }).then(function (response) {
    if (keepable(url, response)) event.waitUntil(keepPageAndExtras(slot, url, response.clone()));
    return response;
  });
  event.waitUntil(network.catch(function () {}));
  var eventKey = sitePath(url) === "/" ? (url.searchParams.get("event") || "").toLowerCase() : "";
  var offline = function (cached) {
    return eventKey && EVENT_KEY.test(eventKey) ? eventPageOffline(eventKey) : offlineCopy(cached, null);
  };
  return openCache().then(function (cache) {
    return cache.match(slot).then(function (cached) {
      if (!cached) return network.catch(offlinePage);
      var timer;
      var slow = new Promise(function (resolve) {
        timer = setTimeout(resolve, NETWORK_WAIT_MS);
      });
      return Promise.race([network, slow])
        .then(function (response) {
          clearTimeout(timer);
          return response || offline(cached);
        })
        .catch(function () {
          clearTimeout(timer);
          return offline(cached);
        });
    });
  });
}

/** The kept offline page, or the network error itself when it was never kept. */
function offlinePage() {
  return openCache().then(function (cache) {
    return cache.match(OFFLINE_PAGE).then(function (kept) {
      if (kept) return kept;
      return Response.error();
    });
  });
}

/** Keeps /offline in `language` (the page's), unless it is kept in that language already. */
function keepOfflinePage(language) {
  return openCache().then(function (cache) {
    return cache.match(OFFLINE_PAGE).then(function (kept) {
      if (kept && (!language || kept.headers.get("x-finder-lang") === language)) return undefined;
      var address = BASE + OFFLINE_PAGE + (language ? "?lang=" + encodeURIComponent(language) : "");
      return fetch(address, { credentials: "same-origin" }).then(function (response) {
        if (response.status !== 200 || !isHtml(response)) return undefined;
        return response.text().then(function (html) {
          var lang = (/<html lang="([a-z]+)"/.exec(html) || [])[1] || "";
          return cache.put(OFFLINE_PAGE, new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "x-finder-lang": lang } }));
        });
      });
    });
  });
}

/** Any other page (a form, the partner pages, an event's share link): the network, else the offline page. */
function otherPage(event, url) {
  var share = SHARE_PATH.exec(sitePath(url) || "");
  return fetch(event.request).catch(function () {
    if (share && event.request.method === "GET") return eventPageOffline(decodeURIComponent(share[1]).toLowerCase());
    return offlinePage();
  });
}

// ---- map data and static files ---------------------------------------------------------------------

/** Whether an address is the homepage map's JSON (fetched by the page when the map opens). */
function isMapData(url) {
  return sitePath(url) === "/" && url.searchParams.get("map") === "data";
}

function keepMapData(response) {
  if (!response || response.status !== 200 || (response.headers.get("content-type") || "").indexOf("application/json") !== 0) return Promise.resolve();
  return response.text().then(function (body) {
    return openCache().then(function (cache) {
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
      return openCache().then(function (cache) {
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
  return openCache().then(function (cache) {
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
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    var slot = request.method === "GET" ? pageSlot(url) : null;
    if (slot) event.respondWith(pageFromNetworkFirst(event, url, slot));
    else if (sitePath(url) !== null && !UNTOUCHED_PATHS.test(sitePath(url))) event.respondWith(otherPage(event, url));
    return;
  }
  if (request.method !== "GET") return;
  var key = detailsKey(url, request);
  if (key) event.respondWith(detailsFromNetworkFirst(event, key));
  else if (isMapData(url)) event.respondWith(mapDataFromNetworkFirst(event, url));
  else if (FINGERPRINTED.test(url.pathname)) event.respondWith(staticFromCacheFirst(event));
});

// A page asks the worker to keep addresses it loaded before the worker was running (the first
// visit), the visitor's My night after a save, the details of the events it lists, and the offline
// page in its language. Only what the worker keeps anyway is taken.
self.addEventListener("message", function (event) {
  var data = event.data;
  if (!data) return;
  if (data.type === "keep-details" && Array.isArray(data.keys)) {
    var keys = data.keys
      .slice(0, MAX_LISTED_DETAILS)
      .map(function (key) {
        return String(key).toLowerCase();
      })
      .filter(function (key, i, all) {
        return EVENT_KEY.test(key) && all.indexOf(key) === i;
      });
    event.waitUntil(
      Promise.all([keepListedDetails(keys), keepOfflinePage(typeof data.language === "string" ? data.language : null).catch(function () {})]).then(function () {
        if (event.source && event.source.postMessage) event.source.postMessage({ type: "kept-details" });
      }),
    );
    return;
  }
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
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
          if (keepable(url, response)) return keepPageAndExtras(slot, url, response);
          return undefined;
        })
        .catch(function () {});
    }
    if (!FINGERPRINTED.test(url.pathname)) return undefined;
    return openCache().then(function (cache) {
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
