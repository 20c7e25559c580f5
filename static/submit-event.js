// /submit-event: stamps formStartedAt when the form appears (and again on the fresh form shown
// after a success), and tells the host when a submission gave up (htmx times out after 12 s).
(function () {
  "use strict";
  // The page's words, from the JSON block the server writes in the page's language (see
  // docs/languages.md): msg("linkCopied"), msg("nearSome", { count: 3, radius: 1 }).
  var MESSAGES = (function () {
    var block = document.getElementById("i18n-messages");
    try {
      return block ? JSON.parse(block.textContent) : {};
    } catch (e) {
      return {};
    }
  })();
  var PLURALS = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
  function msg(key, params) {
    var value = MESSAGES[key];
    if (value === undefined) return key;
    if (typeof value === "object") value = (PLURALS && params && typeof params.count === "number" && value[PLURALS.select(params.count)]) || value.other;
    return String(value).replace(/\{(\w+)\}/g, function (whole, name) {
      return params && params[name] !== undefined ? String(params[name]) : whole;
    });
  }
  function stamp(root) {
    var inputs = (root || document).querySelectorAll('input[name="formStartedAt"]');
    for (var i = 0; i < inputs.length; i++) if (!inputs[i].value) inputs[i].value = new Date().toISOString();
  }
  function status(event, text) {
    var form = event.target && event.target.closest ? event.target.closest("form") : null;
    var line = form ? form.querySelector("[data-submit-status]") : null;
    if (line) line.textContent = text;
  }
  stamp(document);
  document.addEventListener("htmx:load", function (event) {
    stamp(event.target);
    var notice = event.target.querySelector ? event.target.querySelector("[data-submit-notice]") : null;
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
