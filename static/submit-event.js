// /submit-event: stamps formStartedAt and the form's idempotency key when the form appears (and
// again on the fresh form shown after a success; a form re-shown after a refusal keeps its key, so
// sending it again is the same submission), and tells the host when a submission gave up (htmx
// times out after 12 s; the key makes sending it again safe).
(function () {
  "use strict";
  // The page's words (static/messages.js, loaded before this script).
  var msg = window.finderMsg;
  function stamp(root) {
    var inputs = (root || document).querySelectorAll('input[name="formStartedAt"]');
    for (var i = 0; i < inputs.length; i++) if (!inputs[i].value) inputs[i].value = new Date().toISOString();
    var keys = (root || document).querySelectorAll("input[data-idempotency-key]");
    for (var k = 0; k < keys.length; k++) if (!keys[k].value) keys[k].value = newKey();
  }
  // A random key: 32 hex digits (getRandomValues works on plain http too, unlike randomUUID).
  function newKey() {
    return Array.prototype.map.call(window.crypto.getRandomValues(new Uint8Array(16)), function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function status(event, text) {
    var form = event.target && /** @type {Element} */ (event.target).closest ? /** @type {Element} */ (event.target).closest("form") : null;
    var line = form ? form.querySelector("[data-submit-status]") : null;
    if (line) line.textContent = text;
  }
  stamp(document);
  document.addEventListener("htmx:load", function (event) {
    stamp(event.target);
    var notice = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).querySelector ? /** @type {Element} */ (event.target).querySelector("[data-submit-notice]") : null);
    if (notice && event.target !== document.body) notice.focus();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    status(event, msg("sending"));
  });
  document.addEventListener("htmx:timeout", function (event) {
    status(event, msg("submitTimeout"));
  });
  document.addEventListener("htmx:sendError", function (event) {
    status(event, msg("submitOffline"));
  });
  document.addEventListener("htmx:responseError", function (event) {
    status(event, msg("submitFailed"));
  });
})();
