// finder's browser script for the public pages (no build step). It enhances server-rendered HTML
// that already works without it: tracking beacons (docs/tracking.md), filter tracking and URL
// state (docs/filters-and-search.md), the event modal (focus, Escape, history), share/copy, map-app
// preference, the countdown, badge expiry, the header sign-in, and lazy loading of the map. History
// is handled here rather than by htmx snapshots, so a Leaflet map or an open dialog is never
// restored from a stale copy.
// The parts live in static/app/, one file per part, each started here in the order the page needs.

// The modules the parts import, named here too so that the browser asks for every file at once
// instead of learning of these only once the parts have arrived (one round trip less).
import "./app/page.js";
import "./app/filter-changes.js";
import "./app/live-times.js";
import "./app/distance.js";
import { restoreStoredFilters } from "./app/stored-filters.js";
import { startTracking } from "./app/tracking.js";
import { startFilters } from "./app/filters.js";
import { startModal } from "./app/modal.js";
import { startShare } from "./app/share.js";
import { startClock } from "./app/clock.js";
import { startSignIn } from "./app/sign-in.js";
import { startMapCard } from "./app/map-card.js";
import { startNearMe } from "./app/near-me.js";

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

/** @type {import("./app/page.js").Page} */
var page = {
  doc: doc,
  SITE: SITE,
  PAGES: PAGES,
  msg: msg,
  SESSION_KEY: SESSION_KEY,
  MAP_APP_KEY: MAP_APP_KEY,
  FILTER_STORAGE_KEY: FILTER_STORAGE_KEY,
  FILTER_PARAMS: FILTER_PARAMS,
  SHARE_STATUS_MS: SHARE_STATUS_MS,
  mapCard: /** @type {HTMLDetailsElement | null} */ (doc.getElementById("map-card")),
  signedIn: false,
};

// A bare visit with stored filters is replaced by their address: nothing else starts.
if (!restoreStoredFilters(page)) {
  /** @type {import("./app/page.js").Parts} */
  var app = {};
  app.tracking = startTracking(page, app);
  app.filters = startFilters(page, app);
  app.modal = startModal(page, app);
  startShare(page, app);
  app.clock = startClock(page, app);
  startSignIn(page, app);
  app.map = startMapCard(page, app);
  startNearMe(page, app);
}
