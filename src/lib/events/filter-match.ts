// Matching the live events against a filter state (the search included), and the facets, quick dates and
// saved-line ranking computed over a list of events.

import { compareArrondissements } from "../sheet/arrondissement.ts";
import { isValidIsoDate } from "../sheet/dates.ts";
import { fold } from "../sheet/text.ts";
import { memoisedPerObject } from "../memo/memo.ts";
import { dayPeriodOf } from "../sheet/times.ts";
import type { Arrondissement, LiveEvent, NationalityCode } from "../sheet/types.ts";
import { activeRange, AGE_RANGE_BOUNDS, compareGenres, compareNationalities, GENRE_ORDER, normaliseSearchText, PRICE_RANGE_BOUNDS, type EventFilters } from "./filter-query.ts";
import { createSearchMatcher, prepareSearch, searchCandidates, searchIndexOf, suggestQuery, type MatchTier, type SearchEntry, type SearchIndex } from "./search.ts";

// ---------------------------------------------------------------------------------------------
// Matching

/** A predicate for one filter state: null when the event does not match, else the search tier (0 exact, 1 folded, 2 by typo; 0 without a search). */
export type EventMatcher = (event: LiveEvent, entry?: SearchEntry) => MatchTier | null;

/**
 * Prepares the match for a filter state: AND across groups, the per-group rules, then the search
 * (see search.ts). `now` is the clock reading for the chip words of the search ("ce soir"); `index`
 * is the list's search index (the typo words are then looked up once in its vocabulary).
 */
export function createEventMatcher(filters: EventFilters, now: Date = new Date(), index?: SearchIndex): EventMatcher {
  let from = filters.dateFrom && isValidIsoDate(filters.dateFrom) ? filters.dateFrom : null;
  let to = filters.dateTo && isValidIsoDate(filters.dateTo) ? filters.dateTo : null;
  if (from !== null && to !== null && from > to) [from, to] = [to, from];
  const periods = new Set(filters.dayNight);
  const arrondissements = new Set(filters.arrondissements);
  const genres = new Set(filters.genres);
  const nationalities = [...new Set(filters.nationalities)];
  const venueTypes = new Set(filters.venueTypes);
  const setting = filters.venueSetting;
  const curatedOnly = filters.curatedOnly;
  const price = activeRange(filters.priceRange, PRICE_RANGE_BOUNDS);
  const age = activeRange(filters.ageRange, AGE_RANGE_BOUNDS);
  const search = prepareSearch(normaliseSearchText(filters.q));
  const searchMatch = search ? createSearchMatcher(search, now, index) : null;

  return (event, entry) => {
    if (from !== null || to !== null) {
      // Undated events cannot lie inside any range.
      if (!isValidIsoDate(event.date)) return null;
      if (from !== null && event.date < from) return null;
      if (to !== null && event.date > to) return null;
    }
    if (periods.size > 0) {
      const period = dayPeriodOf(event.time, event.endTime);
      if (period === null || !periods.has(period)) return null;
    }
    if (arrondissements.size > 0 && !arrondissements.has(event.arrondissement)) return null;
    if (genres.size > 0 && !event.genres.some((genre) => genres.has(genre))) return null;
    if (nationalities.length > 0 && !nationalities.every((code) => event.nationality.includes(code))) return null;
    if (venueTypes.size > 0 && !event.venueTypes.some((type) => venueTypes.has(type))) return null;
    if (setting !== null && !event.venueTypes.includes(setting)) return null;
    if (curatedOnly && !event.curated) return null;
    if (price !== null) {
      const value = event.priceValue;
      if (value === null || value < price.min) return null;
      if (price.max < PRICE_RANGE_BOUNDS.max && value > price.max) return null;
    }
    if (age !== null) {
      const value = event.ageValue;
      if (value === null) return null;
      // "All ages" (0) counts as suitable for the youngest slider value only.
      const allAgesMatch = value === 0 && age.min === AGE_RANGE_BOUNDS.min;
      if (!allAgesMatch) {
        if (value < age.min) return null;
        if (age.max < AGE_RANGE_BOUNDS.max && value > age.max) return null;
      }
    }
    return searchMatch ? searchMatch(event, entry) : 0;
  };
}

/** True when the event passes every active filter group and the search; use filterEvents for lists. */
export function matchesFilters(event: LiveEvent, filters: EventFilters, now: Date = new Date()): boolean {
  return createEventMatcher(filters, now)(event) !== null;
}

/**
 * The events that match: with a search, exact matches first, then folded ones, then typo ones,
 * each group in input order; without one, in input order. What passes the filter groups is kept
 * per list object, so `events` must never change once filtered (a live read's list never does).
 */
export function filterEvents(events: readonly LiveEvent[], filters: EventFilters, now: Date = new Date()): LiveEvent[] {
  const passing = passingFilterGroups(events, filters);
  if (filters.q === "") return passing.map((i) => events[i]!);
  const search = prepareSearch(normaliseSearchText(filters.q));
  // Nothing searchable (only punctuation): the list as the filters make it.
  if (search === null) return passing.map((i) => events[i]!);
  // The list's search index is only built (once per list) when there is a search. The matcher
  // judges only the passing events the index leaves as candidates (search.ts, searchCandidates).
  const index = searchIndexOf(events);
  const matcher = createSearchMatcher(search, now, index);
  const tiers: LiveEvent[][] = [[], [], []];
  for (const i of searchCandidates(index, search, passing)) {
    const tier = matcher(events[i]!, index.entries[i]);
    if (tier !== null) tiers[tier]!.push(events[i]!);
  }
  return tiers[1]!.length === 0 && tiers[2]!.length === 0 ? tiers[0]! : tiers.flat();
}

/** Filter states whose passing events a list keeps (dropped all at once when full, as memo.ts does). */
const FILTER_STATES_KEPT = 200;

const passingByState = memoisedPerObject((_events: readonly LiveEvent[]) => new Map<string, readonly number[]>());

/**
 * The indexes of the events passing every filter group (the search aside), kept per list and
 * filter state: distinct searches mostly share their filters (none, or a genre), and testing the
 * groups on every event cost as much as the search itself. The groups never read the clock.
 */
function passingFilterGroups(events: readonly LiveEvent[], filters: EventFilters): readonly number[] {
  const kept = passingByState(events);
  const key = JSON.stringify({ ...filters, q: "" });
  let passing = kept.get(key);
  if (passing === undefined) {
    const matcher = createEventMatcher({ ...filters, q: "" });
    const found: number[] = [];
    for (let i = 0; i < events.length; i++) if (matcher(events[i]!) !== null) found.push(i);
    if (kept.size >= FILTER_STATES_KEPT) kept.clear();
    kept.set(key, (passing = found));
  }
  return passing;
}

/** A search finding fewer events than this offers "Did you mean" when a respelling finds more. */
export const FEW_RESULTS = 3;

/** "Did you mean": the respelt query and how many events it finds. */
export interface SearchSuggestion {
  q: string;
  count: number;
}

/**
 * The "Did you mean" of a search that found `found` events (fewer than FEW_RESULTS): a respelling
 * from the list's titles, venues, genres and arrondissement names (search.ts, suggestQuery) that
 * finds more events under the same filters (and `keep`, the homepage's moment), else null.
 */
export function searchSuggestion(events: readonly LiveEvent[], filters: EventFilters, found: number, now: Date, keep?: (event: LiveEvent) => boolean): SearchSuggestion | null {
  if (found >= FEW_RESULTS || filters.q === "") return null;
  const index = searchIndexOf(events);
  const q = suggestQuery(filters.q, index);
  if (q === null || fold(q) === fold(filters.q)) return null;
  // The events the respelling finds under the same filters (the index leaves the matcher only its candidates).
  const respelt = filterEvents(events, { ...filters, q }, now);
  const count = keep ? respelt.filter(keep).length : respelt.length;
  return count > found ? { q: normaliseSearchText(q), count } : null;
}

// ---------------------------------------------------------------------------------------------
// Facets, quick dates and the saved line

/** The 4 dates with the most events (ties to the earlier date), returned in date order; once per list. */
export const quickDates = memoisedPerObject((events: readonly LiveEvent[]): readonly string[] => datesByCount(events).slice(0, 4).sort());

// Every listed date, most events first (ties to the earlier date), once per list: every homepage
// render asks for the festival days, and a live read's list is never changed once built.
const datesByCount = memoisedPerObject((events: readonly LiveEvent[]): readonly string[] => {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (isValidIsoDate(event.date)) counts.set(event.date, (counts.get(event.date) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([date]) => date);
});

/** Filter toggles worth showing: the values present in the data. */
export interface FilterFacets {
  /** 1–20 ascending, then unknown. */
  arrondissements: Arrondissement[];
  /** Genre list order. */
  genres: string[];
  /** UK, FR, CA, NL order. */
  nationalities: NationalityCode[];
}

/** The arrondissements, genres and nationalities present in the events, in toggle order. */
export function filterFacets(events: readonly LiveEvent[]): FilterFacets {
  const arrondissements = new Set<Arrondissement>();
  const genres = new Set<string>();
  const nationalities = new Set<NationalityCode>();
  for (const event of events) {
    arrondissements.add(event.arrondissement);
    for (const genre of event.genres) if (GENRE_ORDER.has(genre)) genres.add(genre);
    for (const code of event.nationality) nationalities.add(code);
  }
  return {
    arrondissements: [...arrondissements].sort(compareArrondissements),
    genres: [...genres].sort(compareGenres),
    nationalities: [...nationalities].sort(compareNationalities),
  };
}

/** A card shows the saved line only from this many My-night saves… */
export const SAVED_LINE_MIN_COUNT = 3;
/** …and only for this many events of the filtered list. */
export const SAVED_LINE_TOP_N = 8;

/**
 * Keys of the cards that show "X people saved this": X (savedCount, the My-night saves) ≥ 3 and among the top 8
 * of the filtered list by X, ties by name then key.
 */
export function topSavedKeys(filteredEvents: readonly LiveEvent[]): Set<string> {
  const ranked = filteredEvents
    .filter((event) => event.savedCount >= SAVED_LINE_MIN_COUNT)
    .sort(
      (a, b) =>
        b.savedCount - a.savedCount ||
        compareText(fold(a.eventName), fold(b.eventName)) ||
        compareText(a.eventName, b.eventName) ||
        compareText(a.eventKey, b.eventKey),
    );
  return new Set(ranked.slice(0, SAVED_LINE_TOP_N).map((event) => event.eventKey));
}

// Plain code-unit order: the same on server and browser, unlike locale collation.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
