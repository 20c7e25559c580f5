// The header's sign-in (docs/auth-and-admin.md): the account button, the sign-in dialog and a
// signed-in visitor's quick genre chips.

import { $ } from "./page.js";

/**
 * Wires the header's account button and sign-in dialog.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startSignIn(page, app) {
  var doc = page.doc;
  var SITE = page.SITE;
  var PAGES = page.PAGES;
  var form = app.filters.form;

  var account = $("[data-account]");
  var signInDialog = /** @type {HTMLDialogElement | null} */ (doc.getElementById("sign-in-dialog"));
  // A signed-in visitor's top genres come as quick chips above the genre toggles.
  function showQuickGenres(email) {
    var slot = doc.getElementById("genre-quick-chips");
    if (!slot) return;
    if (!email) {
      slot.innerHTML = "";
      return;
    }
    fetch(PAGES + "/account/genres", { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.text() : "";
      })
      .then(function (html) {
        var current = doc.getElementById("genre-quick-chips");
        if (!html || !current) return;
        var holder = doc.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.firstElementChild;
        if (fresh) current.replaceWith(fresh);
      })
      .catch(function () {});
  }
  doc.addEventListener("click", function (event) {
    var chip = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-quick-genre]");
    if (!chip || !form) return;
    var toggle = $('input[name="g"][value="' + (window.CSS && CSS.escape ? CSS.escape(chip.getAttribute("data-quick-genre")) : chip.getAttribute("data-quick-genre")) + '"]', form);
    if (!toggle) return;
    event.preventDefault();
    toggle.checked = !toggle.checked;
    toggle.dispatchEvent(new Event("change", { bubbles: true }));
  });

  function showAccount(email) {
    showQuickGenres(email);
    if (!account) return;
    page.signedIn = !!email;
    $("[data-sign-in-open]", account).hidden = !!email;
    var label = $("[data-account-email]", account);
    label.textContent = email || "";
    label.hidden = !email;
    $("[data-sign-out]", account).hidden = !email;
  }
  function refreshSession() {
    return fetch(SITE + "/api/auth/session", { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (body) {
        showAccount(body && body.isAuthenticated && typeof body.email === "string" ? body.email : null);
      })
      .catch(function () {});
  }
  if (account) {
    refreshSession();
    account.addEventListener("click", function (event) {
      if (/** @type {Element} */ (event.target).closest("[data-sign-in-open]") && signInDialog && window.htmx) {
        event.preventDefault();
        signInDialog.showModal();
        // The form comes from the account pages (GET /sign-in answers its fragment to htmx).
        window.htmx.ajax("GET", PAGES + "/sign-in", { target: "#sign-in-slot", swap: "innerHTML" }).then(function () {
          var email = $('input[type="email"]', signInDialog);
          if (email) email.focus();
        });
      } else if (/** @type {Element} */ (event.target).closest("[data-sign-out]")) {
        fetch(SITE + "/api/auth/session", { method: "DELETE", credentials: "same-origin" }).finally(function () {
          showAccount(null);
        });
      }
    });
  }
  if (signInDialog) {
    signInDialog.addEventListener("click", function (event) {
      if (event.target === signInDialog || (/** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-dialog-close]"))) signInDialog.close();
    });
    // The form swaps itself (outerHTML), so listen for the new element, which is in the document.
    doc.body.addEventListener("htmx:load", function (event) {
      var el = /** @type {Element} */ (event.target);
      if (el && el.matches && el.matches(".sign-in-done") && signInDialog.contains(el)) {
        refreshSession().then(function () {
          signInDialog.close();
          var button = $("[data-sign-out]");
          if (button) button.focus();
        });
      }
    });
  }
}
