// /submit-event: stamps formStartedAt when the form appears (and again on the fresh form shown
// after a success), and tells the host when a submission gave up (htmx times out after 12 s).
(function () {
  "use strict";
  // The page's words (static/messages.js, loaded before this script).
  var msg = window.finderMsg;
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
