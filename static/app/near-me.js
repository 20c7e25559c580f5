// Near me (docs/filters-and-search.md, "Near me"): the position, asked once and kept in this page
// only, measured against the venues the server lists for the current filters.

import { $, $all } from "./page.js";
import { distanceKm } from "./distance.js";

/**
 * Wires the near-me panel.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startNearMe(page, app) {
  var doc = page.doc;
  var PAGES = page.PAGES;
  var msg = page.msg;
  var search = app.filters.search;
  var results = app.filters.results;
  var updateLiveStates = app.clock.updateLiveStates;

  // The position is asked for once per page, kept in this page only and never sent anywhere. The
  // server sends the candidate venues with their cards (`/?<filters>&near=list`: what is on now and
  // next during the festival); here each venue's distance is measured, those within the radius are
  // kept, the precise ones nearest first with metres and walking minutes, then the estimated ones
  // (only their arrondissement is known: the server wrote "in the 10th", never metres).

  var nearPanel = doc.getElementById("near-me");
  var nearPosition = null;
  var nearAsked = false;
  var nearCache = { src: null, html: null };
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
      var chip = /** @type {Element} */ (event.target).closest && /** @type {Element} */ (event.target).closest("[data-near-me]");
      if (chip) {
        event.preventDefault();
        nearPanel.classList.add("is-open");
        nearPanel.scrollIntoView({ block: "start" });
        askPosition();
      }
    });
    $("[data-near-radius]", nearPanel).addEventListener("change", showNear);
  }
}
