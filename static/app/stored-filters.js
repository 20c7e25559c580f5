// The homepage's filters kept in storage: the visitor's last filters come back on a bare visit;
// an address with filters (or an event) wins and is stored instead.

import { storageGet, storageSet } from "./page.js";

/**
 * Restores the stored filters on a bare homepage visit (the page is then replaced: true), else
 * stores the page's own.
 * @param {import("./page.js").Page} page
 * @returns {boolean}
 */
export function restoreStoredFilters(page) {
  var doc = page.doc;
  var PAGES = page.PAGES;
  var FILTER_STORAGE_KEY = page.FILTER_STORAGE_KEY;
  var FILTER_PARAMS = page.FILTER_PARAMS;

  var initialResults = doc.getElementById("results");
  if (initialResults && doc.getElementById("filters")) {
    var initialParams = new URLSearchParams(location.search);
    var hasFilterParam = FILTER_PARAMS.some(function (name) {
      return initialParams.has(name);
    });
    var stored = storageGet(FILTER_STORAGE_KEY);
    if (!hasFilterParam && stored && !initialParams.has("event")) {
      location.replace(PAGES + "/?" + stored);
      return true;
    }
    storageSet(FILTER_STORAGE_KEY, initialResults.getAttribute("data-query") || "");
  }
  return false;
}
