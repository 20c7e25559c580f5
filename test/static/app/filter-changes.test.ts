// What a change of the filters form tracks (static/app/filter-changes.js): each value switched on
// is a filter_apply, each switched off a filter_clear, in the order the page sends them.

import { describe, expect, test } from "bun:test";
import { filterChanges, filterQuery } from "../../../static/app/filter-changes.js";

const empty = { date_range: null, day_night: [], arrondissement: [], genre: [], nationality: [], venue_type: [], venue_setting: null, oooc_pick: false };

describe("filter changes", () => {
  test("no change tracks nothing", () => {
    expect(filterChanges(empty, { ...empty })).toEqual([]);
  });
  test("values switched on and off, group by group, applies before clears", () => {
    const before = { ...empty, genre: ["house", "jazz"], arrondissement: ["3"] };
    const after = { ...empty, genre: ["jazz", "rock"], arrondissement: ["3", "11"], day_night: ["night"] };
    expect(filterChanges(before, after)).toEqual([
      { action: "filter_apply", group: "day_night", value: "night" },
      { action: "filter_apply", group: "arrondissement", value: "11" },
      { action: "filter_apply", group: "genre", value: "rock" },
      { action: "filter_clear", group: "genre", value: "house" },
    ]);
  });
  test("the date range and the setting: a new value applies, none clears the old one", () => {
    expect(filterChanges(empty, { ...empty, date_range: "2026-06-21:any", venue_setting: "outdoor" })).toEqual([
      { action: "filter_apply", group: "date_range", value: "2026-06-21:any" },
      { action: "filter_apply", group: "venue_setting", value: "outdoor" },
    ]);
    expect(filterChanges({ ...empty, date_range: "any:2026-06-22" }, empty)).toEqual([{ action: "filter_clear", group: "date_range", value: "any:2026-06-22" }]);
  });
  test("the pick is on or off as yes", () => {
    expect(filterChanges(empty, { ...empty, oooc_pick: true })).toEqual([{ action: "filter_apply", group: "oooc_pick", value: "yes" }]);
    expect(filterChanges({ ...empty, oooc_pick: true }, empty)).toEqual([{ action: "filter_clear", group: "oooc_pick", value: "yes" }]);
  });
});

describe("the filter part of a query", () => {
  test("only the parameters the server names, repeated ones kept, in the address's order", () => {
    expect(filterQuery("?event=evt_1&slug=x&g=house&q=jazz+club&g=rock", ["g", "q"])).toBe("g=house&q=jazz+club&g=rock");
    expect(filterQuery("", ["g"])).toBe("");
    expect(filterQuery("?map=data", [])).toBe("");
  });
});
