// Tracking beacons from the public pages (docs/tracking.md): the anonymous session id, outbound
// links and calendar files, and the helpers the other parts send their events with.

import { storageGet, storageSet } from "./page.js";

/**
 * Starts the outbound-link tracking; gives the other parts their senders.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startTracking(page, app) {
  var doc = page.doc;
  var SITE = page.SITE;
  var SESSION_KEY = page.SESSION_KEY;

  var memorySession = null;
  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }
  function sessionId() {
    var id = storageGet(SESSION_KEY);
    if (!id || id.length > 120) {
      id = memorySession || uuid();
      memorySession = id;
      storageSet(SESSION_KEY, id);
    }
    return id;
  }
  function currentPath() {
    return (location.pathname + location.search).slice(0, 280);
  }
  function send(url, body) {
    var json = JSON.stringify(body);
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(url, new Blob([json], { type: "application/json" }))) return;
    } catch (e) {
      /* fall through to fetch */
    }
    try {
      fetch(url, { method: "POST", body: json, headers: { "content-type": "application/json" }, keepalive: true, credentials: "same-origin" }).catch(function () {});
    } catch (e) {
      /* tracking never breaks the page */
    }
  }
  function trackEvent(eventKey, actionType, source) {
    if (!eventKey) return;
    send(SITE + "/api/track", { eventKey: eventKey, actionType: actionType, sessionId: sessionId(), source: source, path: currentPath() });
  }
  function trackDiscovery(actionType, fields) {
    var body = { actionType: actionType, sessionId: sessionId(), path: currentPath() };
    for (var name in fields) body[name] = fields[name];
    send(SITE + "/api/track/discovery", body);
  }

  // Outbound links and calendar files: tracked on click; the browser follows the link as usual. A
  // file of several events (My night's .ics, data-event-keys) counts once for each of them.
  doc.addEventListener("click", function (event) {
    var link = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-track]");
    if (!link) return;
    var keys = (link.getAttribute("data-event-keys") || link.getAttribute("data-event-key") || "").split(",");
    keys.forEach(function (key) {
      trackEvent(key, link.getAttribute("data-track"), link.getAttribute("data-track-source"));
    });
  });
  return { trackEvent, trackDiscovery };
}
