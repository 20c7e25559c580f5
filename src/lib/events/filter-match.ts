// Matching the live events against a filter state (the search included), and the facets, quick dates and
// saved-line ranking computed over a list of events.

import { arrondissementShortLabel, compareArrondissements } from "../sheet/arrondissement.ts";
import { isValidIsoDate } from "../sheet/dates.ts";
import { genreLabel } from "../sheet/genres.ts";
import { fold } from "../sheet/text.ts";
import { dayPeriodOf } from "../sheet/times.ts";
import type { Arrondissement, LiveEvent, NationalityCode } from "../sheet/types.ts";
import { activeRange, AGE_RANGE_BOUNDS, compareGenres, compareNationalities, GENRE_ORDER, normaliseSearchText, PRICE_RANGE_BOUNDS, type EventFilters } from "./filter-query.ts";

// ---------------------------------------------------------------------------------------------
// Matching

// Folded search text of each event, built once per event object (events are treated as immutable).
const haystacks = new WeakMap<LiveEvent, string>();

// "\n" separates fields: folded text never holds one, so a query cannot match across two fields.
function buildHaystack(event: LiveEvent): string {
  const parts: string[] = [event.eventName, event.location ?? "", event.description, event.date, event.day];
  const arr = event.arrondissement;
  parts.push(String(arr), arrondissementShortLabel(arr));
  for (const genre of event.genres) parts.push(genre, genreLabel(genre));
  parts.push(event.type, event.category ?? "");
  for (const tag of event.tags) parts.push(tag);
  for (const code of event.nationality) parts.push(code);
  let haystack = "";
  for (const part of parts) {
    const folded = fold(part);
    if (folded !== "") haystack += `${folded}\n`;
  }
  return haystack;
}

/** The folded search text of an event (the searched fields, see docs/filters-and-search.md, "Search"), cached per event object. */
export function searchHaystack(event: LiveEvent): string {
  let haystack = haystacks.get(event);
  if (haystack === undefined) {
    haystack = buildHaystack(event);
    haystacks.set(event, haystack);
  }
  return haystack;
}

/** A predicate for one filter state, with its sets and folded query prepared once. */
export type EventMatcher = (event: LiveEvent) => boolean;

/** Prepares the match for a filter state: AND across groups, the per-group rules, then the folded search. */
export function createEventMatcher(filters: EventFilters): EventMatcher {
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
  const query = fold(normaliseSearchText(filters.q));

  return (event) => {
    if (from !== null || to !== null) {
      // Undated events cannot lie inside any range.
      if (!isValidIsoDate(event.date)) return false;
      if (from !== null && event.date < from) return false;
      if (to !== null && event.date > to) return false;
    }
    if (periods.size > 0) {
      const period = dayPeriodOf(event.time, event.endTime);
      if (period === null || !periods.has(period)) return false;
    }
    if (arrondissements.size > 0 && !arrondissements.has(event.arrondissement)) return false;
    if (genres.size > 0 && !event.genres.some((genre) => genres.has(genre))) return false;
    if (nationalities.length > 0 && !nationalities.every((code) => event.nationality.includes(code))) return false;
    if (venueTypes.size > 0 && !event.venueTypes.some((type) => venueTypes.has(type))) return false;
    if (setting !== null && !event.venueTypes.includes(setting)) return false;
    if (curatedOnly && !event.curated) return false;
    if (price !== null) {
      const value = event.priceValue;
      if (value === null || value < price.min) return false;
      if (price.max < PRICE_RANGE_BOUNDS.max && value > price.max) return false;
    }
    if (age !== null) {
      const value = event.ageValue;
      if (value === null) return false;
      // "All ages" (0) counts as suitable for the youngest slider value only.
      const allAgesMatch = value === 0 && age.min === AGE_RANGE_BOUNDS.min;
      if (!allAgesMatch) {
        if (value < age.min) return false;
        if (age.max < AGE_RANGE_BOUNDS.max && value > age.max) return false;
      }
    }
    if (query !== "" && !searchHaystack(event).includes(query)) return false;
    return true;
  };
}

/** True when the event passes every active filter group and the search; use filterEvents for lists. */
export function matchesFilters(event: LiveEvent, filters: EventFilters): boolean {
  return createEventMatcher(filters)(event);
}

/** The events that match, in input order. */
export function filterEvents(events: readonly LiveEvent[], filters: EventFilters): LiveEvent[] {
  const matcher = createEventMatcher(filters);
  return events.filter((event) => matcher(event));
}

// ---------------------------------------------------------------------------------------------
// Facets, quick dates and the saved line

/** The 4 dates with the most events (ties to the earlier date), returned in date order. */
export function quickDates(events: readonly LiveEvent[], limit = 4): string[] {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (isValidIsoDate(event.date)) counts.set(event.date, (counts.get(event.date) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([date]) => date)
    .sort();
}

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

/** A card shows the saved line only from this many saves… */
export const SAVED_LINE_MIN_COUNT = 3;
/** …and only for this many events of the filtered list. */
export const SAVED_LINE_TOP_N = 8;

/**
 * Keys of the cards that show "X people saved this": X (calendarSyncCount) ≥ 3 and among the top 8
 * of the filtered list by X, ties by name then key.
 */
export function topSavedKeys(filteredEvents: readonly LiveEvent[]): Set<string> {
  const ranked = filteredEvents
    .filter((event) => event.calendarSyncCount >= SAVED_LINE_MIN_COUNT)
    .sort(
      (a, b) =>
        b.calendarSyncCount - a.calendarSyncCount ||
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
