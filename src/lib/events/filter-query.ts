// The filter query codec: URL parameters to filter state and back (parse, canonical query, activity).
// Matching and facets live in filter-match.ts, chip and range labels in filter-labels.ts.

import { compareArrondissements } from "../sheet/arrondissement.ts";
import { isValidIsoDate } from "../sheet/dates.ts";
import { GENRE_KEYS } from "../sheet/genres.ts";
import { fold } from "../sheet/text.ts";
import type { Arrondissement, NationalityCode, VenueType } from "../sheet/types.ts";

/** The ten filter groups, as tracked in `filter_apply` / `filter_clear` (see docs/filters-and-search.md). */
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

/** Day or night of an event (`dayPeriodOf` in sheet/times.ts: night when it runs at any minute from 22:00 to 06:00). */
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
export const GENRE_ORDER: ReadonlyMap<string, number> = new Map(GENRE_KEYS.map((key, i) => [key, i]));
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
export const compareNationalities = orderIn(NATIONALITY_CODES);
export function compareGenres(a: string, b: string): number {
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

/** One filter parameter of the URL: its name, how it is read and written, and its API description. */
export interface FilterParam<K extends keyof EventFilters = keyof EventFilters> {
  /** The URL parameter. */
  name: string;
  /** What /api/events and /calendar.ics document for it (api/openapi.ts). */
  doc: string;
  /** A list of items (one checkbox each in the filters form), rather than a single value. */
  list?: true;
  /** The field's value from URL parameters; unknown or malformed values are ignored, never throws. */
  parse(params: unknown): EventFilters[K];
  /** The canonical text of a value, or undefined when the group is inactive (then the parameter is left out). */
  serialise(value: EventFilters[K]): string | undefined;
}

const listText = (values: readonly string[]) => (values.length > 0 ? values.join(",") : undefined);
const parseDayNight = (item: string) => oneOf(item, DAY_PERIODS);
const parseNationality = (item: string) => NATIONALITY_BY_TOKEN.get(item.toLowerCase()) ?? null;
const parseVenueType = (item: string) => oneOf(item, VENUE_TYPES);
/**
 * A list parameter (`dn`, `arr`, `g`, `nat`, `vt`): comma-separated or repeated items, each read
 * by `parseItem` (unknown items dropped), kept once and in `compare` order both ways.
 */
function listParam<T>(name: string, doc: string, parseItem: (item: string) => T | null, compare: (a: T, b: T) => number) {
  return {
    name,
    doc,
    list: true as const,
    parse: (params: unknown) => canonicalList(readList(params, name), parseItem, compare),
    serialise: (values: readonly T[]) => listText(canonicalList(values.map(String), parseItem, compare).map(String)),
  };
}
const rangeText = (range: FilterRange | null, bounds: FilterRange) => {
  const active = activeRange(range, bounds);
  return active ? `${active.min}:${active.max}` : undefined;
};

/**
 * The filter parameters, one entry per field of EventFilters, in canonical URL order
 * (df dt dn arr g nat vt in pick pr ag q). The parser, the canonical query, the OpenAPI document and
 * the browser (the `data-filter-params` of the filters form) all read this table.
 */
export const FILTER_PARAMS: { readonly [K in keyof EventFilters]: FilterParam<K> } = {
  dateFrom: { name: "df", doc: "First date, YYYY-MM-DD", parse: (p) => parseIsoDate(readFirst(p, "df")), serialise: (v) => (v !== null && isValidIsoDate(v) ? v : undefined) },
  dateTo: { name: "dt", doc: "Last date, YYYY-MM-DD", parse: (p) => parseIsoDate(readFirst(p, "dt")), serialise: (v) => (v !== null && isValidIsoDate(v) ? v : undefined) },
  dayNight: listParam("dn", "Times of day: day, night (night: the event runs at any minute from 22:00 to 06:00)", parseDayNight, compareDayPeriods),
  arrondissements: listParam("arr", "Arrondissements 1–20 (e.g. 11 or 11e), or outside", parseArrondissementValue, compareArrondissements),
  genres: listParam("g", "Genre keys (e.g. house, jazz, musiques du monde)", parseGenreValue, compareGenres),
  nationalities: listParam("nat", "Host or audience country codes: UK, FR, CA, NL", parseNationality, compareNationalities),
  venueTypes: listParam("vt", "Venue types: indoor, outdoor", parseVenueType, compareVenueTypes),
  venueSetting: {
    name: "in",
    doc: "Venue setting: indoor or outdoor",
    parse: (p) => oneOf((readFirst(p, "in") ?? "").trim(), VENUE_TYPES),
    serialise: (v) => (v !== null && VENUE_TYPES.includes(v) ? v : undefined),
  },
  curatedOnly: { name: "pick", doc: "1 for curated picks only", parse: (p) => TRUE_WORDS.has((readFirst(p, "pick") ?? "").trim().toLowerCase()), serialise: (v) => (v ? "1" : undefined) },
  priceRange: { name: "pr", doc: "Price range in euros, min:max (e.g. 0:20)", parse: (p) => parseRange(readFirst(p, "pr"), PRICE_RANGE_BOUNDS), serialise: (v) => rangeText(v, PRICE_RANGE_BOUNDS) },
  ageRange: { name: "ag", doc: "Age range, min:max (e.g. 18:21)", parse: (p) => parseRange(readFirst(p, "ag"), AGE_RANGE_BOUNDS), serialise: (v) => rangeText(v, AGE_RANGE_BOUNDS) },
  q: {
    name: "q",
    doc: "Search text (name, venue, area, genres, notes; accents and case ignored; at most 200 characters)",
    parse: (p) => normaliseSearchText(readFirst(p, "q")),
    serialise: (v) => normaliseSearchText(v) || undefined,
  },
};

/** The fields of EventFilters in canonical URL order. */
const FILTER_FIELDS = Object.keys(FILTER_PARAMS) as (keyof EventFilters)[];

/** The URL names of every filter parameter, in canonical order. */
export const FILTER_PARAM_NAMES: readonly string[] = FILTER_FIELDS.map((field) => FILTER_PARAMS[field].name);

/** The URL names of the list parameters (`dn arr g nat vt`): one checkbox per item in the filters form. */
export const LIST_PARAM_NAMES: readonly string[] = FILTER_FIELDS.filter((field) => FILTER_PARAMS[field].list).map((field) => FILTER_PARAMS[field].name);

/** A date range with its ends in order (df > dt is swapped). */
function orderedDates(from: string | null, to: string | null): [string | null, string | null] {
  return from !== null && to !== null && from > to ? [to, from] : [from, to];
}

/**
 * Reads the filter state from URL parameters. Unknown or malformed values are ignored, ranges are
 * clamped then validated, df > dt is swapped; never throws.
 */
export function parseFilters(params: FilterParamsInput | null | undefined): EventFilters {
  const filters = emptyFilters();
  if (params === null || typeof params !== "object") return filters;
  const parsed = filters as unknown as Record<keyof EventFilters, unknown>;
  for (const field of FILTER_FIELDS) parsed[field] = FILTER_PARAMS[field].parse(params);
  [filters.dateFrom, filters.dateTo] = orderedDates(filters.dateFrom, filters.dateTo);
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
  const valid = (date: string | null) => (date && isValidIsoDate(date) ? date : null);
  const [dateFrom, dateTo] = orderedDates(valid(filters.dateFrom), valid(filters.dateTo));
  const canonical = { ...filters, dateFrom, dateTo } as Record<keyof EventFilters, never>;
  for (const field of FILTER_FIELDS) {
    const param = FILTER_PARAMS[field] as FilterParam;
    const text = param.serialise(canonical[field]);
    if (text !== undefined) params.set(param.name, text);
  }
  return params;
}

// A range that is valid and not the full slider span, else null.
export function activeRange(range: FilterRange | null, bounds: FilterRange): FilterRange | null {
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
