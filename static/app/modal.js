// The event modal (docs/public-pages.md): focus, Escape, history (pushed by cards and map popups,
// followed on Back and Forward) and the results shown for the address after Back.

import { $, $all } from "./page.js";
import { applyMapPreference } from "./share.js";

/**
 * Wires the event modal and history.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startModal(page, app) {
  var doc = page.doc;
  var PAGES = page.PAGES;
  var trackEvent = app.tracking.trackEvent;
  var results = app.filters.results;
  var filterQueryOf = app.filters.filterQueryOf;
  var afterResultsSwap = app.filters.afterResultsSwap;

  var modalRoot = doc.getElementById("modal-root");
  var opener = null;
  var openedByPush = false;
  var closing = false;
  var clickedOpener = null;
  // Whether the next modal swapped in came with a history push (cards and map popups do).
  var nextOpenPushed = true;

  function currentModal() {
    return modalRoot ? $("dialog.modal", modalRoot) : null;
  }
  function focusables(root) {
    return $all('a[href], summary, button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])', root).filter(function (el) {
      // Inside a closed <details> only its summary can take focus (the rest still has a layout box).
      var closed = el.closest("details:not([open])");
      if (closed && !(el.tagName === "SUMMARY" && el.parentElement === closed)) return false;
      return el.offsetParent !== null || el === doc.activeElement;
    });
  }
  function withoutEventParams() {
    var params = new URLSearchParams(location.search);
    params.delete("event");
    params.delete("slug");
    var query = params.toString();
    return location.pathname + (query ? "?" + query : "") + location.hash;
  }
  function openModal(dialog, fromPush) {
    opener = clickedOpener;
    clickedOpener = null;
    openedByPush = fromPush;
    closing = false;
    if (dialog.open && !dialog.matches(":modal")) dialog.close();
    if (!dialog.open) dialog.showModal();
    var title = $("#event-modal-title", dialog);
    if (title) title.focus();
    applyMapPreference(page, dialog);
    if (!dialog.hasAttribute("data-missing")) trackEvent(dialog.getAttribute("data-event-key"), "click", "event_open");
  }
  function finishClose(dialog) {
    if (dialog.open) dialog.close();
    if (dialog.parentNode) dialog.parentNode.removeChild(dialog);
    var key = dialog.getAttribute("data-event-key");
    var target = opener && doc.body.contains(opener) ? opener : key ? $('[data-event-key="' + key + '"] .card-link') : null;
    target = target || doc.getElementById("all-events");
    if (target) target.focus();
    opener = null;
    closing = false;
  }
  function closeModal() {
    var dialog = currentModal();
    if (!dialog || closing) return;
    closing = true;
    if (openedByPush) {
      openedByPush = false;
      history.back(); // popstate closes the dialog
      return;
    }
    history.replaceState({ htmx: true }, "", withoutEventParams());
    finishClose(dialog);
  }

  if (modalRoot) {
    // A card click: remember the card so focus returns to it.
    doc.addEventListener(
      "click",
      function (event) {
        var link = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest(".card-link, [data-map-event]");
        if (!link) return;
        // Modified clicks keep their browser meaning (new tab or window): htmx never sees them.
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) {
          event.stopPropagation();
          return;
        }
        clickedOpener = link;
      },
      true,
    );
    // htmx:load fires on every element htmx inserts (and it is in the document, so it bubbles).
    doc.body.addEventListener("htmx:load", function (event) {
      var el = /** @type {HTMLDialogElement} */ (event.target);
      if (el && el.matches && el.matches("dialog.modal") && modalRoot.contains(el)) {
        openModal(el, nextOpenPushed);
        nextOpenPushed = true;
      }
    });
    doc.addEventListener("click", function (event) {
      var dialog = currentModal();
      if (!dialog) return;
      var close = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-modal-close]");
      if (close && dialog.contains(close)) {
        event.preventDefault();
        closeModal();
      } else if (event.target === dialog) {
        // A click on the backdrop (outside the panel).
        closeModal();
      }
    });
    doc.addEventListener(
      "cancel",
      function (event) {
        if (event.target === currentModal()) {
          event.preventDefault();
          closeModal();
        }
      },
      true,
    );
    doc.addEventListener("keydown", function (event) {
      var dialog = currentModal();
      if (!dialog || !dialog.open) return;
      if (event.key === "Escape") {
        event.preventDefault();
        closeModal();
        return;
      }
      if (event.key !== "Tab") return;
      var items = focusables(dialog);
      if (items.length === 0) return;
      var first = items[0];
      var last = items[items.length - 1];
      if (event.shiftKey && (doc.activeElement === first || !dialog.contains(doc.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (doc.activeElement === last || !dialog.contains(doc.activeElement))) {
        event.preventDefault();
        first.focus();
      }
    });

    // Rendered open by the server (/?event=…): make it modal and correct the URL.
    var initial = currentModal();
    var params = new URLSearchParams(location.search);
    if (initial && initial.open && initial.hasAttribute("data-missing")) {
      // A share link to an event no longer listed: the notice shows; closing it leaves the list.
      history.replaceState({ htmx: true }, "", withoutEventParams());
      openModal(initial, false);
    } else if (initial && initial.open) {
      var slug = initial.getAttribute("data-slug");
      if (params.get("slug") !== slug || params.get("event") !== initial.getAttribute("data-event-key")) {
        params.set("event", initial.getAttribute("data-event-key"));
        params.set("slug", slug);
        history.replaceState({ htmx: true }, "", location.pathname + "?" + params.toString());
      }
      openModal(initial, false);
    } else if (params.has("event")) {
      history.replaceState({ htmx: true }, "", withoutEventParams());
    }
  }

  // Opens the modal of an event from script (map popups, Back/Forward).
  function loadModal(key, slug, push) {
    var url = PAGES + "/?" + new URLSearchParams({ event: key, slug: slug || "" }).toString();
    if (push) history.pushState({ htmx: true }, "", url);
    nextOpenPushed = push;
    window.htmx.ajax("GET", url, { target: "#modal-root", swap: "innerHTML" });
  }

  // Back and Forward: the URL decides which modal is open and which results are shown.
  doc.body.addEventListener("htmx:historyCacheMiss", function (event) {
    event.preventDefault();
  });
  window.addEventListener("popstate", function () {
    var params = new URLSearchParams(location.search);
    var key = params.get("event");
    var dialog = currentModal();
    if (key) {
      if (!dialog || dialog.getAttribute("data-event-key") !== key.toLowerCase()) loadModal(key, params.get("slug"), false);
    } else if (dialog) {
      openedByPush = false;
      finishClose(dialog);
    }
    var root = results();
    var query = filterQueryOf(location.search);
    if (!key && root && query !== (root.getAttribute("data-query") || "")) {
      fetch(PAGES + "/" + (query ? "?" + query : ""), { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then(function (response) {
          return response.text();
        })
        .then(function (html) {
          window.htmx.swap(results(), html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
        })
        .catch(function () {
          location.reload();
        });
    }
  });

  doc.body.addEventListener("htmx:load", function (event) {
    if (event.target && /** @type {Element} */ (event.target).id === "results") afterResultsSwap();
  });

  // A map popup opens its event like a card: focus goes back to it when the modal closes.
  function setClickedOpener(link) {
    clickedOpener = link;
  }
  return { currentModal, loadModal, setClickedOpener };
}
