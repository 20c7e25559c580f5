// The homepage map card: Leaflet, its clusters and static/map.js loaded only when the card is
// opened, then the filtered events' points and the arrondissement outlines.

import { $ } from "./page.js";

/**
 * Loads the map when its card is opened.
 * @param {import("./page.js").Page} page
 * @param {import("./page.js").Parts} app
 */
export function startMapCard(page, app) {
  var doc = page.doc;
  var PAGES = page.PAGES;
  var mapCard = page.mapCard;
  var form = app.filters.form;
  var loadModal = app.modal.loadModal;
  var setClickedOpener = app.modal.setClickedOpener;

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
            setClickedOpener(link);
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
  return { readMapData };
}
