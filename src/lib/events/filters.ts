// Event filters and search (see docs/filters-and-search.md): URL parameters to filter state and
// back, matching, chips, facets and the saved line.

import { arrondissementShortLabel, compareArrondissements } from "./arrondissement.ts";
import { formatDateLabel, isValidIsoDate } from "./dates.ts";
import { GENRE_KEYS, genreLabel } from "./genres.ts";
import { nationalityDisplay } from "./nationality.ts";
import { fold } from "./text.ts";
import { dayPeriodOf } from "./times.ts";
import type { Arrondissement, LiveEvent, NationalityCode, VenueType } from "./types.ts";

/** The ten filter groups, as tracked in `filter_apply` / `filter_clear`. */
export type FilterGroup =
  | "date_range"
  | "day_night"
  | "arrondissement"
  | "genre"
  | "nationality"
  | "venue_type"
  | "venue_setting"
  | "oooc_pick"
  | "price_range"
  | "age_range";

/** The filter groups in panel and URL order. */
export const FILTER_GROUPS: readonly FilterGroup[] = [
  "date_range",
  "day_night",
  "arrondissement",
  "genre",
  "nationality",
  "venue_type",
  "venue_setting",
  "oooc_pick",
  "price_range",
  "age_range",
];

/** Day (start 06:00–21:59) or night (22:00–05:59). */
export type DayPeriod = "day" | "night";

/** An inclusive integer range picked on a slider. */
export interface FilterRange {
  min: number;
  max: number;
}

/** Price slider bounds in euros; the full range 0:150 is inactive and 150 means "no upper bound". */
export const PRICE_RANGE_BOUNDS: Readonly<FilterRange> = Object.freeze({ min: 0, max: 150 });
/** Age slider bounds; the full range 18:25 is inactive and 25 means "no upper bound". */
export const AGE_RANGE_BOUNDS: Readonly<FilterRange> = Object.freeze({ min: 18, max: 25 });
/** Range parameters are clamped to this span before they are checked against the slider bounds. */
export const RANGE_PARAM_CLAMP: Readonly<FilterRange> = Object.freeze({ min: 0, max: 500 });
/** Longest search text kept; longer input is truncated. */
export const MAX_SEARCH_LENGTH = 200;
/** Browser storage key holding the last filter state (the URL wins on load). */
export const FILTER_STORAGE_KEY = "finder:event-filters:v1";

/**
 * The filter state of the events list. Lists are de-duplicated and kept in canonical order
 * (see filtersToSearchParams); an empty list, null or false means the group is inactive.
 */
export interface EventFilters {
  /** `df`: ISO date, inclusive; never later than dateTo. */
  dateFrom: string | null;
  /** `dt`: ISO date, inclusive. */
  dateTo: string | null;
  /** `dn`: day and/or night. */
  dayNight: DayPeriod[];
  /** `arr`: 1–20 and/or "unknown". */
  arrondissements: Arrondissement[];
  /** `g`: genre keys. */
  genres: string[];
  /** `nat`: every selected code must be on the event. */
  nationalities: NationalityCode[];
  /** `vt`: any of these venue types. */
  venueTypes: VenueType[];
  /** `in`: one venue type, or null for all. */
  venueSetting: VenueType | null;
  /** `pick=1`: curated picks only. */
  curatedOnly: boolean;
  /** `pr`: null when inactive (0:150). */
  priceRange: FilterRange | null;
  /** `ag`: null when inactive (18:25). */
  ageRange: FilterRange | null;
  /** `q`: search text as typed, trimmed, whitespace collapsed, at most 200 characters; "" for none. */
  q: string;
}

/** Filter state with nothing selected. */
export function emptyFilters(): EventFilters {
  return {
    dateFrom: null,
    dateTo: null,
    dayNight: [],
    arrondissements: [],
    genres: [],
    nationalities: [],
    venueTypes: [],
    venueSetting: null,
    curatedOnly: false,
    priceRange: null,
    ageRange: null,
    q: "",
  };
}

// ---------------------------------------------------------------------------------------------
// Parsing

/** What parseFilters accepts: URL search params or a plain query object (e.g. Elysia's `query`). */
export type FilterParamsInput = URLSearchParams | Readonly<Record<string, string | undefined>>;

// Lists longer than this are cut before splitting: the full genre list is about 300 characters.
const MAX_PARAM_LENGTH = 1000;
const MAX_LIST_ITEMS = 64;
const DAY_PERIODS: readonly DayPeriod[] = ["day", "night"];
const VENUE_TYPES: readonly VenueType[] = ["indoor", "outdoor"];
const NATIONALITY_CODES: readonly NationalityCode[] = ["UK", "FR", "CA", "NL"];
const NATIONALITY_BY_TOKEN: ReadonlyMap<string, NationalityCode> = new Map([
  ["uk", "UK"],
  ["gb", "UK"],
  ["fr", "FR"],
  ["ca", "CA"],
  ["nl", "NL"],
]);
const TRUE_WORDS: ReadonlySet<string> = new Set(["1", "true", "yes"]);
const GENRE_BY_FOLDED: ReadonlyMap<string, string> = new Map(GENRE_KEYS.map((key) => [fold(key), key]));
const GENRE_ORDER: ReadonlyMap<string, number> = new Map(GENRE_KEYS.map((key, i) => [key, i]));
const TWO_DIGITS = /^\d{1,2}$/;
const RANGE_PARAM = /^\s*(-?\d{1,12})\s*:\s*(-?\d{1,12})\s*$/;
const PLUS = /\+/g;
const WHITESPACE_RUN = /\s+/g;

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

// Every value given for a parameter, each capped; tolerates arrays and junk at run time.
function readAll(params: unknown, name: string): string[] {
  if (params === null || typeof params !== "object") return [];
  let raw: unknown;
  if (params instanceof URLSearchParams) raw = params.getAll(name);
  else raw = hasOwn(params, name) ? (params as Record<string, unknown>)[name] : undefined;
  const values = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const value of values) {
    if (typeof value === "string") out.push(value.length > MAX_PARAM_LENGTH ? value.slice(0, MAX_PARAM_LENGTH) : value);
    else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
    if (out.length >= MAX_LIST_ITEMS) break;
  }
  return out;
}

function readFirst(params: unknown, name: string): string | undefined {
  return readAll(params, name)[0];
}

// Comma list items (repeated parameters are accepted too), trimmed, non-empty, bounded in number.
function readList(params: unknown, name: string): string[] {
  const items: string[] = [];
  for (const value of readAll(params, name)) {
    for (const part of value.split(",")) {
      const item = part.trim();
      if (item !== "") items.push(item);
      if (items.length >= MAX_LIST_ITEMS) return items;
    }
  }
  return items;
}

function parseArrondissementValue(item: string): Arrondissement | null {
  const text = item.toLowerCase();
  if (text === "unknown") return "unknown";
  if (!TWO_DIGITS.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 20 ? n : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// A genre key from a URL value: exact (case- and accent-insensitive), else percent-decoded, else "+" as space.
function parseGenreValue(item: string): string | null {
  const direct = GENRE_BY_FOLDED.get(fold(item));
  if (direct !== undefined) return direct;
  if (item.includes("%")) {
    const decoded = GENRE_BY_FOLDED.get(fold(safeDecode(item)));
    if (decoded !== undefined) return decoded;
  }
  if (item.includes("+")) return GENRE_BY_FOLDED.get(fold(item.replace(PLUS, " "))) ?? null;
  return null;
}

// Keeps valid values once, in the canonical order given by `compare`.
function canonicalList<T>(items: readonly string[], parse: (item: string) => T | null, compare: (a: T, b: T) => number): T[] {
  const seen = new Set<T>();
  for (const item of items) {
    const value = parse(item);
    if (value !== null) seen.add(value);
  }
  return [...seen].sort(compare);
}

function orderIn<T>(order: readonly T[]): (a: T, b: T) => number {
  return (a, b) => order.indexOf(a) - order.indexOf(b);
}
const compareDayPeriods = orderIn(DAY_PERIODS);
const compareVenueTypes = orderIn(VENUE_TYPES);
const compareNationalities = orderIn(NATIONALITY_CODES);
function compareGenres(a: string, b: string): number {
  return (GENRE_ORDER.get(a) ?? 0) - (GENRE_ORDER.get(b) ?? 0);
}

function clamp(n: number, range: FilterRange): number {
  return Math.min(range.max, Math.max(range.min, n));
}

// `min:max` integers, clamped to 0–500, then kept only inside the slider bounds with min ≤ max; the full span is inactive.
function parseRange(value: string | undefined, bounds: FilterRange): FilterRange | null {
  if (value === undefined) return null;
  const match = RANGE_PARAM.exec(value);
  if (!match) return null;
  const min = clamp(Number(match[1]), RANGE_PARAM_CLAMP);
  const max = clamp(Number(match[2]), RANGE_PARAM_CLAMP);
  if (min < bounds.min || max > bounds.max || min > max) return null;
  if (min === bounds.min && max === bounds.max) return null;
  return { min, max };
}

function parseIsoDate(value: string | undefined): string | null {
  const text = value?.trim();
  return text && isValidIsoDate(text) ? text : null;
}

/** Search text as kept in the filter state: whitespace collapsed, trimmed, cut to 200 characters. */
export function normaliseSearchText(raw: string | null | undefined): string {
  if (typeof raw !== "string") return "";
  let text = raw.replace(WHITESPACE_RUN, " ").trim();
  if (text.length > MAX_SEARCH_LENGTH) {
    text = text.slice(0, MAX_SEARCH_LENGTH);
    // Never leave half of a surrogate pair at the cut.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
    text = text.trimEnd();
  }
  return text;
}

/**
 * Reads the filter state from URL parameters. Unknown or malformed values are ignored, ranges are
 * clamped then validated, df > dt is swapped; never throws.
 */
export function parseFilters(params: FilterParamsInput | null | undefined): EventFilters {
  const filters = emptyFilters();
  if (params === null || typeof params !== "object") return filters;

  let from = parseIsoDate(readFirst(params, "df"));
  let to = parseIsoDate(readFirst(params, "dt"));
  if (from !== null && to !== null && from > to) [from, to] = [to, from];
  filters.dateFrom = from;
  filters.dateTo = to;

  filters.dayNight = canonicalList(readList(params, "dn"), (item) => oneOf(item, DAY_PERIODS), compareDayPeriods);
  filters.arrondissements = canonicalList(readList(params, "arr"), parseArrondissementValue, compareArrondissements);
  filters.genres = canonicalList(readList(params, "g"), parseGenreValue, compareGenres);
  filters.nationalities = canonicalList(
    readList(params, "nat"),
    (item) => NATIONALITY_BY_TOKEN.get(item.toLowerCase()) ?? null,
    compareNationalities,
  );
  filters.venueTypes = canonicalList(readList(params, "vt"), (item) => oneOf(item, VENUE_TYPES), compareVenueTypes);
  filters.venueSetting = oneOf((readFirst(params, "in") ?? "").trim(), VENUE_TYPES);
  filters.curatedOnly = TRUE_WORDS.has((readFirst(params, "pick") ?? "").trim().toLowerCase());
  filters.priceRange = parseRange(readFirst(params, "pr"), PRICE_RANGE_BOUNDS);
  filters.ageRange = parseRange(readFirst(params, "ag"), AGE_RANGE_BOUNDS);
  filters.q = normaliseSearchText(readFirst(params, "q"));
  return filters;
}

function oneOf<T extends string>(item: string, allowed: readonly T[]): T | null {
  const text = item.toLowerCase() as T;
  return allowed.includes(text) ? text : null;
}

// ---------------------------------------------------------------------------------------------
// Canonical parameters, activity and chips

/**
 * Canonical URL parameters of a filter state: fixed parameter order (df dt dn arr g nat vt in pick pr ag q),
 * list values de-duplicated in their fixed order, inactive groups omitted. `toString()` is the cache-variant key.
 */
export function filtersToSearchParams(filters: EventFilters): URLSearchParams {
  const params = new URLSearchParams();
  let from = filters.dateFrom && isValidIsoDate(filters.dateFrom) ? filters.dateFrom : null;
  let to = filters.dateTo && isValidIsoDate(filters.dateTo) ? filters.dateTo : null;
  if (from !== null && to !== null && from > to) [from, to] = [to, from];
  if (from !== null) params.set("df", from);
  if (to !== null) params.set("dt", to);
  setList(params, "dn", canonicalList(filters.dayNight, (v) => oneOf(v, DAY_PERIODS), compareDayPeriods));
  setList(
    params,
    "arr",
    canonicalList(filters.arrondissements.map(String), parseArrondissementValue, compareArrondissements).map(String),
  );
  setList(params, "g", canonicalList(filters.genres, parseGenreValue, compareGenres));
  setList(params, "nat", canonicalList(filters.nationalities, (v) => NATIONALITY_BY_TOKEN.get(v.toLowerCase()) ?? null, compareNationalities));
  setList(params, "vt", canonicalList(filters.venueTypes, (v) => oneOf(v, VENUE_TYPES), compareVenueTypes));
  if (filters.venueSetting !== null && VENUE_TYPES.includes(filters.venueSetting)) params.set("in", filters.venueSetting);
  if (filters.curatedOnly) params.set("pick", "1");
  const price = activeRange(filters.priceRange, PRICE_RANGE_BOUNDS);
  if (price) params.set("pr", `${price.min}:${price.max}`);
  const age = activeRange(filters.ageRange, AGE_RANGE_BOUNDS);
  if (age) params.set("ag", `${age.min}:${age.max}`);
  const q = normaliseSearchText(filters.q);
  if (q !== "") params.set("q", q);
  return params;
}

function setList(params: URLSearchParams, name: string, values: readonly string[]): void {
  if (values.length > 0) params.set(name, values.join(","));
}

// A range that is valid and not the full slider span, else null.
function activeRange(range: FilterRange | null, bounds: FilterRange): FilterRange | null {
  if (!range || !Number.isInteger(range.min) || !Number.isInteger(range.max)) return null;
  if (range.min < bounds.min || range.max > bounds.max || range.min > range.max) return null;
  if (range.min === bounds.min && range.max === bounds.max) return null;
  return range;
}

/** The canonical query string (no leading "?"), "" when nothing is set; used as the cache-variant key. */
export function canonicalFilterQuery(filters: EventFilters): string {
  return filtersToSearchParams(filters).toString();
}

/** True when any of the ten filter groups is active (the search text is not a filter; see hasSearch). */
export function isFilterActive(filters: EventFilters): boolean {
  return (
    filters.dateFrom !== null ||
    filters.dateTo !== null ||
    filters.dayNight.length > 0 ||
    filters.arrondissements.length > 0 ||
    filters.genres.length > 0 ||
    filters.nationalities.length > 0 ||
    filters.venueTypes.length > 0 ||
    filters.venueSetting !== null ||
    filters.curatedOnly ||
    activeRange(filters.priceRange, PRICE_RANGE_BOUNDS) !== null ||
    activeRange(filters.ageRange, AGE_RANGE_BOUNDS) !== null
  );
}

/** True when the search text folds to something non-empty. */
export function hasSearch(filters: EventFilters): boolean {
  return fold(filters.q) !== "";
}

/** Toggle labels of the day/night filter. */
export const DAY_NIGHT_LABELS: Readonly<Record<DayPeriod, string>> = {
  day: "Day 6:00 AM - 9:59 PM",
  night: "Night 10:00 PM - 5:59 AM",
};

const VENUE_LABELS: Readonly<Record<VenueType, string>> = { indoor: "Indoor", outdoor: "Outdoor" };

/** Chip label of a price range: "Free only", "Free - €X", "€X+", "€X - €Y". */
export function priceRangeLabel(range: FilterRange): string {
  const top = range.max >= PRICE_RANGE_BOUNDS.max;
  if (range.min <= 0) {
    if (range.max <= 0) return "Free only";
    return top ? "Any price" : `Free - €${range.max}`;
  }
  return top ? `€${range.min}+` : `€${range.min} - €${range.max}`;
}

/** Chip label of an age range: "Age X+" when the top is open (25), else "Age X - Y". */
export function ageRangeLabel(range: FilterRange): string {
  return range.max >= AGE_RANGE_BOUNDS.max ? `Age ${range.min}+` : `Age ${range.min} - ${range.max}`;
}

/** Chip label of a date range: one date, "From <date>", "Until <date>" or "<date> - <date>", with the sheet's date labels. */
export function dateRangeLabel(from: string | null, to: string | null): string {
  if (from !== null && to !== null) return from === to ? formatDateLabel(from) : `${formatDateLabel(from)} - ${formatDateLabel(to)}`;
  if (from !== null) return `From ${formatDateLabel(from)}`;
  if (to !== null) return `Until ${formatDateLabel(to)}`;
  return "Any date";
}

/** One removable chip of an active filter value. */
export interface FilterChip {
  group: FilterGroup;
  /** The tracked filterValue of this chip, sent with `filter_clear` when it is removed. */
  value: string;
  label: string;
  /** Canonical parameters with this value removed (everything else, the search included, kept). */
  removeParams: URLSearchParams;
  /** `removeParams.toString()`: the query string for the chip's remove link, "" when nothing remains. */
  removeQuery: string;
}

/** The active filters as chips, in group order then canonical value order, each with its remove-link parameters. */
export function activeFilterChips(filters: EventFilters): FilterChip[] {
  const base = parseFilters(filtersToSearchParams(filters));
  const chips: FilterChip[] = [];
  const add = (group: FilterGroup, value: string, label: string, without: Partial<EventFilters>) => {
    const removeParams = filtersToSearchParams({ ...base, ...without });
    chips.push({ group, value, label, removeParams, removeQuery: removeParams.toString() });
  };
  if (base.dateFrom !== null || base.dateTo !== null) {
    add("date_range", trackedFilterValue("date_range", { from: base.dateFrom, to: base.dateTo }), dateRangeLabel(base.dateFrom, base.dateTo), {
      dateFrom: null,
      dateTo: null,
    });
  }
  for (const period of base.dayNight) {
    add("day_night", period, DAY_NIGHT_LABELS[period], { dayNight: base.dayNight.filter((p) => p !== period) });
  }
  for (const arr of base.arrondissements) {
    add("arrondissement", String(arr), arrondissementShortLabel(arr), { arrondissements: base.arrondissements.filter((a) => a !== arr) });
  }
  for (const genre of base.genres) {
    add("genre", genre, genreLabel(genre), { genres: base.genres.filter((g) => g !== genre) });
  }
  for (const code of base.nationalities) {
    const display = nationalityDisplay(code);
    add("nationality", code, `${display.flag} ${display.code}`, { nationalities: base.nationalities.filter((c) => c !== code) });
  }
  for (const type of base.venueTypes) {
    add("venue_type", type, VENUE_LABELS[type], { venueTypes: base.venueTypes.filter((t) => t !== type) });
  }
  if (base.venueSetting !== null) {
    add("venue_setting", base.venueSetting, `Setting: ${VENUE_LABELS[base.venueSetting]}`, { venueSetting: null });
  }
  if (base.curatedOnly) add("oooc_pick", "yes", "Curated picks", { curatedOnly: false });
  if (base.priceRange) add("price_range", trackedFilterValue("price_range", base.priceRange), priceRangeLabel(base.priceRange), { priceRange: null });
  if (base.ageRange) add("age_range", trackedFilterValue("age_range", base.ageRange), ageRangeLabel(base.ageRange), { ageRange: null });
  return chips;
}

/** The value each filter group tracks, as passed to trackedFilterValue. */
export interface FilterGroupValues {
  date_range: { from: string | null; to: string | null };
  day_night: DayPeriod;
  arrondissement: Arrondissement;
  genre: string;
  nationality: NationalityCode;
  venue_type: VenueType;
  venue_setting: VenueType | null;
  oooc_pick: boolean;
  price_range: FilterRange;
  age_range: FilterRange;
}

/**
 * The tracked filterValue of a group: date_range `<from or any>:<to or any>`, day_night `day`/`night`,
 * arrondissement `11`/`unknown`, genre key, nationality code, venue type, setting `indoor`/`outdoor`/`all`,
 * pick `yes`/`no`, ranges `min:max`.
 */
export function trackedFilterValue<G extends FilterGroup>(group: G, value: FilterGroupValues[G]): string {
  switch (group) {
    case "date_range": {
      const range = value as FilterGroupValues["date_range"];
      return `${range.from || "any"}:${range.to || "any"}`;
    }
    case "venue_setting":
      return (value as FilterGroupValues["venue_setting"]) ?? "all";
    case "oooc_pick":
      return value ? "yes" : "no";
    case "price_range":
    case "age_range": {
      const range = value as FilterRange;
      return `${range.min}:${range.max}`;
    }
    default:
      return String(value);
  }
}

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

/** The folded search text of an event (the searched fields), cached per event object. */
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
      const period = dayPeriodOf(event.time);
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

/** "1 person saved this" or "N people saved this". */
export function savedLabel(count: number): string {
  return count === 1 ? "1 person saved this" : `${count} people saved this`;
}
