// "Report a problem" (see docs/public-pages.md, "Report a problem"): stamps formStartedAt and the
// form's idempotency key when the report section is first opened (both kept across an answer that
// shows the form again, so sending it again is the same report; a new event or a thanks starts
// afresh), lets htmx swap the answers that carry the form with its error (400, 403, 404, 409, 413,
// 429, 503) and moves focus to the answer's notice. Without this script the form still posts and
// gets a page back.
(function () {
  "use strict";
  var doc = document;
  var SECTION = "event-report";
  var SWAPPED = { 400: true, 403: true, 404: true, 409: true, 413: true, 429: true, 503: true };
  var startedAt = null;
  var key = null;

  function stamp(root) {
    var inputs = (root || doc).querySelectorAll('#' + SECTION + ' input[name="formStartedAt"]');
    for (var i = 0; i < inputs.length; i++) if (!inputs[i].value) inputs[i].value = startedAt || (startedAt = new Date().toISOString());
    var keys = (root || doc).querySelectorAll("#" + SECTION + " input[data-idempotency-key]");
    for (var k = 0; k < keys.length; k++) {
      if (keys[k].value) key = keys[k].value;
      else keys[k].value = key || (key = newKey());
    }
  }
  // A random key: 32 hex digits (getRandomValues works on plain http too, unlike randomUUID).
  function newKey() {
    return Array.prototype.map.call(window.crypto.getRandomValues(new Uint8Array(16)), function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  // The section may already be open (a page answered with an error); "toggle" does not bubble.
  var open = /** @type {HTMLDetailsElement | null} */ (doc.getElementById(SECTION));
  if (open && open.open) stamp(doc);
  doc.addEventListener(
    "toggle",
    function (event) {
      var el = /** @type {HTMLDetailsElement} */ (event.target);
      if (el && el.id === SECTION && el.open) stamp(doc);
    },
    true,
  );
  doc.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === SECTION && SWAPPED[event.detail.xhr.status]) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  doc.addEventListener("htmx:load", function (event) {
    var el = /** @type {HTMLDetailsElement} */ (event.target);
    if (!el || el.id !== SECTION) {
      // A new modal: a new event, a new start.
      if (el && el.querySelector && el.querySelector("#" + SECTION)) startedAt = key = null;
      return;
    }
    // The thanks: the next report is another one.
    if (!el.querySelector("form")) startedAt = key = null;
    if (el.open) stamp(el.parentNode || doc);
    var notice = /** @type {HTMLElement | null} */ (el.querySelector("[data-report-notice]"));
    if (notice) notice.focus();
  });
})();
