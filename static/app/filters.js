// The filters form (docs/filters-and-search.md): its state, what changes are tracked, the sliders'
// labels, the phone sheet and the URL and storage state after each results swap.

import { $, $all, storageSet } from "./page.js";
import { filterChanges, filterQuery } from "./filter-changes.js";

/**
 * Wires the filters form and the results swaps.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startFilters(page, app) {
  var doc = page.doc;
  var SITE = page.SITE;
  var FILTER_STORAGE_KEY = page.FILTER_STORAGE_KEY;
  var FILTER_PARAMS = page.FILTER_PARAMS;
  var mapCard = page.mapCard;
  var trackDiscovery = app.tracking.trackDiscovery;
  // Parts started after this one (see static/app.js), looked up when called.
  function expireBadges() {
    app.clock.expireBadges();
  }
  function readMapData() {
    return app.map.readMapData();
  }

  // The form's controls are read by name (form.elements.df): typed loosely.
  var form = /** @type {any} */ (doc.getElementById("filters"));
  var search = /** @type {HTMLInputElement | null} */ (doc.getElementById("search-q"));

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
    filterChanges(before, after).forEach(function (change) {
      trackDiscovery(change.action, { filterGroup: change.group, filterValue: change.value });
      if (change.action === "filter_apply" && change.group === "genre" && page.signedIn) sendPreference(change.value);
    });
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
    return filterQuery(searchString, FILTER_PARAMS);
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
    if (!phone || !/** @type {Element} */ (event.target).closest) return;
    if (/** @type {Element} */ (event.target).closest("[data-open-filters]")) {
      event.preventDefault();
      doc.body.classList.add("filters-open");
      var first = $("#filters summary, #filters input");
      if (first) first.focus();
    } else if (/** @type {Element} */ (event.target).closest("[data-close-filters]") || !/** @type {Element} */ (event.target).closest(".browse-filters")) {
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
    // The DOM library does not list FormData among URLSearchParams' inputs, which browsers take.
    return form ? new URLSearchParams(/** @type {any} */ (new FormData(form))).toString() : "";
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
      if (event.target && /_(min|max)$/.test(/** @type {HTMLInputElement} */ (event.target).name || "")) return;
      var next = readState();
      trackStateChange(lastState, next);
      lastState = next;
    });
    form.addEventListener("input", function (event) {
      if (event.target && /** @type {HTMLInputElement} */ (event.target).type === "range") onSliderInput(event.target);
    });
    $all("[data-range]", form).forEach(function (group) {
      lastTrackedRange[group.getAttribute("data-range")] = rangeValue(group.getAttribute("data-range"));
    });
    // Quick dates set both ends of the date range, then reload the results like any change.
    form.addEventListener("click", function (event) {
      var link = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-quick-date]");
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
    var chip = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-quick-group]");
    if (!chip) return;
    var on = chip.getAttribute("aria-current") === "true";
    trackDiscovery(on ? "filter_clear" : "filter_apply", { filterGroup: chip.getAttribute("data-quick-group"), filterValue: chip.getAttribute("data-quick-value") });
  });

  // Chip remove links and "Clear all".
  doc.addEventListener("click", function (event) {
    var chip = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-track-clear]");
    if (!chip) return;
    var group = chip.getAttribute("data-track-clear");
    if (group === "all") trackDiscovery("filter_clear", { filterValue: "all" });
    else trackDiscovery("filter_clear", { filterGroup: group, filterValue: chip.getAttribute("data-track-value") });
  });
  return { form, search, results, filterQueryOf, afterResultsSwap };
}
