// What a change of the filters form means for tracking (docs/filters-and-search.md, "What the
// filter panel tracks"): each value switched on is a filter_apply, each switched off a
// filter_clear. Nothing here touches the page, so it is unit-tested (test/static/app/filter-changes.test.ts).

/**
 * The filters form's state as tracking names it: the list groups' checked values, the date range
 * and setting (null when unset), and the pick.
 * @typedef {object} FilterState
 * @property {string | null} date_range "2026-06-20:any" (from, to; "any" for an open end)
 * @property {string[]} day_night
 * @property {string[]} arrondissement
 * @property {string[]} genre
 * @property {string[]} nationality
 * @property {string[]} venue_type
 * @property {string | null} venue_setting
 * @property {boolean} oooc_pick
 */

/** @typedef {{ action: "filter_apply" | "filter_clear", group: string, value: string }} FilterChange */

var LIST_GROUPS = /** @type {const} */ (["day_night", "arrondissement", "genre", "nationality", "venue_type"]);
var SINGLE_GROUPS = /** @type {const} */ (["date_range", "venue_setting"]);

/**
 * The filters switched on and off between two states, group by group (each list group's new values,
 * then its dropped ones), in the order they are tracked.
 * @param {FilterState} before
 * @param {FilterState} after
 * @returns {FilterChange[]}
 */
export function filterChanges(before, after) {
  /** @type {FilterChange[]} */
  var changes = [];
  LIST_GROUPS.forEach(function (group) {
    after[group].forEach(function (value) {
      if (before[group].indexOf(value) < 0) changes.push({ action: "filter_apply", group: group, value: value });
    });
    before[group].forEach(function (value) {
      if (after[group].indexOf(value) < 0) changes.push({ action: "filter_clear", group: group, value: value });
    });
  });
  SINGLE_GROUPS.forEach(function (group) {
    if (before[group] === after[group]) return;
    var now = after[group];
    var was = before[group];
    if (now) changes.push({ action: "filter_apply", group: group, value: now });
    else changes.push({ action: "filter_clear", group: group, value: /** @type {string} */ (was) });
  });
  if (before.oooc_pick !== after.oooc_pick) changes.push({ action: after.oooc_pick ? "filter_apply" : "filter_clear", group: "oooc_pick", value: "yes" });
  return changes;
}

/**
 * The filter part of a query string: only the parameters the server names as filters (the
 * filters form's data-filter-params), in their order there.
 * @param {string} searchString "?event=…&g=house"
 * @param {readonly string[]} filterParams
 * @returns {string}
 */
export function filterQuery(searchString, filterParams) {
  var params = new URLSearchParams(searchString);
  var out = new URLSearchParams();
  params.forEach(function (value, name) {
    if (filterParams.indexOf(name) >= 0) out.append(name, value);
  });
  return out.toString();
}
