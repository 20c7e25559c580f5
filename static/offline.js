// finder's offline helper (see docs/public-pages.md, "Offline"): registers the service worker
// (/sw.js), hands it the page and static files of the first visit (loaded before the worker ran), and
// shows "Offline, last updated HH:MM" when the worker served this page from its copy. The time is
// when the server rendered the page (Paris time), which is how fresh the listing is.
(function () {
  "use strict";

  var doc = document;
  var notice = doc.querySelector("[data-offline-notice]");
  var clock = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

  function show(text) {
    if (!notice || !text) return;
    notice.textContent = text;
    notice.hidden = false;
  }

  // The worker marks a kept copy with data-offline on <body>.
  if (notice && doc.body.hasAttribute("data-offline")) {
    var at = new Date(notice.getAttribute("data-rendered-at") || doc.body.getAttribute("data-offline"));
    if (!isNaN(at.getTime())) show((notice.getAttribute("data-template") || "").replace("{time}", clock.format(at)));
  }
  // A filter, "Show more" or an event that cannot reach the server.
  doc.body.addEventListener("htmx:sendError", function () {
    if (notice && notice.hidden) show(notice.getAttribute("data-no-connection"));
  });

  if (!("serviceWorker" in navigator)) return;
  var firstVisit = !navigator.serviceWorker.controller;
  // Served under the base path (docs/operations.md), so the worker's scope is the whole site there.
  var site = doc.body.getAttribute("data-site-path") || "";
  navigator.serviceWorker.register(site + "/sw.js").catch(function () {
    /* no offline copy: the site works as before */
  });
  if (!firstVisit) return;
  navigator.serviceWorker.ready.then(function (registration) {
    var urls = [location.pathname + location.search];
    Array.prototype.forEach.call(doc.querySelectorAll('script[src^="' + site + '/static/"], link[href^="' + site + '/static/"]'), function (el) {
      urls.push(el.getAttribute("src") || el.getAttribute("href"));
    });
    if (registration.active) registration.active.postMessage({ type: "keep", urls: urls });
  });
})();
