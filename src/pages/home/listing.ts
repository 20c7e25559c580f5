// The homepage's reading of the live events (see docs/public-pages.md, "Homepage"): filter state
// from the form, the spotlight pick with its daily seeded shuffle, the stats row and the
// countdown. Pure functions: the page route feeds them one live read and one clock reading.

import { formatDateRangeLabel, isValidIsoDate } from "../../lib/sheet/dates.ts";
import { canonicalFilterQuery, hasSearch, isFilterActive, parseFilters, type EventFilters } from "../../lib/events/filter-query.ts";
import { queryWithoutSearch, withSearch } from "../../lib/events/filter-links.ts";
import { filterEvents, quickDates, searchSuggestion, type SearchSuggestion } from "../../lib/events/filter-match.ts";
import { EVENT_PARAM, SLUG_PARAM } from "../../lib/links.ts";
import { parisDate, parisInstant } from "../../lib/paris-time.ts";
import { eventSpan, hasEnded, isFestivalOn, isTodayAndOpen, momentOf, MOMENT_PARAM, runsAt, splitFinished, type Moment } from "../../lib/events/filter-moment.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { t } from "../../lib/i18n/index.ts";
import { isActiveSpotlight } from "../../lib/events/active-placements.ts";
import { cancelledLast, orderForMoment } from "../../lib/events/event-status.ts";
import { memoisedPerObject } from "../../lib/memo/memo.ts";
import type { FestivalWindow } from "../../lib/events/festival-window.ts";

/** Cards in the spotlight section. */
export const SPOTLIGHT_CARD_COUNT = 3;
/** Cards per page of the list ("Show more" loads the next page). */
export const PAGE_SIZE = 25;
/** The page parameter of the list: `p=2` is cards 31–60. */
export const PAGE_PARAM = "p";
/** Highest page number read from a URL (2,000 events are 67 pages). */
export const MAX_PAGE = 500;

/** The list page of a request: `p` as a whole number 2–500, else 1 (malformed values count as 1). */
export function pageOf(search: URLSearchParams): number {
  const raw = search.get(PAGE_PARAM);
  if (raw === null || !/^\d{1,3}$/.test(raw)) return 1;
  const page = Number(raw);
  return page >= 1 && page <= MAX_PAGE ? page : 1;
}

/** A canonical query with the page added (page 1 is the query itself). */
export function pagedQuery(query: string, page: number): string {
  if (page <= 1) return query;
  return query ? `${query}&${PAGE_PARAM}=${page}` : `${PAGE_PARAM}=${page}`;
}

// ---------------------------------------------------------------------------------------------
// Filter state from the GET form

// The form posts each slider end separately (a plain form cannot join them); the URL keeps `pr`/`ag`.
const RANGE_INPUTS: ReadonlyArray<[param: string, min: string, max: string]> = [
  ["pr", "pr_min", "pr_max"],
  ["ag", "ag_min", "ag_max"],
];

/**
 * The filter parameters of a homepage request: the URL's own, with the form's slider ends joined
 * into `pr`/`ag` when the joined parameter is absent. Non-filter parameters are dropped.
 */
export function filterParamsFromRequest(search: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of search) {
    if (name === EVENT_PARAM || name === SLUG_PARAM || name === PAGE_PARAM || name === MOMENT_PARAM || name === "map" || name === "near") continue;
    params.append(name, value);
  }
  for (const [param, minName, maxName] of RANGE_INPUTS) {
    const min = params.get(minName);
    const max = params.get(maxName);
    params.delete(minName);
    params.delete(maxName);
    if (!params.has(param) && min !== null && max !== null) params.set(param, `${min.trim()}:${max.trim()}`);
  }
  return params;
}

/** The filter state and moment of a homepage request and its canonical query (the cache-variant key). */
export function homeFiltersOf(search: URLSearchParams): { filters: EventFilters; moment: Moment | null; query: string } {
  const filters = parseFilters(filterParamsFromRequest(search));
  const moment = momentOf(search);
  return { filters, moment, query: homeQuery(filters, moment) };
}

/** The homepage's canonical query: the canonical filter query, then `when` when set. */
export function homeQuery(filters: EventFilters, moment: Moment | null): string {
  return withMoment(canonicalFilterQuery(filters), moment);
}

/**
 * The homepage's canonical query from its parts: the filter query without the search, the search,
 * then the moment (what homeQuery gives, without writing the filter groups again).
 */
export function queryOfParts(searchlessQuery: string, q: string, moment: Moment | null): string {
  return withMoment(withSearch(searchlessQuery, q), moment);
}

/** A canonical filter query with the moment added after it. */
export function withMoment(query: string, moment: Moment | null): string {
  if (!moment) return query;
  return query ? `${query}&${MOMENT_PARAM}=${moment}` : `${MOMENT_PARAM}=${moment}`;
}

// ---------------------------------------------------------------------------------------------
// Spotlight

/** A 32-bit hash of a string (FNV-1a), the seed of the daily shuffle. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// mulberry32: small, fast and the same in every JavaScript engine.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher–Yates shuffle driven by a string seed: the same seed gives the same order everywhere. */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  const out = [...items];
  // Nothing to shuffle (a search finding nothing, a list without picks): no seed to work out.
  if (out.length < 2) return out;
  const next = random(seedOf(seed));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The occurrence a paid spotlight shows while the festival is on: the paid row's occurrence of
 * today when its series has one, else its next one not yet ended, carrying the paid window (the
 * window is booked on one occurrence's key); null when every occurrence has ended.
 */
function spotlightOccurrence(paid: LiveEvent, all: readonly LiveEvent[], now: Date): LiveEvent | null {
  const series = paid.seriesKey === null ? [paid] : (seriesOf(all).get(paid.seriesKey) ?? []);
  const shown = series.find((event) => isTodayAndOpen(event, now)) ?? series.find((event) => !hasEnded(event, now) && eventSpan(event) !== null);
  if (!shown) return null;
  if (shown === paid) return paid;
  return withPaidWindow(shown, paid);
}

// The list's spotlight bookings (isActiveSpotlight is false without isFeatured; whether a window
// is still open is asked at each pick, to the millisecond) and its series by key, in list order:
// once per list, since a live read's list and its events are never changed once built.
const spotlightBookings = memoisedPerObject((all: readonly LiveEvent[]) => all.filter((event) => event.isFeatured));
const seriesOf = memoisedPerObject((all: readonly LiveEvent[]) => {
  const series = new Map<string, LiveEvent[]>();
  for (const event of all) {
    if (event.seriesKey === null) continue;
    const members = series.get(event.seriesKey);
    if (members) members.push(event);
    else series.set(event.seriesKey, [event]);
  }
  return series;
});

// An occurrence carrying its series' paid window: one object per pair of (unchanging) events, so
// the card kept for it (components/event-card.view.tsx) is found again on the next pick.
const PAID_COPIES = new WeakMap<LiveEvent, WeakMap<LiveEvent, LiveEvent>>();
function withPaidWindow(shown: LiveEvent, paid: LiveEvent): LiveEvent {
  let copies = PAID_COPIES.get(paid);
  if (!copies) PAID_COPIES.set(paid, (copies = new WeakMap()));
  let copy = copies.get(shown);
  if (!copy || copy.featuredAt !== paid.featuredAt || copy.featuredEndsAt !== paid.featuredEndsAt) {
    copies.set(shown, (copy = { ...shown, isFeatured: true, featuredAt: paid.featuredAt, featuredEndsAt: paid.featuredEndsAt }));
  }
  return copy;
}

/**
 * The spotlight cards: every active spotlight event first, whatever the filters; the
 * remaining places go to curated picks of the filtered list, then to other filtered events, each
 * group shuffled with the Paris date as seed. One card per event and per multi-day series.
 * While the festival is on the picks are only today's events not yet ended (a multi-day event by
 * its occurrence of today, the same reading as the list's "Finished" split), and a paid spotlight
 * shows its series' occurrence of today, else its next one, and nothing once all have ended.
 */
export function pickSpotlight(all: readonly LiveEvent[], matching: readonly LiveEvent[], now: Date, festivalOn = isFestivalOn(all, now), count = SPOTLIGHT_CARD_COUNT): LiveEvent[] {
  const seed = parisDate(now);
  const picked: LiveEvent[] = [];
  const seen = new Set<string>();
  const take = (event: LiveEvent | null) => {
    if (event === null || picked.length >= count) return;
    const id = event.seriesKey ?? event.eventKey;
    if (seen.has(id)) return;
    seen.add(id);
    picked.push(event);
  };
  for (const event of spotlightBookings(all)) if (isActiveSpotlight(event, now)) take(festivalOn ? spotlightOccurrence(event, all, now) : event);
  // A cancelled event is never picked for the spotlight (a paid one above keeps its place, marked).
  const pool = (festivalOn ? matching.filter((event) => isTodayAndOpen(event, now)) : matching).filter((event) => event.status !== "cancelled");
  const curated = pool.filter((event) => event.curated);
  const others = pool.filter((event) => !event.curated);
  for (const event of seededShuffle(curated, `${seed}:curated`)) take(event);
  for (const event of seededShuffle(others, `${seed}:other`)) take(event);
  return picked;
}

// ---------------------------------------------------------------------------------------------
// Stats row

export interface HomeStats {
  count: number;
  /** "total" when nothing narrows the list, else "filtered". */
  countLabel: "total" | "filtered";
  /** Distinct known arrondissements. */
  areaCount: number;
  /** Distinct valid dates. */
  dateCount: number;
  /** "19–22 juin", one date, or "à confirmer" / "TBC" when no event has a date (current language). */
  dateRangeLabel: string;
}

/** The stats row over the listed events. */
export function homeStats(matching: readonly LiveEvent[], narrowed: boolean): HomeStats {
  const areas = new Set<number>();
  const dates = new Set<string>();
  for (const event of matching) {
    if (typeof event.arrondissement === "number") areas.add(event.arrondissement);
    if (isValidIsoDate(event.date)) dates.add(event.date);
  }
  const sorted = [...dates].sort();
  return {
    count: matching.length,
    countLabel: narrowed ? "filtered" : "total",
    areaCount: areas.size,
    dateCount: dates.size,
    dateRangeLabel: sorted.length === 0 ? t("common.tbc") : formatDateRangeLabel(sorted[0], sorted[sorted.length - 1]),
  };
}

/** The one JSON-in-script escaper (lib/http/script-json.ts), as the home page has always imported it from here. */
export { scriptJson } from "../../lib/http/script-json.ts";

// ---------------------------------------------------------------------------------------------
// Countdown

/**
 * The day the header counts down to, as MM-DD of the current Paris year (Fête de la Musique). The
 * page hands it to static/app.js as data-countdown, so the script keeps no copy of its own.
 */
/** The header countdown at an instant: days and hours before the night Paris time, "today", or over. */
export type CountdownState = { kind: "before"; days: number; hours: number; minutes: number } | { kind: "today" } | { kind: "after" };

/** Countdown to the night (YYYY-MM-DD, the current edition's) at 00:00 Paris time. */
export function countdownAt(now: Date, night: string): CountdownState {
  const today = parisDate(now);
  const target = night;
  if (today === target) return { kind: "today" };
  if (today > target) return { kind: "after" };
  const ms = parisInstant(target).getTime() - now.getTime();
  const minutesLeft = Math.max(0, Math.floor(ms / 60_000));
  return { kind: "before", days: Math.floor(minutesLeft / 1440), hours: Math.floor((minutesLeft % 1440) / 60), minutes: minutesLeft % 60 };
}

// ---------------------------------------------------------------------------------------------
// The whole homepage reading

/** Everything the homepage shows for one live read and one filter state. */
export interface HomeListing {
  filters: EventFilters;
  query: string;
  /** The canonical filter query without the search text (the links to nearby filter states start from it). */
  searchlessQuery: string;
  /** Search or any filter active: the count reads "N found". */
  narrowed: boolean;
  totalCount: number;
  matching: LiveEvent[];
  /** "Happening now" or "Tonight", when chosen. */
  moment: Moment | null;
  /** "Did you mean": a respelt search finding more events, with its homepage query; null when none. */
  suggestion: (SearchSuggestion & { query: string }) | null;
  /** Index in `matching` of the first ended event during the festival (the "Finished" divider), else null. */
  finishedFrom: number | null;
  /** The list page shown (1-based) and the events on it. */
  page: number;
  pageCount: number;
  shown: LiveEvent[];
  spotlight: LiveEvent[];
  stats: HomeStats;
  /** Whether the festival is on now, and its days (the busiest four listed dates, in order). */
  /** Whether the festival is on, its listed days, and the current edition's window (when the caller knows it). */
  festival: { on: boolean; days: readonly string[]; window: FestivalWindow | null };
}

/**
 * Filters the live events (kept in homepage order) and derives the spotlight and the stats.
 * `searchlessQuery` is the filters' canonical query without the search, when the caller has read it.
 */
export function homeListing(
  events: readonly LiveEvent[],
  filters: EventFilters,
  now: Date,
  page = 1,
  moment: Moment | null = null,
  searchlessQuery = queryWithoutSearch(filters),
  window: FestivalWindow | null = null,
): HomeListing {
  let matching = filterEvents(events, filters, now);
  const keep = moment ? (event: LiveEvent) => runsAt(event, moment, now) : undefined;
  // "Happening now" ends soonest first, "Tonight" starts first; the default list keeps its order.
  if (keep && moment) matching = orderForMoment(matching.filter(keep), moment);
  const suggestion = searchSuggestion(events, filters, matching.length, now, keep);
  // During the festival, what has ended moves below a "Finished" divider (order kept on each side).
  // Cancelled events stay findable, at the end of their group.
  let finishedFrom: number | null = null;
  const festivalOn = isFestivalOn(events, now);
  if (festivalOn) {
    const { open, finished } = splitFinished(matching, now);
    if (finished.length > 0) {
      matching = [...cancelledLast(open), ...cancelledLast(finished)];
      finishedFrom = open.length;
    } else matching = cancelledLast(matching);
  } else matching = cancelledLast(matching);
  const narrowed = isFilterActive(filters) || hasSearch(filters) || moment !== null;
  return {
    filters,
    query: queryOfParts(searchlessQuery, filters.q, moment),
    searchlessQuery,
    narrowed,
    totalCount: events.length,
    matching,
    moment,
    suggestion: suggestion ? { ...suggestion, query: homeQuery({ ...filters, q: suggestion.q }, moment) } : null,
    finishedFrom,
    page,
    pageCount: Math.max(1, Math.ceil(matching.length / PAGE_SIZE)),
    shown: matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    spotlight: pickSpotlight(events, matching, now, festivalOn),
    festival: { on: festivalOn, days: quickDates(events), window },
    stats: homeStats(matching, narrowed),
  };
}
