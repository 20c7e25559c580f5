// Labels of the filters: toggle and range labels, the removable chips of the active filters, the tracked
// value of each filter group, and the saved line of a card.

import { arrondissementShortLabel } from "../sheet/arrondissement.ts";
import { formatDateLabel } from "../sheet/dates.ts";
import { genreLabel } from "../sheet/genres.ts";
import { nationalityDisplay } from "../sheet/nationality.ts";
import type { Arrondissement, NationalityCode, VenueType } from "../sheet/types.ts";
import { AGE_RANGE_BOUNDS, filtersToSearchParams, parseFilters, PRICE_RANGE_BOUNDS, type DayPeriod, type EventFilters, type FilterGroup, type FilterRange } from "./filter-query.ts";
import { currentLanguage, inLanguage, t, type Language } from "../i18n/index.ts";
import { NIGHT_FROM } from "../sheet/times.ts";

/** Toggle label of a day/night filter value ("Night (after 22:00)"), in the current language. */
export function dayNightLabel(period: DayPeriod): string {
  return t(`filter.dayNight.${period}`, { time: NIGHT_FROM });
}

/** Label of a venue type ("Indoor", "Outdoor"), in the current language. */
export function venueLabel(type: VenueType): string {
  return t(`filter.venue.${type}`);
}

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

/** Lower-end and thumb text of a price: "Free" at 0, else "€10" / "10 €". */
const euros = (value: number) => (value <= 0 ? t("common.free") : t("filter.price.value", { value }));

function buildPriceLabels(): RangeLabels {
  return rangeLabels(PRICE_RANGE_BOUNDS, {
    from: euros,
    to: (value, top) => (top ? t("filter.price.open") : t("filter.price.upTo", { value })),
    whole: { [`0:0`]: t("filter.price.freeOnly"), [`0:${PRICE_RANGE_BOUNDS.max}`]: t("filter.price.any") },
    minText: euros,
    maxText: (value, top) => (top ? t("filter.noLimit") : euros(value)),
  });
}

function buildAgeLabels(): RangeLabels {
  return rangeLabels(AGE_RANGE_BOUNDS, {
    from: (value) => t("filter.age.lower", { value }),
    to: (value, top) => (top ? t("filter.age.open") : t("filter.age.upTo", { value })),
    whole: { [`${AGE_RANGE_BOUNDS.min}:${AGE_RANGE_BOUNDS.max}`]: t("filter.age.any") },
    minText: (value) => t("filter.age.value", { value }),
    maxText: (value, top) => (top ? t("filter.noLimit") : t("filter.age.value", { value })),
  });
}

/** One set of labels per language, built on first use (the catalogue never changes at run time). */
function perLanguage(build: () => RangeLabels): (language?: Language) => RangeLabels {
  const built = new Map<Language, RangeLabels>();
  return (language = currentLanguage()) => {
    let labels = built.get(language);
    if (!labels) {
      labels = inLanguage(language, build);
      built.set(language, labels);
    }
    return labels;
  };
}

/** The price slider in a language (the current one by default): "Free only", "Any price", "Free - €X", "€X+", "€X - €Y". */
export const priceLabels = perLanguage(buildPriceLabels);

/** The age slider in a language: "Any age", "Age X+" when the top (25) is open, else "Age X - Y". */
export const ageLabels = perLanguage(buildAgeLabels);

/** The label of a range on a slider's scale (the browser does the same lookup with the sent labels). */
export function rangeLabel(labels: RangeLabels, range: FilterRange): string {
  return labels.whole[`${range.min}:${range.max}`] ?? labels.from[range.min - labels.min] + labels.to[range.max - labels.min];
}

/** Chip label of a price range. */
export function priceRangeLabel(range: FilterRange): string {
  return rangeLabel(priceLabels(), range);
}

/** Chip label of an age range. */
export function ageRangeLabel(range: FilterRange): string {
  return rangeLabel(ageLabels(), range);
}

/** Chip label of a date range: one date, "From <date>", "Until <date>" or "<date> - <date>", with the sheet's date labels. */
export function dateRangeLabel(from: string | null, to: string | null): string {
  if (from !== null && to !== null) return from === to ? formatDateLabel(from) : `${formatDateLabel(from)} - ${formatDateLabel(to)}`;
  if (from !== null) return t("filter.date.from", { date: formatDateLabel(from) });
  if (to !== null) return t("filter.date.until", { date: formatDateLabel(to) });
  return t("filter.date.any");
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
    add("day_night", period, dayNightLabel(period), { dayNight: base.dayNight.filter((p) => p !== period) });
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
    add("venue_type", type, venueLabel(type), { venueTypes: base.venueTypes.filter((t) => t !== type) });
  }
  if (base.venueSetting !== null) {
    add("venue_setting", base.venueSetting, t("filter.setting", { venue: venueLabel(base.venueSetting) }), { venueSetting: null });
  }
  if (base.curatedOnly) add("oooc_pick", "yes", t("filter.curated"), { curatedOnly: false });
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

/** "1 person saved this" or "N people saved this", in the current language. */
export function savedLabel(count: number): string {
  return t("event.saved", { count });
}

// ---------------------------------------------------------------------------------------------
// Quick chips, as tracked filters

/** The one-tap chips above the list (see docs/filters-and-search.md, "Quick chips"). */
export type QuickChip = "now" | "tonight" | "today" | "day" | "free" | "nearMe";

/**
 * How a tap on each quick chip is tracked: `filter_apply` when it switches the chip on,
 * `filter_clear` when it switches it off, with the spec group it narrows and a value of its own
 * that no panel control sends, so the insights can name the chip.
 */
export const QUICK_CHIP_TRACKING: Readonly<Record<QuickChip, { group: FilterGroup; value: string }>> = {
  now: { group: "date_range", value: "now" },
  tonight: { group: "date_range", value: "tonight" },
  today: { group: "date_range", value: "today" },
  // Outside festival week, one chip per festival day.
  day: { group: "date_range", value: "festival_day" },
  free: { group: "price_range", value: "free" },
  nearMe: { group: "arrondissement", value: "near_me" },
};

/** The chip a tracked group and value stand for, or null when they come from the filter panel. */
export function quickChipOf(group: string, value: string): QuickChip | null {
  for (const [chip, tracked] of Object.entries(QUICK_CHIP_TRACKING) as [QuickChip, { group: FilterGroup; value: string }][]) {
    if (tracked.group === group && tracked.value === value) return chip;
  }
  return null;
}

/** The label of a tracked filter in the insights ("Quick chip: Tonight"), or null for a panel filter (shown as group and value). */
export function trackedFilterLabel(group: string, value: string): string | null {
  const chip = quickChipOf(group, value);
  return chip ? t("filter.quickChip", { chip: t(`home.quick.${chip}`) }) : null;
}
