// The homepage map (docs/public-pages.md, "Map card"), loaded by app.js with Leaflet, its marker
// clusters and the arrondissement outlines only when the map card opens:
//   - the 20 arrondissement outlines, shaded by the filtered event count; a tap filters by that
//     arrondissement (like ticking its box in the filters);
//   - one marker per venue with its own name and events, clustered when zoomed out;
//   - venues whose position is only an estimate (their arrondissement's centre) are not drawn as a
//     precise dot: one "≈ N venues" badge per arrondissement lists them, each under its own name;
//   - "Show where I am": the browser's position, drawn here and never sent anywhere.
// The outlines, venues and area list work without tiles (and offline, from the service worker).
// Every value from the sheet is inserted as text (DOM nodes, textContent), never as HTML.
(function () {
  "use strict";
  // The page's words (static/messages.js, loaded before this script).
  var msg = window.finderMsg;

  var BANDS = { none: "#9ca3af", one: "#16a34a", few: "#ea580c", many: "#dc2626", selected: "#2563eb" };
  var PARIS = [48.8566, 2.3522];
  var POPUP_LIMIT = 8;
  // Popups fit inside the map and pan clear of the "Me situer" button in the top corner (about
  // 40 px tall); a long list scrolls inside the popup rather than running off a phone's map.
  function popupOptions() {
    var size = map.getSize();
    return {
      maxWidth: Math.max(160, Math.min(300, size.x - 70)),
      maxHeight: Math.max(120, Math.min(280, size.y - 130)),
      autoPanPaddingTopLeft: [12, 56],
      autoPanPaddingBottomRight: [12, 12],
    };
  }
  var map = null;
  var outlinesLayer = null;
  var venueLayer = null;
  var approxLayer = null;
  var options = null;
  var fitted = false;

  function band(area) {
    if (area.selected) return "selected";
    if (area.count === 0) return "none";
    if (area.count === 1) return "one";
    return area.count <= 4 ? "few" : "many";
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function eventLink(event) {
    var link = el("a", null, event.n);
    link.href = (document.body.getAttribute("data-page-path") || "") + "/event/" + encodeURIComponent(event.k) + "/" + encodeURIComponent(event.s);
    link.setAttribute("data-map-event", event.k);
    link.addEventListener("click", function (e) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
      e.preventDefault();
      options.open(event.k, event.s, link);
    });
    return link;
  }
  function eventList(events, moreHref) {
    var box = document.createDocumentFragment();
    var list = el("ul");
    events.slice(0, POPUP_LIMIT).forEach(function (event) {
      var item = el("li");
      item.appendChild(eventLink(event));
      item.appendChild(el("small", null, event.w));
      list.appendChild(item);
    });
    box.appendChild(list);
    if (events.length > POPUP_LIMIT) {
      var more = el("a", null, msg("moreEvents", { count: events.length - POPUP_LIMIT }));
      more.href = moreHref;
      box.appendChild(more);
    }
    return box;
  }
  function venuePopup(venue) {
    var box = el("div", "map-popup");
    box.setAttribute("data-venue-popup", "");
    box.appendChild(el("h3", null, venue.venue));
    box.appendChild(eventList(venue.events, areaHref(venue.arr)));
    return box;
  }
  function approxPopup(area, venues) {
    var box = el("div", "map-popup");
    box.setAttribute("data-approx-popup", String(area.arr));
    box.appendChild(el("p", "map-popup-note", msg("mapApprox", { area: area.label })));
    venues.forEach(function (venue) {
      var section = el("section", "map-popup-venue");
      section.appendChild(el("h3", null, venue.venue));
      section.appendChild(eventList(venue.events, areaHref(venue.arr)));
      box.appendChild(section);
    });
    return box;
  }
  function areaHref(arr) {
    var params = new URLSearchParams(location.search);
    params.delete("event");
    params.delete("slug");
    params.set("arr", String(arr));
    return "/?" + params.toString();
  }
  function escapeText(text) {
    return el("span", null, text).innerHTML;
  }

  function areasByNumber(data) {
    var byArr = {};
    (data.areas || []).forEach(function (area) {
      byArr[area.arr] = area;
    });
    return byArr;
  }

  function drawOutlines(data) {
    var byArr = areasByNumber(data);
    outlinesLayer.eachLayer(function (shape) {
      var props = shape.feature.properties;
      var area = byArr[props.arrondissement] || { arr: props.arrondissement, label: props.label, count: 0, selected: false };
      var colour = BANDS[band(area)];
      shape.setStyle({ color: colour, weight: area.selected ? 3 : 1.5, fillColor: colour, fillOpacity: area.selected ? 0.35 : area.count ? 0.28 : 0.08 });
      shape.setTooltipContent(el("span", null, msg("mapAreaTip", { area: area.label, events: msg("areaEvents", { count: area.count }) })));
      var path = shape.getElement && shape.getElement();
      if (path) {
        path.setAttribute("data-area", String(props.arrondissement));
        path.setAttribute("data-count", String(area.count));
      }
    });
  }

  function venueIcon(venue) {
    var pin = el("span", "venue-pin-dot");
    if (venue.events.length > 1) pin.appendChild(el("span", "venue-pin-count", String(venue.events.length)));
    return L.divIcon({ html: pin, className: "venue-pin", iconSize: [22, 22], iconAnchor: [11, 11], popupAnchor: [0, -10] });
  }
  function clusterIcon(cluster) {
    var count = 0;
    cluster.getAllChildMarkers().forEach(function (marker) {
      count += marker.options.eventCount || 0;
    });
    var size = count < 10 ? 34 : count < 100 ? 40 : 46;
    var bubble = el("span", "venue-cluster-count", String(count));
    return L.divIcon({ html: bubble, className: "venue-cluster", iconSize: [size, size] });
  }

  function drawVenues(data) {
    venueLayer.clearLayers();
    approxLayer.clearLayers();
    var byArr = areasByNumber(data);
    var approx = {};
    var markers = [];
    var points = [];
    (data.venues || []).forEach(function (venue) {
      if (venue.est && typeof venue.arr === "number") {
        (approx[venue.arr] = approx[venue.arr] || []).push(venue);
        return;
      }
      var marker = L.marker([venue.lat, venue.lng], { icon: venueIcon(venue), eventCount: venue.events.length, keyboard: true, title: venue.venue });
      marker.bindTooltip(el("span", null, venue.venue));
      marker.bindPopup(function () {
        return venuePopup(venue);
      }, popupOptions());
      markers.push(marker);
      points.push([venue.lat, venue.lng]);
    });
    venueLayer.addLayers(markers);
    Object.keys(approx).forEach(function (arr) {
      var venues = approx[arr];
      var area = byArr[arr] || { arr: Number(arr), label: String(arr) };
      var centre = options.centres[arr];
      if (!centre) return;
      var badge = el("span", "approx-badge-text", msg("mapApproxBadge", { count: venues.length }));
      var marker = L.marker(centre, { icon: L.divIcon({ html: badge, className: "approx-badge", iconSize: null }), keyboard: true, title: msg("mapApprox", { area: area.label }) });
      marker.bindPopup(function () {
        return approxPopup(area, venues);
      }, popupOptions());
      approxLayer.addLayer(marker);
      points.push(centre);
    });
    if (fitted) return;
    fitted = true;
    if (points.length > 0) map.fitBounds(points, { padding: [30, 30], maxZoom: 14, animate: false });
    else map.fitBounds(outlinesLayer.getBounds(), { animate: false });
  }

  function draw(data) {
    if (!map) return;
    drawOutlines(data);
    drawVenues(data);
  }

  // "Show where I am": asked only on a tap, drawn here, never sent to the server.
  function locateControl() {
    var here = null;
    var Control = L.Control.extend({
      options: { position: "topright" },
      onAdd: function () {
        var button = el("button", "map-locate", msg("mapLocate"));
        button.type = "button";
        L.DomEvent.disableClickPropagation(button);
        button.addEventListener("click", function () {
          if (!navigator.geolocation) return;
          navigator.geolocation.getCurrentPosition(
            function (position) {
              var point = [position.coords.latitude, position.coords.longitude];
              if (here) map.removeLayer(here);
              here = L.layerGroup([
                L.circle(point, { radius: Math.min(position.coords.accuracy || 0, 2000), color: "#2563eb", weight: 1, fillOpacity: 0.1, interactive: false }),
                L.circleMarker(point, { radius: 7, color: "#ffffff", weight: 2, fillColor: "#2563eb", fillOpacity: 1, className: "map-you-are-here" }).bindTooltip(el("span", null, msg("mapYouAreHere")), { permanent: true, direction: "top" }),
              ]).addTo(map);
              map.setView(point, Math.max(map.getZoom(), 15));
            },
            function () {
              button.textContent = msg("mapLocateFailed");
            },
            { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 },
          );
        });
        return button;
      },
    });
    return new Control();
  }

  window.finderMap = {
    /**
     * container: the map element; data: the map's JSON; opts: { open(key, slug, link),
     * filterArea(arr), outlines (GeoJSON), attribution (plain text) }.
     */
    init: function (container, data, opts) {
      if (!container || map) return;
      options = opts;
      options.centres = {};
      map = L.map(container, { scrollWheelZoom: false }).setView(PARIS, 12);
      // The card can change size after the map starts (it opens inside a <details>, fonts and the
      // legend settle): a stale size puts popups and panning off by the difference.
      if (window.ResizeObserver) {
        new ResizeObserver(function () {
          map.invalidateSize();
        }).observe(container);
      }
      var tiles = L.tileLayer("https://tile.openstreetmap.org/{z}/{x}/{y}.png", {
        maxZoom: 19,
        attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
      });
      var warned = false;
      tiles.on("tileerror", function () {
        if (warned) return;
        warned = true;
        var note = el("p", "map-fallback", msg("mapTilesFailed"));
        container.parentNode.appendChild(note);
      });
      tiles.addTo(map);
      outlinesLayer = L.geoJSON(opts.outlines, {
        attribution: escapeText(opts.attribution),
        onEachFeature: function (feature, shape) {
          var props = feature.properties;
          options.centres[props.arrondissement] = [props.centroid[1], props.centroid[0]];
          shape.bindTooltip(el("span", null, props.label), { sticky: true });
          shape.on("click", function () {
            options.filterArea(props.arrondissement);
          });
        },
      }).addTo(map);
      venueLayer = L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 45, spiderfyOnMaxZoom: true, iconCreateFunction: clusterIcon });
      map.addLayer(venueLayer);
      approxLayer = L.layerGroup().addTo(map);
      locateControl().addTo(map);
      // An open popup owns the top of the map: the zoom buttons and "Me situer" step aside until it
      // closes, so a popup's first line is never under them on a phone (pinch still zooms).
      map.on("popupopen", function () {
        container.classList.add("map-popup-open");
      });
      map.on("popupclose", function () {
        container.classList.remove("map-popup-open");
      });
      draw(data);
    },
    update: function (data) {
      if (!map) return;
      map.invalidateSize();
      draw(data);
    },
  };
})();
