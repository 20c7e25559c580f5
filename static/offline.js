// finder's offline helper (see docs/public-pages.md, "Offline"): registers the service worker
// (/sw.js), hands it the page and static files of the first visit (loaded before the worker ran) and
// the events this page lists (their details are kept for offline use), shows "Offline, last updated
// HH:MM" when the worker served this page from its copy, and says in place when something needs a
// connection (an event whose details were not kept, a filter, a form). The time is when the server
// rendered the page (Paris time), which is how fresh the listing is.
(function () {
  "use strict";

  var doc = document;
  var notice = /** @type {HTMLElement | null} */ (doc.querySelector("[data-offline-notice]"));
  var clock = new Intl.DateTimeFormat("en-GB", { timeZone: doc.body.getAttribute("data-time-zone") || undefined, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

  function text(name) {
    return (notice && notice.getAttribute(name)) || "";
  }
  function show(value) {
    if (!notice || !value) return;
    notice.textContent = value;
    notice.hidden = false;
  }

  // The worker marks a kept copy with data-offline on <body>.
  if (notice && doc.body.hasAttribute("data-offline")) {
    var at = new Date(notice.getAttribute("data-rendered-at") || doc.body.getAttribute("data-offline"));
    if (!isNaN(at.getTime())) show(text("data-template").replace("{time}", clock.format(at)));
  }

  // ---- saying in place that something needs a connection ----------------------------------------

  /** Where a failed request's message goes: the card (or popup) that opened an event, the form that was sent, else before the target. */
  function placeFor(detail) {
    var elt = detail.elt;
    var path = (detail.requestConfig && detail.requestConfig.path) || "";
    var details = /[?&]event=/.test(path);
    var holder = elt && elt.closest && (details ? elt.closest("article, li, .leaflet-popup-content") : elt.closest("form"));
    if (holder) return { holder: holder, details: details };
    var target = detail.target;
    if (target && target.parentNode && target.id !== "modal-root") return { before: target, details: details };
    return elt && elt.parentNode ? { holder: elt.parentNode, details: details } : null;
  }
  function sayInPlace(detail) {
    var place = placeFor(detail);
    var message = place && (place.details ? text("data-no-details") : text("data-no-connection"));
    if (!message) return;
    var root = place.holder || place.before.parentNode;
    var line = root.querySelector(":scope > [data-offline-inline]");
    if (!line) {
      line = doc.createElement("p");
      line.className = "offline-inline";
      line.setAttribute("role", "status");
      line.setAttribute("data-offline-inline", "");
      if (place.holder) place.holder.appendChild(line);
      else root.insertBefore(line, place.before);
    }
    line.textContent = message;
  }
  doc.body.addEventListener("htmx:sendError", function (event) {
    if (event.detail) sayInPlace(event.detail);
    if (notice && notice.hidden) show(text("data-no-connection"));
  });
  // Back online: a request that answered clears the messages.
  doc.body.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail || !event.detail.successful) return;
    Array.prototype.forEach.call(doc.querySelectorAll("[data-offline-inline]"), function (line) {
      line.parentNode.removeChild(line);
    });
  });

  // The offline page (shown by the worker for a page it does not keep): "Try again" reloads it.
  var retry = /** @type {HTMLElement | null} */ (doc.querySelector("[data-offline-retry]"));
  if (retry) {
    retry.hidden = false;
    retry.addEventListener("click", function () {
      location.reload();
    });
  }

  if (!("serviceWorker" in navigator)) return;
  var firstVisit = !navigator.serviceWorker.controller;
  // Served under the base path (docs/operations.md), so the worker's scope is the whole site there.
  var site = doc.body.getAttribute("data-site-path") || "";
  navigator.serviceWorker.register(site + "/sw.js").catch(function () {
    /* no offline copy: the site works as before */
  });

  // The events this page lists (cards of the list and the spotlight): the worker keeps their
  // details, so they open offline. Sent once the page is idle, and again when htmx adds cards.
  function listedKeys() {
    var keys = [];
    Array.prototype.forEach.call(doc.querySelectorAll("#spotlight [data-event-key], #results [data-event-key]"), function (el) {
      var key = el.getAttribute("data-event-key");
      if (key && keys.indexOf(key) < 0) keys.push(key);
    });
    return keys;
  }
  function keepDetails() {
    if (doc.body.hasAttribute("data-offline")) return;
    var keys = listedKeys();
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "keep-details", keys: keys, language: doc.documentElement.lang });
    });
  }
  var idle = window.requestIdleCallback || function (run) {
    return setTimeout(run, 1);
  };
  if (doc.readyState === "complete") idle(keepDetails);
  else
    window.addEventListener("load", function () {
      idle(keepDetails);
    });
  doc.body.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.closest && target.closest("#results")) keepDetails();
  });

  if (!firstVisit) return;
  navigator.serviceWorker.ready.then(function (registration) {
    var urls = [location.pathname + location.search];
    Array.prototype.forEach.call(doc.querySelectorAll('script[src^="' + site + '/static/"], link[href^="' + site + '/static/"]'), function (el) {
      urls.push(el.getAttribute("src") || el.getAttribute("href"));
      // A module script's imports have no tag of their own: the page lists them beside it.
      (el.getAttribute("data-imports") || "").split(" ").forEach(function (url) {
        if (url) urls.push(url);
      });
    });
    if (registration.active) registration.active.postMessage({ type: "keep", urls: urls });
  });
})();
