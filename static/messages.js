// The page's words for finder's browser scripts (see docs/languages.md), shared by every script that
// shows text: the server writes them as JSON in the page's language (#i18n-messages) and this file,
// loaded before those scripts, reads them once. finderMsg("linkCopied"),
// finderMsg("nearSome", { count: 3, radius: 1 }): a plural message picks its form from `count`; an
// unknown key comes back as the key.
(function () {
  "use strict";
  var messages = {};
  var block = document.getElementById("i18n-messages");
  try {
    if (block) messages = JSON.parse(block.textContent);
  } catch (e) {
    /* no words: each key stands for itself */
  }
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
  window.finderMsg = function (key, params) {
    var value = messages[key];
    if (value === undefined) return key;
    if (typeof value === "object") value = (plurals && params && typeof params.count === "number" && value[plurals.select(params.count)]) || value.other;
    return String(value).replace(/\{(\w+)\}/g, function (whole, name) {
      return params && params[name] !== undefined ? String(params[name]) : whole;
    });
  };
})();
