// The canonical queries of the filter states one tap away from the current one (the quick chips,
// the removable chips, the map's area list), worked out once per filter state without its search
// text: a new search (nearly every results request the homepage has not seen) then only adds its
// `q`. See docs/public-pages.md, "Render cache".

import { canonicalFilterQuery, FILTER_PARAMS, type EventFilters } from "./filter-query.ts";
import { formEncoded } from "../http/forms.ts";

/**
 * A canonical filter query with the search text added. `q` is the last filter parameter (the
 * FILTER_PARAMS order), so the canonical query of filters with a search is that of the same
 * filters without it, then `q` written as filtersToSearchParams writes it.
 */
export function withSearch(query: string, q: string): string {
  return joined(query, searchParam(q));
}

// The `q` parameter of a search text ("" for none). A render asks for the same one for each of
// its links: the last one is kept.
function searchParam(q: string): string {
  if (q !== lastSearch.q) {
    const text = FILTER_PARAMS.q.serialise(q);
    lastSearch = { q, param: text === undefined ? "" : `${FILTER_PARAMS.q.name}=${formEncoded(text)}` };
  }
  return lastSearch.param;
}
let lastSearch = { q: "", param: "" };

function joined(query: string, param: string): string {
  if (!param) return query;
  return query ? `${query}&${param}` : param;
}

/** The canonical filter query of filters without their search text. */
export function queryWithoutSearch(filters: EventFilters): string {
  return canonicalFilterQuery({ ...filters, q: "" });
}

/** Some filter groups of a state changed (never the search text, which the links keep). */
export type FilterChange = Partial<Omit<EventFilters, "q">>;

/**
 * The canonical queries of `filters` with some groups changed: `next(change)` is
 * canonicalFilterQuery({ ...filters, ...change }). Each group is written on its own (the two
 * dates together), so when the change sets whole groups that query follows from the query of
 * `filters` without their search and the change: it is kept by those two (a bounded memo), and
 * the search added to it.
 * `searchless` is queryWithoutSearch(filters) when the caller has it already.
 */
export function nextFilterQueries(filters: EventFilters, searchless = queryWithoutSearch(filters)): (change: FilterChange) => string {
  let kept = NEXT_QUERIES.get(searchless);
  if (kept === undefined) {
    if (NEXT_QUERIES.size >= MAX_FILTER_STATES) NEXT_QUERIES.clear();
    NEXT_QUERIES.set(searchless, (kept = new Map()));
  }
  const search = searchParam(filters.q);
  return (change) => {
    // The two dates are written together (in order): a change of one alone depends on the other
    // as given, not only on the query, so it is worked out in full.
    if ("dateFrom" in change !== "dateTo" in change) return canonicalFilterQuery({ ...filters, ...change });
    const key = JSON.stringify(change);
    let query = kept.get(key);
    if (query === undefined) kept.set(key, (query = queryWithoutSearch({ ...filters, ...change })));
    return joined(query, search);
  };
}

// By the query of a filter state without its search, then by change (the few dozen links of a
// page: the chips, the festival days, the 20 areas).
const NEXT_QUERIES = new Map<string, Map<string, string>>();
/** A few hundred filter states in practice; the memo is emptied past this. */
const MAX_FILTER_STATES = 2_000;
