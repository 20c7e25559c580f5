// The homepage map (docs/public-pages.md, "Homepage"), loaded by app.js after Leaflet when the map
// card opens: OpenStreetMap tiles with attribution, one circle per arrondissement coloured by the
// filtered event count, one marker per venue. Popups list events and open their modal. Without
// tiles the circles, markers and the area list below still work. Text is inserted as text, never as
// HTML.
(function () {
  "use strict";
  // The page's words (static/messages.js, loaded before this script).
  var msg = window.finderMsg;

  var BANDS = { none: "#9ca3af", one: "#16a34a", few: "#ea580c", many: "#dc2626", selected: "#2563eb" };
  var PARIS = [48.8566, 2.3522];
  var POPUP_LIMIT = 8;
  var map = null;
  var layer = null;
  var onOpen = null;

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
    link.href = "/event/" + encodeURIComponent(event.k) + "/" + encodeURIComponent(event.s);
    link.setAttribute("data-map-event", event.k);
    link.addEventListener("click", function (e) {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
      e.preventDefault();
      onOpen(event.k, event.s, link);
    });
    return link;
  }
  function popup(title, events, moreHref) {
    var box = el("div", "map-popup");
    box.appendChild(el("h3", null, title));
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
  function areaHref(arr) {
    var params = new URLSearchParams(location.search);
    params.delete("event");
    params.delete("slug");
    params.set("arr", String(arr));
    return "/?" + params.toString();
  }

  function draw(data) {
    if (!map) return;
    layer.clearLayers();
    var byArea = {};
    (data.venues || []).forEach(function (venue) {
      (byArea[venue.arr] = byArea[venue.arr] || []).push.apply(byArea[venue.arr], venue.events);
    });
    (data.areas || []).forEach(function (area) {
      var colour = BANDS[band(area)];
      var circle = L.circle([area.lat, area.lng], { radius: 550, color: colour, weight: 2, fillColor: colour, fillOpacity: area.count ? 0.28 : 0.12 });
      // Leaflet reads a string tooltip as HTML: every tooltip is handed over as a text node's element.
      circle.bindTooltip(el("span", null, area.label + ": " + area.count + (area.count === 1 ? " event" : " events")));
      circle.bindPopup(function () {
        return popup(area.label + " · " + msg("areaEvents", { count: area.count }), byArea[area.arr] || [], areaHref(area.arr));
      });
      layer.addLayer(circle);
    });
    var points = [];
    (data.venues || []).forEach(function (venue) {
      var marker = L.circleMarker([venue.lat, venue.lng], { radius: 7, color: "#ffffff", weight: 2, fillColor: "#5b21b6", fillOpacity: 1 });
      marker.bindTooltip(el("span", null, venue.venue + (venue.events.length > 1 ? " (" + venue.events.length + ")" : "")));
      marker.bindPopup(function () {
        return popup(venue.venue, venue.events, areaHref(venue.arr));
      });
      layer.addLayer(marker);
      points.push([venue.lat, venue.lng]);
    });
    if (points.length > 0) map.fitBounds(points, { padding: [30, 30], maxZoom: 14 });
    else map.setView(PARIS, 12);
  }

  window.finderMap = {
    init: function (container, data, open) {
      if (!container || map) return;
      onOpen = open;
      map = L.map(container, { scrollWheelZoom: false }).setView(PARIS, 12);
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
      layer = L.layerGroup().addTo(map);
      draw(data);
    },
    update: function (data) {
      if (!map) return;
      map.invalidateSize();
      draw(data);
    },
  };
})();
