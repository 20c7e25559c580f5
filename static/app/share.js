// Share and copy of an event's link, and the visitor's map app (Apple or Google) for directions.

import { $, storageGet, storageSet } from "./page.js";

/**
 * Points an event's directions link at the visitor's map app and names the other one on the switch.
 * @param {import("./page.js").Page} page
 * @param {ParentNode} root
 */
export function applyMapPreference(page, root) {
  var link = $("[data-map-link]", root);
  var toggle = $("[data-map-app-switch]", root);
  if (!link) return;
  var apple = storageGet(page.MAP_APP_KEY) === "apple";
  link.href = link.getAttribute(apple ? "data-apple-href" : "data-google-href");
  if (toggle) {
    toggle.hidden = false;
    toggle.textContent = apple ? page.msg("useGoogle") : page.msg("useApple");
  }
}

/**
 * Wires the share buttons and the map-app switch.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startShare(page, app) {
  var doc = page.doc;
  var msg = page.msg;
  var MAP_APP_KEY = page.MAP_APP_KEY;
  var SHARE_STATUS_MS = page.SHARE_STATUS_MS;
  var currentModal = app.modal.currentModal;

  var statusTimer = 0;
  function showShareStatus(button, text) {
    var status = doc.getElementById("share-status");
    if (!status) return;
    status.textContent = text;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(function () {
      status.textContent = "";
    }, SHARE_STATUS_MS);
  }
  function copyFallback(text) {
    var area = doc.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    (currentModal() || doc.body).appendChild(area);
    area.select();
    var ok = false;
    try {
      ok = doc.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    area.parentNode.removeChild(area);
    return ok;
  }
  doc.addEventListener("click", function (event) {
    var button = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-share-url]");
    if (!button) return;
    var url = button.getAttribute("data-share-url");
    var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    if (touch && navigator.share) {
      navigator.share({ title: doc.title, url: url }).then(
        function () {
          showShareStatus(button, msg("linkShared"));
        },
        function (error) {
          if (!error || error.name !== "AbortError") showShareStatus(button, msg("copyFailed"));
        },
      );
      return;
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(
        function () {
          showShareStatus(button, msg("linkCopied"));
        },
        function () {
          showShareStatus(button, copyFallback(url) ? msg("linkCopied") : msg("copyFailed"));
        },
      );
    } else {
      showShareStatus(button, copyFallback(url) ? msg("linkCopied") : msg("copyFailed"));
    }
  });

  doc.addEventListener("click", function (event) {
    var toggle = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-map-app-switch]");
    if (!toggle) return;
    storageSet(MAP_APP_KEY, storageGet(MAP_APP_KEY) === "apple" ? "google" : "apple");
    applyMapPreference(page, toggle.closest("dialog") || doc);
  });
}
