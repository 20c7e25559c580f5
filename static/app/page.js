// What every part of the public pages' script shares: what the page sends as data (read once by
// static/app.js), the parts started before each other, and small DOM and storage helpers.

/**
 * What the page hands its script (static/app.js reads it once and gives it to every part).
 * @typedef {object} Page
 * @property {Document} doc
 * @property {string} SITE Where the site lives: "" at the root, "/fete" under a base path.
 * @property {string} PAGES Where this language's pages live: SITE, plus "/en" in the other language.
 * @property {Window["finderMsg"]} msg The page's words (static/messages.js).
 * @property {string} SESSION_KEY The anonymous session id's storage key, from the server.
 * @property {string} MAP_APP_KEY
 * @property {string} FILTER_STORAGE_KEY The filters' storage key, from the filters form.
 * @property {string[]} FILTER_PARAMS The filter parameters, from the filters form.
 * @property {number} SHARE_STATUS_MS
 * @property {HTMLDetailsElement | null} mapCard The homepage's map card, when the page has one.
 * @property {boolean} signedIn Whether the header shows a signed-in visitor (set by the sign-in part).
 */

/**
 * The parts started so far, each with what it gives the later ones (see static/app.js).
 * @typedef {object} Parts
 * @property {ReturnType<typeof import("./tracking.js").startTracking>} [tracking]
 * @property {ReturnType<typeof import("./filters.js").startFilters>} [filters]
 * @property {ReturnType<typeof import("./modal.js").startModal>} [modal]
 * @property {ReturnType<typeof import("./clock.js").startClock>} [clock]
 * @property {ReturnType<typeof import("./map-card.js").startMapCard>} [map]
 */

/**
 * The first element matching `selector` in `root` (the document by default).
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {any}
 */
export function $(selector, root) {
  return (root || document).querySelector(selector);
}

/**
 * Every element matching `selector` in `root` (the document by default), as an array.
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {any[]}
 */
export function $all(selector, root) {
  return Array.prototype.slice.call((root || document).querySelectorAll(selector));
}

/**
 * A stored value, or null when storage is refused (private mode).
 * @param {string} key
 * @returns {string | null}
 */
export function storageGet(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

/**
 * Stores a value when storage is allowed.
 * @param {string} key
 * @param {string} value
 */
export function storageSet(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (e) {
    /* private mode: state lives in the URL only */
  }
}
