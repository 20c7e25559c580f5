// Labels of the filters: toggle and range labels, the removable chips of the active filters, the tracked
// value of each filter group, and the saved line of a card.

import { arrondissementShortLabel } from "../sheet/arrondissement.ts";
import { formatDateLabel } from "../sheet/dates.ts";
import { genreLabel } from "../sheet/genres.ts";
import { nationalityDisplay } from "../sheet/nationality.ts";
import type { Arrondissement, NationalityCode, VenueType } from "../sheet/types.ts";
import { AGE_RANGE_BOUNDS, filtersToSearchParams, parseFilters, PRICE_RANGE_BOUNDS, type DayPeriod, type EventFilters, type FilterGroup, type FilterRange } from "./filter-query.ts";

/** Toggle labels of the day/night filter. */
export const DAY_NIGHT_LABELS: Readonly<Record<DayPeriod, string>> = {
  day: "Day 06:00–21:59",
  night: "Night 22:00–05:59",
};

const VENUE_LABELS: Readonly<Record<VenueType, string>> = { indoor: "Indoor", outdoor: "Outdoor" };

/**
 * Everything a range slider shows, for every value of its scale: the lower end's text (`from`:
 * "Free", "€10", "Age 19"), the upper end's text with its joiner (`to`: " - €50", or "+" at the
 * top of the scale), whole labels of special ranges (`whole`, by "min:max": "Free only", "Any
 * price"), and each thumb's screen-reader text. Index i of a list is the value `min + i`. The
 * server sends these with the filter form, so the browser's slider label is a lookup, never a
 * second copy of these rules.
 */
export interface RangeLabels {
  min: number;
  max: number;
  from: string[];
  to: string[];
  whole: Record<string, string>;
  minText: string[];
  maxText: string[];
}

interface RangeLabelRules {
  from(value: number): string;
  to(value: number, top: boolean): string;
  whole: Record<string, string>;
  minText(value: number): string;
  maxText(value: number, top: boolean): string;
}

function rangeLabels(bounds: Readonly<FilterRange>, rules: RangeLabelRules): RangeLabels {
  const scale = Array.from({ length: bounds.max - bounds.min + 1 }, (_, i) => bounds.min + i);
  return {
    min: bounds.min,
    max: bounds.max,
    from: scale.map((v) => rules.from(v)),
    to: scale.map((v) => rules.to(v, v >= bounds.max)),
    whole: rules.whole,
    minText: scale.map((v) => rules.minText(v)),
    maxText: scale.map((v) => rules.maxText(v, v >= bounds.max)),
  };
}

const euros = (value: number) => (value <= 0 ? "Free" : `€${value}`);

/** The price slider: "Free only", "Any price", "Free - €X", "€X+", "€X - €Y". */
export const PRICE_LABELS: RangeLabels = rangeLabels(PRICE_RANGE_BOUNDS, {
  from: euros,
  to: (value, top) => (top ? "+" : ` - €${value}`),
  whole: { [`0:0`]: "Free only", [`0:${PRICE_RANGE_BOUNDS.max}`]: "Any price" },
  minText: euros,
  maxText: (value, top) => (top ? "No limit" : `€${value}`),
});

/** The age slider: "Any age", "Age X+" when the top (25) is open, else "Age X - Y". */
export const AGE_LABELS: RangeLabels = rangeLabels(AGE_RANGE_BOUNDS, {
  from: (value) => `Age ${value}`,
  to: (value, top) => (top ? "+" : ` - ${value}`),
  whole: { [`${AGE_RANGE_BOUNDS.min}:${AGE_RANGE_BOUNDS.max}`]: "Any age" },
  minText: (value) => `Age ${value}`,
  maxText: (value, top) => (top ? "No limit" : `Age ${value}`),
});

/** The label of a range on a slider's scale (the browser does the same lookup with the sent labels). */
export function rangeLabel(labels: RangeLabels, range: FilterRange): string {
  return labels.whole[`${range.min}:${range.max}`] ?? labels.from[range.min - labels.min] + labels.to[range.max - labels.min];
}

/** Chip label of a price range. */
export function priceRangeLabel(range: FilterRange): string {
  return rangeLabel(PRICE_LABELS, range);
}

/** Chip label of an age range. */
export function ageRangeLabel(range: FilterRange): string {
  return rangeLabel(AGE_LABELS, range);
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
 * The tracked filterValue of a group (see docs/filters-and-search.md, "The groups"): date_range `<from or any>:<to or any>`, day_night `day`/`night`,
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

/** "1 person saved this" or "N people saved this". */
export function savedLabel(count: number): string {
  return count === 1 ? "1 person saved this" : `${count} people saved this`;
}
