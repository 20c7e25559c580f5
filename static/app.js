// finder's browser script for the public pages (no build step). It enhances server-rendered HTML
// that already works without it: tracking beacons (docs/tracking.md), filter tracking and URL
// state (docs/filters-and-search.md), the event modal (focus, Escape, history), share/copy, map-app
// preference, the countdown, badge expiry, the header sign-in, and lazy loading of the map. History
// is handled here rather than by htmx snapshots, so a Leaflet map or an open dialog is never
// restored from a stale copy.
(function () {
  "use strict";

  var doc = document;
  doc.documentElement.classList.add("js");
  // Where the site and this page's language live (docs/languages.md, "Addresses"): "" and "" at
  // the root, "/fete" and "/fete/en" under a base path in English. Sent by the page as data.
  var SITE = doc.body.getAttribute("data-site-path") || "";
  var PAGES = doc.body.getAttribute("data-page-path") || "";

  // The page's words (static/messages.js, loaded before this script).
  var msg = window.finderMsg;

  // The anonymous session id's storage key, from the server (the privacy page names the same key).
  var SESSION_KEY = doc.body.getAttribute("data-session-key") || "";
  var MAP_APP_KEY = "finder:map-app";
  // The filter parameters and the storage key come from the server with the filters form
  // (lib/events/filter-query.ts): this script never spells them.
  var filtersForm = doc.getElementById("filters");
  var FILTER_STORAGE_KEY = (filtersForm && filtersForm.getAttribute("data-storage-key")) || "";
  var FILTER_PARAMS = ((filtersForm && filtersForm.getAttribute("data-filter-params")) || "").split(" ").filter(Boolean);
  var SHARE_STATUS_MS = 1800;

  function $(selector, root) {
    return (root || doc).querySelector(selector);
  }
  function $all(selector, root) {
    return Array.prototype.slice.call((root || doc).querySelectorAll(selector));
  }
  function storageGet(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  function storageSet(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (e) {
      /* private mode: state lives in the URL only */
    }
  }

  // ---- filter state kept in storage; the URL wins on load -------------------------------------------

  var initialResults = doc.getElementById("results");
  if (initialResults && doc.getElementById("filters")) {
    var initialParams = new URLSearchParams(location.search);
    var hasFilterParam = FILTER_PARAMS.some(function (name) {
      return initialParams.has(name);
    });
    var stored = storageGet(FILTER_STORAGE_KEY);
    if (!hasFilterParam && stored && !initialParams.has("event")) {
      location.replace(PAGES + "/?" + stored);
      return;
    }
    storageSet(FILTER_STORAGE_KEY, initialResults.getAttribute("data-query") || "");
  }

  // ---- tracking (docs/tracking.md) ------------------------------------------------------------------

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
    var link = event.target.closest && event.target.closest("[data-track]");
    if (!link) return;
    var keys = (link.getAttribute("data-event-keys") || link.getAttribute("data-event-key") || "").split(",");
    keys.forEach(function (key) {
      trackEvent(key, link.getAttribute("data-track"), link.getAttribute("data-track-source"));
    });
  });

  // ---- filters: form state, tracking, URL state (docs/filters-and-search.md) ------------------------

  var form = doc.getElementById("filters");
  var search = doc.getElementById("search-q");
  var signedIn = false;

  function results() {
    return doc.getElementById("results");
  }
  function checkedValues(name) {
    return $all('input[name="' + name + '"]:checked', form).map(function (input) {
      return input.value;
    });
  }
  function rangeValue(param) {
    var group = $('[data-range="' + param + '"]', form);
    if (!group) return null;
    var min = Number($('input[name="' + param + '_min"]', group).value);
    var max = Number($('input[name="' + param + '_max"]', group).value);
    if (min === Number(group.getAttribute("data-min")) && max === Number(group.getAttribute("data-max"))) return null;
    return min + ":" + max;
  }
  function readState() {
    var df = form.elements.df ? form.elements.df.value : "";
    var dt = form.elements.dt ? form.elements.dt.value : "";
    var setting = $('input[name="in"]:checked', form);
    return {
      date_range: df || dt ? (df || "any") + ":" + (dt || "any") : null,
      day_night: checkedValues("dn"),
      arrondissement: checkedValues("arr"),
      genre: checkedValues("g"),
      nationality: checkedValues("nat").map(function (c) {
        return c.toLowerCase();
      }),
      venue_type: checkedValues("vt"),
      venue_setting: setting && setting.value ? setting.value : null,
      oooc_pick: !!(form.elements.pick && form.elements.pick.checked),
    };
  }
  var lastState = form ? readState() : null;

  function trackStateChange(before, after) {
    ["day_night", "arrondissement", "genre", "nationality", "venue_type"].forEach(function (group) {
      after[group].forEach(function (value) {
        if (before[group].indexOf(value) < 0) {
          trackDiscovery("filter_apply", { filterGroup: group, filterValue: value });
          if (group === "genre" && signedIn) sendPreference(value);
        }
      });
      before[group].forEach(function (value) {
        if (after[group].indexOf(value) < 0) trackDiscovery("filter_clear", { filterGroup: group, filterValue: value });
      });
    });
    ["date_range", "venue_setting"].forEach(function (group) {
      if (before[group] === after[group]) return;
      if (after[group]) trackDiscovery("filter_apply", { filterGroup: group, filterValue: after[group] });
      else trackDiscovery("filter_clear", { filterGroup: group, filterValue: before[group] });
    });
    if (before.oooc_pick !== after.oooc_pick) trackDiscovery(after.oooc_pick ? "filter_apply" : "filter_clear", { filterGroup: "oooc_pick", filterValue: "yes" });
  }
  function sendPreference(genre) {
    try {
      fetch(SITE + "/api/user/preference", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ genre: genre, incrementBy: 1 }), credentials: "same-origin", keepalive: true }).catch(function () {});
    } catch (e) {
      /* personalisation is optional */
    }
  }

  // Sliders: tracked after a 450 ms pause, never when back at the full range.
  var sliderTimers = {};
  var lastTrackedRange = { pr: null, ag: null };
  // The labels come from the server with the slider, in the page's language (data-labels, see
  // lib/events/filter-labels.ts): a whole label for special ranges, else the lower end's text
  // then the upper end's.
  function updateRangeLabel(group) {
    var param = group.getAttribute("data-range");
    var lo = $('input[name="' + param + '_min"]', group);
    var hi = $('input[name="' + param + '_max"]', group);
    var labels = group.rangeLabels || (group.rangeLabels = JSON.parse(group.getAttribute("data-labels")));
    var bottom = Number(group.getAttribute("data-min"));
    var i = Number(lo.value) - bottom;
    var j = Number(hi.value) - bottom;
    $(".range-label", group).textContent = labels.whole[lo.value + ":" + hi.value] || labels.from[i] + labels.to[j];
    lo.setAttribute("aria-valuetext", labels.minText[i]);
    hi.setAttribute("aria-valuetext", labels.maxText[j]);
  }
  function onSliderInput(input) {
    var group = input.closest("[data-range]");
    var param = group.getAttribute("data-range");
    var lo = $('input[name="' + param + '_min"]', group);
    var hi = $('input[name="' + param + '_max"]', group);
    if (Number(lo.value) > Number(hi.value)) {
      if (input === lo) hi.value = lo.value;
      else lo.value = hi.value;
    }
    updateRangeLabel(group);
    clearTimeout(sliderTimers[param]);
    sliderTimers[param] = setTimeout(function () {
      var value = rangeValue(param);
      if (value && value !== lastTrackedRange[param]) trackDiscovery("filter_apply", { filterGroup: param === "pr" ? "price_range" : "age_range", filterValue: value });
      lastTrackedRange[param] = value;
    }, 450);
  }

  // Search: tracked after a 500 ms pause, at least 2 characters, lower-cased, not repeating.
  var searchTimer = null;
  var lastTrackedQuery = "";
  function onSearchInput() {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      var q = search.value.replace(/\s+/g, " ").trim().toLowerCase();
      if (q.length >= 2 && q !== lastTrackedQuery) {
        lastTrackedQuery = q;
        trackDiscovery("search", { searchQuery: q.slice(0, 280) });
      }
    }, 500);
  }

  // Puts the form controls in the state of a canonical query (after chip links, Clear all, Back).
  function syncForm(query) {
    if (!form) return;
    var params = new URLSearchParams(query);
    var list = function (name) {
      var value = params.get(name);
      return value ? value.split(",") : [];
    };
    if (form.elements.df) form.elements.df.value = params.get("df") || "";
    if (form.elements.dt) form.elements.dt.value = params.get("dt") || "";
    (form.getAttribute("data-list-params") || "").split(" ").forEach(function (name) {
      var values = list(name);
      $all('input[name="' + name + '"]', form).forEach(function (input) {
        input.checked = values.indexOf(input.value) >= 0;
      });
    });
    var setting = params.get("in") || "";
    $all('input[name="in"]', form).forEach(function (input) {
      input.checked = input.value === setting;
    });
    if (form.elements.pick) form.elements.pick.checked = params.get("pick") === "1";
    if (form.elements.when) {
      form.elements.when.value = params.get("when") || "";
      form.elements.when.disabled = !params.get("when");
    }
    $all("[data-range]", form).forEach(function (group) {
      var param = group.getAttribute("data-range");
      var parts = (params.get(param) || "").split(":");
      $('input[name="' + param + '_min"]', group).value = parts.length === 2 ? parts[0] : group.getAttribute("data-min");
      $('input[name="' + param + '_max"]', group).value = parts.length === 2 ? parts[1] : group.getAttribute("data-max");
      updateRangeLabel(group);
    });
    $all("[data-quick-date]", form).forEach(function (link) {
      var on = params.get("df") === link.getAttribute("data-quick-date") && params.get("dt") === link.getAttribute("data-quick-date");
      link.classList.toggle("is-active", on);
      if (on) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
    if (search && doc.activeElement !== search) search.value = params.get("q") || "";
    lastState = readState();
  }

  function filterQueryOf(searchString) {
    var params = new URLSearchParams(searchString);
    var out = new URLSearchParams();
    params.forEach(function (value, name) {
      if (FILTER_PARAMS.indexOf(name) >= 0) out.append(name, value);
    });
    return out.toString();
  }

  // On a phone, once the visitor searches or filters, the hero shrinks and the list comes into view
  // (not while the search box is being typed in).
  var phone = window.matchMedia && window.matchMedia("(max-width: 639px)").matches;
  // The sticky "N events · Filters" bar opens the filters as a sheet (on a phone they are shown only
  // there); its Close button, a tap outside it, Escape and a results swap close it.
  function closeSheet() {
    if (!doc.body.classList.contains("filters-open")) return;
    doc.body.classList.remove("filters-open");
    var bar = doc.getElementById("sticky-bar");
    if (bar && doc.activeElement && doc.activeElement.closest && doc.activeElement.closest(".browse-filters")) bar.focus();
  }
  doc.addEventListener("click", function (event) {
    if (!phone || !event.target.closest) return;
    if (event.target.closest("[data-open-filters]")) {
      event.preventDefault();
      doc.body.classList.add("filters-open");
      var first = $("#filters summary, #filters input");
      if (first) first.focus();
    } else if (event.target.closest("[data-close-filters]") || !event.target.closest(".browse-filters")) {
      closeSheet();
    }
  });
  doc.addEventListener("keydown", function (event) {
    if (event.key === "Escape") closeSheet();
  });
  // Enter in the search box (or its clear button) is a finished search: the phone keyboard closes so
  // the results can come into view. Typing alone never moves the page.
  if (search && phone) {
    search.addEventListener("search", function () {
      search.blur();
    });
  }

  function bringResultsIntoView(root) {
    if (!phone) return;
    closeSheet();
    doc.body.classList.add("is-interacted");
    if (search && doc.activeElement === search) return;
    root.scrollIntoView({ block: "start" });
  }

  // The filter form as it was when the last results request left. A reply brings the form to the
  // query it answered (its canonical form), unless the visitor changed the form while the reply was
  // on its way (a slider still being dragged, a box ticked): that change stands, and its own
  // request brings the next reply.
  var sentForm = null;
  function formSnapshot() {
    return form ? new URLSearchParams(new FormData(form)).toString() : "";
  }
  doc.body.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "results") sentForm = formSnapshot();
  });

  function afterResultsSwap() {
    var root = results();
    if (!root) return;
    bringResultsIntoView(root);
    var query = root.getAttribute("data-query") || "";
    if (FILTER_STORAGE_KEY) storageSet(FILTER_STORAGE_KEY, query);
    // A swap without a request of its own (a history restore) always brings the form along.
    var sent = sentForm;
    sentForm = null;
    if (sent === null || formSnapshot() === sent) syncForm(query);
    expireBadges();
    if (window.finderMap && mapCard && mapCard.open) {
      readMapData().then(function (data) {
        window.finderMap.update(data);
      });
    }
  }

  if (form) {
    form.addEventListener("change", function (event) {
      if (event.target && /_(min|max)$/.test(event.target.name || "")) return;
      var next = readState();
      trackStateChange(lastState, next);
      lastState = next;
    });
    form.addEventListener("input", function (event) {
      if (event.target && event.target.type === "range") onSliderInput(event.target);
    });
    $all("[data-range]", form).forEach(function (group) {
      lastTrackedRange[group.getAttribute("data-range")] = rangeValue(group.getAttribute("data-range"));
    });
    // Quick dates set both ends of the date range, then reload the results like any change.
    form.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("[data-quick-date]");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      var date = link.getAttribute("data-quick-date");
      var on = !(form.elements.df.value === date && form.elements.dt.value === date);
      form.elements.df.value = on ? date : "";
      form.elements.dt.value = on ? date : "";
      form.elements.df.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }
  if (search) search.addEventListener("input", onSearchInput);

  // On narrow screens the panel sits above the list: sections without an active value start closed.
  if (form && window.matchMedia && window.matchMedia("(max-width: 1039px)").matches) {
    $all("details.filter-section", form).forEach(function (section) {
      var active = $all("input", section).some(function (input) {
        if (input.type === "checkbox") return input.checked;
        if (input.type === "radio") return input.checked && input.value !== "";
        if (input.type === "date") return input.value !== "";
        if (input.type === "range") return false;
        return false;
      });
      var ranged = $all("[data-range]", section).some(function (group) {
        return rangeValue(group.getAttribute("data-range")) !== null;
      });
      if (!active && !ranged) section.open = false;
    });
  }

  // Quick chips (Now, Tonight, Today, Free, Near me): each tap is tracked as a filter, switched on
  // (filter_apply) or, on an active chip, off (filter_clear), with the group and value the server
  // wrote on the chip (lib/events/filter-labels.ts, QUICK_CHIP_TRACKING).
  doc.addEventListener("click", function (event) {
    var chip = event.target.closest && event.target.closest("[data-quick-group]");
    if (!chip) return;
    var on = chip.getAttribute("aria-current") === "true";
    trackDiscovery(on ? "filter_clear" : "filter_apply", { filterGroup: chip.getAttribute("data-quick-group"), filterValue: chip.getAttribute("data-quick-value") });
  });

  // Chip remove links and "Clear all".
  doc.addEventListener("click", function (event) {
    var chip = event.target.closest && event.target.closest("[data-track-clear]");
    if (!chip) return;
    var group = chip.getAttribute("data-track-clear");
    if (group === "all") trackDiscovery("filter_clear", { filterValue: "all" });
    else trackDiscovery("filter_clear", { filterGroup: group, filterValue: chip.getAttribute("data-track-value") });
  });

  // ---- the event modal (docs/public-pages.md) -------------------------------------------------------

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
    applyMapPreference(dialog);
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
        var link = event.target.closest && event.target.closest(".card-link, [data-map-event]");
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
      var el = event.target;
      if (el && el.matches && el.matches("dialog.modal") && modalRoot.contains(el)) {
        openModal(el, nextOpenPushed);
        nextOpenPushed = true;
      }
    });
    doc.addEventListener("click", function (event) {
      var dialog = currentModal();
      if (!dialog) return;
      var close = event.target.closest && event.target.closest("[data-modal-close]");
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
    if (event.target && event.target.id === "results") afterResultsSwap();
  });

  // ---- share and map app -------------------------------------------------------------------------

  function showShareStatus(button, text) {
    var status = doc.getElementById("share-status");
    if (!status) return;
    status.textContent = text;
    clearTimeout(showShareStatus.timer);
    showShareStatus.timer = setTimeout(function () {
      status.textContent = "";
    }, SHARE_STATUS_MS);
  }
  function copyFallback(text) {
    var area = doc.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    (currentModal() || doc.body).appendChild(area);
    area.select();
    var ok = false;
    try {
      ok = doc.execCommand("copy");
    } catch (e) {
      ok = false;
    }
    area.parentNode.removeChild(area);
    return ok;
  }
  doc.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share-url]");
    if (!button) return;
    var url = button.getAttribute("data-share-url");
    var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    if (touch && navigator.share) {
      navigator.share({ title: doc.title, url: url }).then(
        function () {
          showShareStatus(button, msg("linkShared"));
        },
        function (error) {
          if (!error || error.name !== "AbortError") showShareStatus(button, msg("copyFailed"));
        },
      );
      return;
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(
        function () {
          showShareStatus(button, msg("linkCopied"));
        },
        function () {
          showShareStatus(button, copyFallback(url) ? msg("linkCopied") : msg("copyFailed"));
        },
      );
    } else {
      showShareStatus(button, copyFallback(url) ? msg("linkCopied") : msg("copyFailed"));
    }
  });

  function applyMapPreference(root) {
    var link = $("[data-map-link]", root);
    var toggle = $("[data-map-app-switch]", root);
    if (!link) return;
    var apple = storageGet(MAP_APP_KEY) === "apple";
    link.href = link.getAttribute(apple ? "data-apple-href" : "data-google-href");
    if (toggle) {
      toggle.hidden = false;
      toggle.textContent = apple ? msg("useGoogle") : msg("useApple");
    }
  }
  doc.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-map-app-switch]");
    if (!toggle) return;
    storageSet(MAP_APP_KEY, storageGet(MAP_APP_KEY) === "apple" ? "google" : "apple");
    applyMapPreference(toggle.closest("dialog") || doc);
  });

  // ---- the clock ---------------------------------------------------------------------------------
  // The page's clock: the real one, or, outside production, the preview minute the server rendered
  // the page at (the badge's data-preview-at, docs/public-pages.md, "Preview clock"), so live states,
  // badges, the countdown and near me read the same minute as the server.

  var previewBadge = $("[data-preview-at]");
  var previewAt = previewBadge ? Number(previewBadge.getAttribute("data-preview-at")) : NaN;
  function clockNow() {
    return isNaN(previewAt) ? Date.now() : previewAt;
  }

  // ---- countdown and badge expiry ---------------------------------------------------------------

  var parisParts = new Intl.DateTimeFormat("en-CA", { timeZone: doc.body.getAttribute("data-time-zone") || undefined, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  function parisNow() {
    var parts = {};
    parisParts.formatToParts(new Date(clockNow())).forEach(function (part) {
      parts[part.type] = part.value;
    });
    return parts;
  }
  function updateCountdown() {
    var box = $("[data-countdown]");
    if (!box) return;
    var now = parisNow();
    var date = now.year + "-" + now.month + "-" + now.day;
    var target = now.year + "-" + box.getAttribute("data-countdown");
    var value = $(".countdown-value", box);
    if (date === target) {
      box.hidden = false;
      value.textContent = msg("today");
    } else if (date > target) {
      box.hidden = true;
    } else {
      // Minutes between two Paris wall-clock readings: both as if UTC, so no offset is needed.
      var nowMinutes = Date.UTC(+now.year, +now.month - 1, +now.day, +now.hour, +now.minute) / 60000;
      var targetParts = target.split("-");
      var left = Date.UTC(+targetParts[0], +targetParts[1] - 1, +targetParts[2]) / 60000 - nowMinutes;
      var days = Math.floor(left / 1440);
      var hours = Math.floor((left % 1440) / 60);
      var minutes = left % 60;
      box.hidden = false;
      value.textContent = msg("countdown", { days: days, hours: hours, minutes: (minutes < 10 ? "0" : "") + minutes });
    }
  }
  // Cards treat placement end times as authoritative: a cached page drops expired badges by itself.
  function expireBadges() {
    var now = clockNow();
    $all("[data-ends-at]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-ends-at"));
      if (!isNaN(end) && end <= now) el.hidden = true;
    });
  }
  // Live states ("On now · until 23:00", "In 20 min", "Last hour", "Ended") are drawn by the server
  // and kept current here from the span each one carries (start and end instants, the end as
  // HH:MM, the "soon" and "ended" thresholds), so a page left open or served from a cache stays true.
  function updateLiveStates() {
    var now = clockNow();
    $all("[data-live]").forEach(function (el) {
      var p = el.getAttribute("data-live").split(" ");
      var start = +p[0], end = +p[1], soon = +p[3], endedFor = +p[4];
      var kind = "";
      var text = "";
      if (now >= end) {
        if (now - end < endedFor) { kind = "ended"; text = msg("ended"); }
      } else if (now >= start) {
        if (end - now <= soon) { kind = "lastHour"; text = msg("liveLastHour"); } else { kind = "on"; text = msg("liveOn", { time: p[2] }); }
      } else if (start - now <= soon) {
        kind = "soon";
        text = msg("liveSoon", { minutes: Math.max(1, Math.ceil((start - now) / 60000)) });
      }
      el.className = kind ? "live-state live-" + kind : "live-state";
      el.textContent = text;
      el.hidden = !kind;
    });
  }
  updateCountdown();
  expireBadges();
  updateLiveStates();
  doc.body.addEventListener("htmx:afterSettle", updateLiveStates);
  setInterval(function () {
    updateCountdown();
    expireBadges();
    updateLiveStates();
  }, 30000);

  // ---- header sign-in -------------------------------------------------------------------------------

  var account = $("[data-account]");
  var signInDialog = doc.getElementById("sign-in-dialog");
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
    var chip = event.target.closest && event.target.closest("[data-quick-genre]");
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
    signedIn = !!email;
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
      if (event.target.closest("[data-sign-in-open]") && signInDialog && window.htmx) {
        event.preventDefault();
        signInDialog.showModal();
        // The form comes from the account pages (GET /sign-in answers its fragment to htmx).
        window.htmx.ajax("GET", PAGES + "/sign-in", { target: "#sign-in-slot", swap: "innerHTML" }).then(function () {
          var email = $('input[type="email"]', signInDialog);
          if (email) email.focus();
        });
      } else if (event.target.closest("[data-sign-out]")) {
        fetch(SITE + "/api/auth/session", { method: "DELETE", credentials: "same-origin" }).finally(function () {
          showAccount(null);
        });
      }
    });
  }
  if (signInDialog) {
    signInDialog.addEventListener("click", function (event) {
      if (event.target === signInDialog || (event.target.closest && event.target.closest("[data-dialog-close]"))) signInDialog.close();
    });
    // The form swaps itself (outerHTML), so listen for the new element, which is in the document.
    doc.body.addEventListener("htmx:load", function (event) {
      var el = event.target;
      if (el && el.matches && el.matches(".sign-in-done") && signInDialog.contains(el)) {
        refreshSession().then(function () {
          signInDialog.close();
          var button = $("[data-sign-out]");
          if (button) button.focus();
        });
      }
    });
  }

  // ---- map (loaded when the card is opened) --------------------------------------------------------

  var mapCard = doc.getElementById("map-card");
  // The map's points come from the address on the area list (the filtered events as JSON), fetched
  // when the map is open; the last answer is kept per address.
  var mapDataCache = { src: null, data: null };
  function readMapData() {
    var holder = doc.getElementById("map-areas");
    var src = holder && holder.getAttribute("data-map-src");
    var empty = { venues: [], areas: [] };
    if (!src) return Promise.resolve(empty);
    if (mapDataCache.src === src) return Promise.resolve(mapDataCache.data);
    return fetch(src, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : empty;
      })
      .then(function (data) {
        mapDataCache = { src: src, data: data };
        return data;
      })
      .catch(function () {
        return empty;
      });
  }
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = doc.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      doc.head.appendChild(script);
    });
  }
  function addStylesheet(href) {
    var css = doc.createElement("link");
    css.rel = "stylesheet";
    css.href = href;
    doc.head.appendChild(css);
  }
  function readOutlines() {
    return fetch(mapCard.getAttribute("data-outlines"), { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("outlines " + response.status);
      return response.json();
    });
  }
  // A tap on an arrondissement's outline ticks (or unticks) its box in the filters, which sends the
  // filter form like any other change; without the form, its filtered page is opened.
  function filterArea(arr) {
    var box = form && $('input[name="arr"][value="' + arr + '"]', form);
    if (!box) {
      var params = new URLSearchParams(location.search);
      params.set("arr", String(arr));
      location.href = PAGES + "/?" + params.toString();
      return;
    }
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // The map's files and its data, handed to the service worker so the map works offline even when
  // it was opened before the worker took over this page.
  function keepMapForOffline() {
    if (!("serviceWorker" in navigator)) return;
    var holder = doc.getElementById("map-areas");
    var urls = ["data-leaflet-css", "data-leaflet-js", "data-cluster-css", "data-cluster-js", "data-map-js", "data-outlines"].map(function (name) {
      return mapCard.getAttribute(name);
    });
    if (holder && holder.getAttribute("data-map-src")) urls.push(holder.getAttribute("data-map-src"));
    navigator.serviceWorker.ready
      .then(function (registration) {
        if (registration.active) registration.active.postMessage({ type: "keep", urls: urls });
      })
      .catch(function () {});
  }
  var mapLoading = null;
  function ensureMap() {
    if (mapLoading) return mapLoading;
    addStylesheet(mapCard.getAttribute("data-leaflet-css"));
    addStylesheet(mapCard.getAttribute("data-cluster-css"));
    var outlines = readOutlines();
    mapLoading = loadScript(mapCard.getAttribute("data-leaflet-js"))
      .then(function () {
        return Promise.all([loadScript(mapCard.getAttribute("data-cluster-js")), loadScript(mapCard.getAttribute("data-map-js"))]);
      })
      .then(function () {
        return Promise.all([readMapData(), outlines]);
      })
      .then(function (loaded) {
        window.finderMap.init(doc.getElementById("event-map"), loaded[0], {
          open: function (key, slug, link) {
            clickedOpener = link;
            loadModal(key, slug, true);
          },
          filterArea: filterArea,
          outlines: loaded[1],
          attribution: mapCard.getAttribute("data-outlines-attribution") || "",
        });
        keepMapForOffline();
      })
      .catch(function () {
        mapLoading = null;
        var frame = $(".map-frame");
        if (frame) frame.insertAdjacentHTML("beforeend", '<p class="map-fallback">The map could not load. Every area below links to its events.</p>');
      });
    return mapLoading;
  }
  if (mapCard) {
    mapCard.addEventListener("toggle", function () {
      if (!mapCard.open) return;
      ensureMap()
        .then(readMapData)
        .then(function (data) {
          if (window.finderMap) window.finderMap.update(data);
        });
    });
  }

  // ---- near me (docs/filters-and-search.md, "Near me") -------------------------------------------
  // The position is asked for once per page, kept in this page only and never sent anywhere. The
  // server sends the candidate venues with their cards (`/?<filters>&near=list`: what is on now and
  // next during the festival); here each venue's distance is measured, those within the radius are
  // kept, the precise ones nearest first with metres and walking minutes, then the estimated ones
  // (only their arrondissement is known: the server wrote "in the 10th", never metres).

  var nearPanel = doc.getElementById("near-me");
  var nearPosition = null;
  var nearAsked = false;
  var nearCache = { src: null, html: null };
  function distanceKm(a, b) {
    var rad = Math.PI / 180;
    var dLat = (b.lat - a.lat) * rad;
    var dLng = (b.lng - a.lng) * rad;
    var h = Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) * Math.sin(dLng / 2);
    return 12742 * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  function nearStatus(text) {
    var status = $("[data-near-status]", nearPanel);
    if (status) status.textContent = text;
  }
  function nearSrc() {
    var root = results();
    var query = root ? root.getAttribute("data-query") || "" : "";
    return PAGES + "/?" + (query ? query + "&" : "") + "near=list";
  }
  function readNearList() {
    var src = nearSrc();
    if (nearCache.src === src) return Promise.resolve(nearCache.html);
    // null when the list could not be fetched (offline, server down): the panel says so.
    return fetch(src, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html !== null) nearCache = { src: src, html: html };
        return html;
      })
      .catch(function () {
        return null;
      });
  }
  function showNear() {
    if (!nearPanel || !nearPosition) return;
    var radius = Number($("[data-near-radius]", nearPanel).value) || 1;
    var walk = Number(nearPanel.getAttribute("data-walk")) || 75;
    var slack = Number(nearPanel.getAttribute("data-slack")) || 0;
    var max = Number(nearPanel.getAttribute("data-max")) || 20;
    readNearList().then(function (html) {
      var holder = $("[data-near-results]", nearPanel);
      if (html === null) {
        holder.hidden = true;
        nearStatus(msg("nearUnavailable"));
        return;
      }
      holder.innerHTML = html;
      var list = $(".near-venues", holder);
      var kept = [];
      $all(".near-venue", holder).forEach(function (venue) {
        var km = distanceKm(nearPosition, { lat: Number(venue.getAttribute("data-lat")), lng: Number(venue.getAttribute("data-lng")) });
        var estimated = venue.hasAttribute("data-est");
        if (km > radius + (estimated ? slack : 0)) return venue.remove();
        kept.push({ el: venue, km: km, estimated: estimated });
        var label = $("[data-near-distance]", venue);
        if (label && !estimated) {
          var metres = Math.round((km * 1000) / 10) * 10;
          label.textContent = msg("nearDistance", { metres: metres, minutes: Math.max(1, Math.round((km * 1000) / walk)) });
        }
      });
      kept.sort(function (a, b) {
        return (a.estimated ? 1 : 0) - (b.estimated ? 1 : 0) || a.km - b.km;
      });
      // Only the nearest venues are shown.
      kept.splice(max).forEach(function (row) {
        row.el.remove();
      });
      var count = 0;
      kept.forEach(function (row) {
        count += Number(row.el.getAttribute("data-count")) || 0;
        if (list) list.appendChild(row.el);
      });
      holder.hidden = false;
      if (list) list.hidden = kept.length === 0;
      if (window.htmx) window.htmx.process(holder);
      updateLiveStates();
      nearStatus(kept.length === 0 ? msg("nearNone", { radius: radius }) : msg("nearSome", { count: count, radius: radius }));
    });
  }
  function askPosition() {
    if (nearAsked) return showNear();
    nearAsked = true;
    if (!navigator.geolocation) {
      nearStatus(msg("nearUnsupported"));
      return;
    }
    nearStatus(msg("nearFinding"));
    navigator.geolocation.getCurrentPosition(
      function (position) {
        nearPosition = { lat: position.coords.latitude, lng: position.coords.longitude };
        $(".near-me-radius", nearPanel).hidden = false;
        showNear();
      },
      function () {
        nearStatus(msg("nearDenied"));
      },
      { enableHighAccuracy: false, maximumAge: 300000, timeout: 15000 },
    );
  }
  if (nearPanel) {
    // A filter change while the list is open lists the new filters' venues.
    doc.body.addEventListener("htmx:afterSettle", function () {
      if (nearPosition && nearPanel.classList.contains("is-open") && nearSrc() !== nearCache.src) showNear();
    });
    doc.addEventListener("click", function (event) {
      var chip = event.target.closest && event.target.closest("[data-near-me]");
      if (chip) {
        event.preventDefault();
        nearPanel.classList.add("is-open");
        nearPanel.scrollIntoView({ block: "start" });
        askPosition();
      }
    });
    $("[data-near-radius]", nearPanel).addEventListener("change", showNear);
  }

})();
