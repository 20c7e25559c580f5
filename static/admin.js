// Console helpers that need a script, bound once on the document so they also work in areas that tab
// navigation swaps in (htmx runs no script tags in swapped content): "Copy Emails" copies the text
// of its target; "Copy stats link" (data-copy) copies its own value; a form with data-confirm asks
// before it posts (without JavaScript such forms post at once).
(function () {
  document.addEventListener("click", function (event) {
    var button = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-copy-target]");
    if (!button) return;
    var source = /** @type {HTMLTextAreaElement | null} */ (document.querySelector(button.getAttribute("data-copy-target")));
    if (!source) return;
    var status = button.parentElement && button.parentElement.querySelector(".copy-status");
    var text = source.value || source.textContent || "";
    var done = function (message) {
      if (status) status.textContent = message;
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(
        function () { done("Emails copied."); },
        function () { source.select(); done("Select and copy the emails below."); }
      );
    } else {
      source.select();
      done("Select and copy the emails below.");
    }
  });

  document.addEventListener("click", function (event) {
    var button = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-copy]");
    if (!button) return;
    var text = button.getAttribute("data-copy") || "";
    var fallback = function () { window.prompt("Copy the statistics link", text); };
    if (!navigator.clipboard || !navigator.clipboard.writeText) return fallback();
    navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; }, fallback);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();
