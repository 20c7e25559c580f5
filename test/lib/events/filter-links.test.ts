// Links to nearby filter states (lib/events/filter-links.ts): worked out once per filter state
// without its search, then the search added; always the canonical query of the changed state.

import { describe, expect, test } from "bun:test";
import { canonicalFilterQuery, emptyFilters, parseFilters, type EventFilters } from "../../../src/lib/events/filter-query.ts";
import { nextFilterQueries, queryWithoutSearch, withSearch, type FilterChange } from "../../../src/lib/events/filter-links.ts";

const STATES = [
  "",
  "g=house",
  "g=house&q=venue m12",
  "q=caf%C3%A9 & bar=1+2",
  "df=2026-06-22&dt=2026-06-20&dn=night&arr=11,3&g=house,jazz&nat=fr&vt=outdoor&in=indoor&pick=1&pr=0:0&ag=18:21&q=Ã©t%C3%A9%20%20nuit",
  "df=2026-06-21&dt=2026-06-21&pr=5:20",
  "df=2026-06-22&dt=2026-06-20",
  "df=2026-06-20&dt=2026-06-22",
  "arr=unknown&q=" + "x".repeat(250),
];

const CHANGES: FilterChange[] = [
  {},
  { priceRange: { min: 0, max: 0 } },
  { priceRange: null },
  { dateFrom: "2026-06-21", dateTo: "2026-06-21" },
  { dateFrom: null, dateTo: null },
  { arrondissements: [5] },
  { arrondissements: [20] },
  { genres: [] },
  // One date alone: its order with the other date as given decides the query.
  { dateFrom: "2026-06-23" },
  { dateTo: "2026-06-19" },
];

function filtersOf(query: string): EventFilters {
  return parseFilters(new URLSearchParams(query));
}

describe("links to nearby filter states", () => {
  test.each(STATES)("the search added to the searchless query is the canonical query (%p)", (state) => {
    const filters = filtersOf(state);
    expect(withSearch(queryWithoutSearch(filters), filters.q)).toBe(canonicalFilterQuery(filters));
  });

  test("a search text is written as the canonical query writes it, untrimmed input included", () => {
    for (const q of ["  two   words ", "a&b=c", "é+ü", "", "   "]) {
      expect(withSearch("g=house", q)).toBe(canonicalFilterQuery({ ...emptyFilters(), genres: ["house"], q }));
      expect(withSearch("", q)).toBe(canonicalFilterQuery({ ...emptyFilters(), q }));
    }
  });

  test("each changed state is the canonical query of that state, whatever search came first for the same filters", () => {
    // The same filters are asked with several searches in turn: a link kept from one search never
    // carries it into another.
    for (const state of STATES) {
      for (const q of ["", "first words", "second & last"]) {
        const filters = { ...filtersOf(state), q };
        const next = nextFilterQueries(filters);
        for (const change of CHANGES) expect(next(change)).toBe(canonicalFilterQuery({ ...filters, ...change }));
        const given = nextFilterQueries(filters, queryWithoutSearch(filters));
        for (const change of CHANGES) expect(given(change)).toBe(canonicalFilterQuery({ ...filters, ...change }));
      }
    }
  });

  test("filters not read from a URL: dates out of order or invalid give the same query, not the same changed one", () => {
    const states: EventFilters[] = [
      { ...emptyFilters(), dateFrom: "2026-06-20", dateTo: "2026-06-22" },
      { ...emptyFilters(), dateFrom: "2026-06-22", dateTo: "2026-06-20" },
      { ...emptyFilters(), dateFrom: "2026-06-20", dateTo: "not a date" },
      { ...emptyFilters(), dateFrom: "2026-06-20", dateTo: null },
    ];
    expect(new Set(states.slice(0, 2).map(queryWithoutSearch)).size).toBe(1);
    expect(new Set(states.slice(2).map(queryWithoutSearch)).size).toBe(1);
    for (const filters of states) {
      const next = nextFilterQueries(filters);
      for (const change of CHANGES) expect(next(change)).toBe(canonicalFilterQuery({ ...filters, ...change }));
    }
  });
});
