// Console helpers that need a script: "Copy Emails" copies the text of its target to the clipboard.
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-target]");
    if (!button) return;
    var source = document.querySelector(button.getAttribute("data-copy-target"));
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
})();
