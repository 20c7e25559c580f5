// finder's "My night" script (see docs/public-pages.md, "My night"). Saved events are event keys in
// this browser's local storage, nothing else and nowhere else. This script shows the hidden "Save"
// buttons of cards and the modal and keeps their state, counts the saved events in the header, and
// on /my-night puts the saved keys in the address (the server renders the events from it), offers
// "Save these to my night" on a night shared by someone else, and refreshes the service worker's
// copy of the night after each change. Each save and removal sends one anonymous beacon (the event
// key and the action, no session id, no page: docs/tracking.md, "My-night saves"), which makes the
// "N people saved this" count.
(function () {
  "use strict";

  var doc = document;
  // The header link carries the server's rules as data (lib/events/saved-night.ts, sheet/keys.ts).
  var navLink = doc.querySelector("[data-my-night-link]");
  var STORAGE_KEY = (navLink && navLink.getAttribute("data-storage-key")) || "";
  var MAX = Number((navLink && navLink.getAttribute("data-max")) || 0);
  var KEY_SHAPE = new RegExp((navLink && navLink.getAttribute("data-key-pattern")) || "^$");
  var FULL_MS = 2500;

  function $all(selector, root) {
    return Array.prototype.slice.call((root || doc).querySelectorAll(selector));
  }
  function read() {
    try {
      var list = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "[]");
      if (!Array.isArray(list)) return [];
      return list
        .filter(function (key, i) {
          return typeof key === "string" && KEY_SHAPE.test(key) && list.indexOf(key) === i;
        })
        .slice(0, MAX);
    } catch (e) {
      return [];
    }
  }
  function write(list) {
    if (!STORAGE_KEY) return false;
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
      return true;
    } catch (e) {
      return false; // private mode or storage full: nothing is saved
    }
  }
  // An anonymous count of the change: only the key, the action and where it was made. A keepalive
  // fetch without credentials (unlike sendBeacon, it sends no cookie), so it outlives a navigation.
  function countChange(key, actionType, source) {
    var body = JSON.stringify({ eventKey: key, actionType: actionType, source: source });
    try {
      var url = (doc.body.getAttribute("data-site-path") || "") + "/api/track";
      fetch(url, { method: "POST", body: body, headers: { "content-type": "application/json" }, keepalive: true, credentials: "omit" }).catch(function () {});
    } catch (e) {
      /* counting never breaks the page */
    }
  }
  function nightPath(list) {
    var pages = doc.body.getAttribute("data-page-path") || "";
    return list.length ? pages + "/my-night?e=" + list.join(",") : pages + "/my-night";
  }

  // Links to My night go straight to the saved night's address, so following one loads the page
  // once (the page would otherwise load, find no keys in its address and load again with them).
  var nightLinks = $all('[data-my-night-link], a[href="/my-night"]');
  function text(name) {
    return (navLink && navLink.getAttribute("data-label-" + name)) || "";
  }

  // Shows every save button (cards and modal) in the state of the stored list, and the header count.
  function paint(root) {
    var saved = read();
    $all("[data-save]", root).forEach(function (button) {
      var on = saved.indexOf(button.getAttribute("data-save")) >= 0;
      button.hidden = false;
      button.classList.toggle("is-saved", on);
      button.textContent = text(on ? "saved" : "save") || button.textContent;
    });
    nightLinks.forEach(function (link) {
      link.setAttribute("href", nightPath(saved));
    });
    var count = /** @type {HTMLElement | null} */ (doc.querySelector("[data-my-night-count]"));
    if (count) {
      count.textContent = String(saved.length);
      count.hidden = saved.length === 0;
    }
  }

  // The worker keeps the visitor's night for offline use: after a change it fetches the new night.
  function keepNightOffline(list) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && list.length) worker.postMessage({ type: "keep", urls: [nightPath(list)] });
  }

  var main = doc.querySelector("main.my-night");
  var urlKeys = new URLSearchParams(location.search).get("e");
  // The page shows the visitor's own night when its address holds exactly the stored keys.
  var ownNight = main && urlKeys === read().join(",");

  doc.addEventListener("click", function (event) {
    var button = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-save]");
    if (!button) return;
    event.preventDefault();
    var key = button.getAttribute("data-save");
    var saved = read();
    var at = saved.indexOf(key);
    if (at >= 0) {
      saved.splice(at, 1);
    } else if (saved.length >= MAX) {
      button.textContent = text("full");
      setTimeout(function () {
        paint(doc);
      }, FULL_MS);
      return;
    } else {
      saved.push(key);
    }
    if (!write(saved)) return;
    countChange(key, at >= 0 ? "night_unsave" : "night_save", "save_button");
    paint(doc);
    keepNightOffline(saved);
    // On the visitor's own night the list follows the change.
    if (ownNight) location.replace(nightPath(saved));
  });

  // New cards and the modal arrive through htmx.
  doc.addEventListener("htmx:load", function (event) {
    if (event.target && /** @type {Element} */ (event.target).querySelector) paint(event.target);
  });

  if (main) {
    var stored = read();
    if (urlKeys === null && stored.length) {
      location.replace(nightPath(stored));
      return;
    }
    // A night shared by someone else: one tap adds its events to the visitor's own.
    var shown = (main.getAttribute("data-night-keys") || "").split(",").filter(Boolean);
    var missing = shown.filter(function (key) {
      return stored.indexOf(key) < 0;
    });
    var offer = /** @type {HTMLElement | null} */ (doc.querySelector("[data-night-shared]"));
    if (offer && !ownNight && missing.length) offer.hidden = false;
    doc.addEventListener("click", function (event) {
      if (!(/** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-night-save-all]"))) return;
      var merged = read();
      var added = [];
      shown.forEach(function (key) {
        if (merged.indexOf(key) < 0 && merged.length < MAX) {
          merged.push(key);
          added.push(key);
        }
      });
      if (!write(merged)) return;
      added.forEach(function (key) {
        countChange(key, "night_save", "my_night_shared");
      });
      keepNightOffline(merged);
      location.replace(nightPath(merged));
    });
  }

  paint(doc);
})();
