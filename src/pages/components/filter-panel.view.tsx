// The search bar and the filter panel of the homepage (see docs/filters-and-search.md): one plain
// GET form over all ten filter groups that works without JavaScript; htmx swaps the results
// fragment instead of reloading, pushes the URL, and debounces the search box by 500 ms. Every
// results request comes from the form: typing in the box (a trigger of the form, from the box),
// Enter or the Search button (a submit, which also cancels a pending debounced search) and filter
// changes, so two requests for one search never race and abort each other.

import { arrondissementShortLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateLabel } from "../../lib/sheet/dates.ts";
import { FILTER_PARAM_NAMES, FILTER_PARAMS, FILTER_STORAGE_KEY, LIST_PARAM_NAMES, filtersToSearchParams, MAX_SEARCH_LENGTH, type EventFilters } from "../../lib/events/filter-query.ts";
import { MOMENT_PARAM } from "../../lib/events/filter-moment.ts";
import { ageLabels, dayNightLabel, priceLabels, rangeLabel, type RangeLabels } from "../../lib/events/filter-labels.ts";
import { type FilterFacets } from "../../lib/events/filter-match.ts";
import { genreColour, genreLabel } from "../../lib/sheet/genres.ts";
import { homeHref, pageHref } from "../../lib/links.ts";
import { nationalityDisplay } from "../../lib/sheet/nationality.ts";
import Html from "@kitajs/html";
import { Icon } from "./icons.tsx";
import { t } from "../../lib/i18n/index.ts";

/** The id of the filter form (the search box joins it with the `form` attribute). */
export const FILTERS_FORM_ID = "filters";
/** The search box: it belongs to the filter form (`form` attribute) but sits in the hero. */
export const SEARCH_INPUT_ID = "search-q";
/** Slot for a signed-in visitor's top-genre quick chips (filled by the page script). */
export const GENRE_QUICK_CHIPS_ID = "genre-quick-chips";
/** The id of the results fragment root. */
export const RESULTS_ID = "results";
/** The id of the live "N found" / "N available" count. */
export const RESULT_COUNT_ID = "result-count";

/** htmx attributes shared by everything that reloads the results. */
export const RESULTS_HX = { "hx-target": `#${RESULTS_ID}`, "hx-swap": "outerHTML", "hx-push-url": "true" } as const;

/** "N found" when a filter or the search is active, else "N available". */
export function resultCountText(count: number, narrowed: boolean): string {
  return t(narrowed ? "filter.count.found" : "filter.count.available", { count });
}

/** The live count beside the search box; swapped out-of-band with the results. */
export function ResultCount(props: { count: number; narrowed: boolean; oob?: boolean }): JSX.Element {
  return (
    <p id={RESULT_COUNT_ID} class="result-count" role="status" aria-live="polite" hx-swap-oob={props.oob ? "innerHTML" : undefined} safe>
      {resultCountText(props.count, props.narrowed)}
    </p>
  );
}

/** The search box with its count. */
export function SearchBar(props: { q: string; count: number; narrowed: boolean }): JSX.Element {
  return (
    <div class="search-bar" role="search">
      <label class="visually-hidden" for={SEARCH_INPUT_ID} safe>
        {t("filter.search.label")}
      </label>
      <div class="search-field">
        <Icon name="search" />
        <input
          id={SEARCH_INPUT_ID}
          type="search"
          name={FILTER_PARAMS.q.name}
          form={FILTERS_FORM_ID}
          value={props.q}
          maxlength={String(MAX_SEARCH_LENGTH)}
          placeholder={t("filter.search.placeholder")}
          autocomplete="off"
          enterkeyhint="search"
        />
        <button type="submit" form={FILTERS_FORM_ID} class="button button-primary search-submit" safe>
          {t("filter.search.submit")}
        </button>
      </div>
      <ResultCount count={props.count} narrowed={props.narrowed} />
    </div>
  );
}

/**
 * One checkbox pill: the label and its input, nothing else (the genre dot and the flag are drawn by
 * CSS from `--genre` and `data-flag`), so the form's 50-odd options stay light on first paint.
 */
function Toggle(props: { name: string; value: string; checked: boolean; label: string; colour?: string; flag?: string }): JSX.Element {
  return (
    <label class={props.colour ? "toggle toggle-dot" : "toggle"} style={props.colour ? `--genre:${props.colour}` : undefined} data-flag={props.flag}>
      <input type="checkbox" name={props.name} value={props.value} checked={props.checked} />
      {Html.escapeHtml(props.label)}
    </label>
  );
}

/**
 * A two-thumb range. Its labels travel with it (`data-labels`, in the page's language): the page
 * script looks the label of a dragged range up there instead of computing it (see
 * lib/events/filter-labels.ts).
 */
function RangeGroup(props: { param: "pr" | "ag"; legend: string; labels: RangeLabels; value: { min: number; max: number } | null; unit: "€" | "age" }): JSX.Element {
  const { labels } = props;
  const value = props.value ?? labels;
  const minText = props.unit === "€" ? t("filter.price.minLabel") : t("filter.age.minLabel");
  const maxText = props.unit === "€" ? t("filter.price.maxLabel") : t("filter.age.maxLabel");
  const sent = JSON.stringify({ from: labels.from, to: labels.to, whole: labels.whole, minText: labels.minText, maxText: labels.maxText });
  return (
    <fieldset class="filter-group range-group" data-range={props.param} data-min={String(labels.min)} data-max={String(labels.max)} data-labels={sent}>
      <legend safe>{props.legend}</legend>
      <output class="range-label" for={`${props.param}-min ${props.param}-max`} safe>
        {rangeLabel(labels, value)}
      </output>
      <label class="range-field">
        <span safe>{t("filter.range.min")}</span>
        <input id={`${props.param}-min`} type="range" name={`${props.param}_min`} min={String(labels.min)} max={String(labels.max)} step="1" value={String(value.min)} aria-label={minText} aria-valuetext={labels.minText[value.min - labels.min]} />
      </label>
      <label class="range-field">
        <span safe>{t("filter.range.max")}</span>
        <input id={`${props.param}-max`} type="range" name={`${props.param}_max`} min={String(labels.min)} max={String(labels.max)} step="1" value={String(value.max)} aria-label={maxText} aria-valuetext={labels.maxText[value.max - labels.min]} />
      </label>
    </fieldset>
  );
}

export interface FilterPanelProps {
  filters: EventFilters;
  facets: FilterFacets;
  quickDates: readonly string[];
  /** First and last event date, bounds of the date inputs. */
  dateBounds: { min?: string; max?: string };
  /** "Happening now" or "Tonight" (a quick chip), kept by the form as a hidden field. */
  moment?: "now" | "tonight" | null;
}

/** The filter form: "Date & Times", "Location", "Music & Culture", "Preferences". */
/**
 * The date inputs' min and max: the listed dates, widened to any date the filters already hold, so
 * a restored or shared query outside the listed days never leaves the form invalid (a browser does
 * not submit a form whose date lies outside its bounds).
 */
export function dateInputBounds(listed: { min?: string; max?: string }, chosen: readonly (string | null)[]): { min?: string; max?: string } {
  let { min, max } = listed;
  for (const date of chosen) {
    if (!date) continue;
    if (min !== undefined && date < min) min = date;
    if (max !== undefined && date > max) max = date;
  }
  return { min, max };
}

export function FilterPanel(props: FilterPanelProps): JSX.Element {
  const { filters, facets } = props;
  const withDates = (date: string) => homeHref(filtersToSearchParams({ ...filters, dateFrom: date, dateTo: date }).toString());
  const activeQuick = (date: string) => filters.dateFrom === date && filters.dateTo === date;
  const bounds = dateInputBounds(props.dateBounds, [filters.dateFrom, filters.dateTo]);
  return (
    <form
      id={FILTERS_FORM_ID}
      class="filters"
      method="get"
      action={pageHref("/")}
      aria-labelledby="filters-title"
      hx-get={pageHref("/")}
      hx-trigger={`submit, change, input changed delay:500ms from:#${SEARCH_INPUT_ID}`}
      hx-sync="this:replace"
      {...RESULTS_HX}
      data-filter-params={[...FILTER_PARAM_NAMES, MOMENT_PARAM].join(" ")}
      data-list-params={LIST_PARAM_NAMES.join(" ")}
      data-storage-key={FILTER_STORAGE_KEY}
    >
      {props.moment ? <input type="hidden" name={MOMENT_PARAM} value={props.moment} /> : <input type="hidden" name={MOMENT_PARAM} value="" disabled />}
      <div class="filters-head">
        <h2 id="filters-title">
          <Icon name="filter" /> <span safe>{t("home.filters")}</span>
        </h2>
        <button type="submit" class="button button-small apply-filters" safe>
          {t("filter.apply")}
        </button>
        <button type="button" class="button button-small sheet-close" data-close-filters safe>
          {t("common.close")}
        </button>
      </div>

      <details class="filter-section" open>
        <summary safe>{t("filter.section.dates")}</summary>
        <fieldset class="filter-group">
          <legend safe>{t("filter.dates")}</legend>
          <div class="date-fields">
            <label>
              <span safe>{t("filter.dates.from")}</span>
              <input type="date" name={FILTER_PARAMS.dateFrom.name} value={filters.dateFrom ?? ""} min={bounds.min} max={bounds.max} />
            </label>
            <label>
              <span safe>{t("filter.dates.to")}</span>
              <input type="date" name={FILTER_PARAMS.dateTo.name} value={filters.dateTo ?? ""} min={bounds.min} max={bounds.max} />
            </label>
          </div>
          {props.quickDates.length > 0 ? (
            <p class="quick-dates" aria-label={t("filter.dates.quick")}>
              {props.quickDates.map((date) => (
                <a class={activeQuick(date) ? "toggle is-active" : "toggle"} href={withDates(date)} data-quick-date={date} aria-current={activeQuick(date) ? "true" : undefined} safe>
                  {formatDateLabel(date)}
                </a>
              ))}
            </p>
          ) : (
            ""
          )}
        </fieldset>
        <fieldset class="filter-group">
          <legend safe>{t("filter.timeOfDay")}</legend>
          <div class="toggles">
            {(["day", "night"] as const).map((period) => (
              <Toggle name={FILTER_PARAMS.dayNight.name} value={period} checked={filters.dayNight.includes(period)} label={dayNightLabel(period)} />
            ))}
          </div>
        </fieldset>
      </details>

      <details class="filter-section" open>
        <summary safe>{t("filter.section.location")}</summary>
        <fieldset class="filter-group">
          <legend safe>{t("filter.arrondissements")}</legend>
          <div class="toggles toggles-compact">
            {facets.arrondissements.map((arr) => (
              <Toggle name={FILTER_PARAMS.arrondissements.name} value={String(arr)} checked={filters.arrondissements.includes(arr)} label={arrondissementShortLabel(arr)} />
            ))}
          </div>
        </fieldset>
      </details>

      <details class="filter-section" open>
        <summary safe>{t("filter.section.music")}</summary>
        <fieldset class="filter-group">
          <legend safe>{t("filter.genres")}</legend>
          <div id={GENRE_QUICK_CHIPS_ID} class="quick-chips" aria-live="polite"></div>
          <div class="toggles">
            {facets.genres.map((genre) => (
              <Toggle name={FILTER_PARAMS.genres.name} value={genre} checked={filters.genres.includes(genre)} label={genreLabel(genre)} colour={genreColour(genre)} />
            ))}
          </div>
        </fieldset>
        {facets.nationalities.length > 0 ? (
          <fieldset class="filter-group">
            <legend safe>{t("filter.nationalities")}</legend>
            <div class="toggles">
              {facets.nationalities.map((code) => {
                const display = nationalityDisplay(code);
                return <Toggle name={FILTER_PARAMS.nationalities.name} value={code} checked={filters.nationalities.includes(code)} label={display.code} flag={display.flag} />;
              })}
            </div>
          </fieldset>
        ) : (
          ""
        )}
      </details>

      <details class="filter-section" open>
        <summary safe>{t("filter.section.preferences")}</summary>
        <div class="filter-group">
          <label class="switch">
            <input type="checkbox" name={FILTER_PARAMS.curatedOnly.name} value="1" checked={filters.curatedOnly} />
            <span safe>{t("filter.curatedOnly")}</span>
          </label>
        </div>
        <fieldset class="filter-group">
          <legend safe>{t("filter.venueType")}</legend>
          <div class="toggles">
            <Toggle name={FILTER_PARAMS.venueTypes.name} value="indoor" checked={filters.venueTypes.includes("indoor")} label={t("filter.venue.indoor")} />
            <Toggle name={FILTER_PARAMS.venueTypes.name} value="outdoor" checked={filters.venueTypes.includes("outdoor")} label={t("filter.venue.outdoor")} />
          </div>
        </fieldset>
        <fieldset class="filter-group">
          <legend safe>{t("filter.setting.legend")}</legend>
          <div class="segmented">
            {(
              [
                ["", t("filter.setting.all")],
                ["indoor", t("filter.venue.indoor")],
                ["outdoor", t("filter.venue.outdoor")],
              ] as const
            ).map(([value, label]) => (
              <label class="segment">
                <input type="radio" name={FILTER_PARAMS.venueSetting.name} value={value} checked={(filters.venueSetting ?? "") === value} />
                <span safe>{label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <RangeGroup param="pr" legend={t("filter.price")} labels={priceLabels()} value={filters.priceRange} unit="€" />
        <RangeGroup param="ag" legend={t("filter.age")} labels={ageLabels()} value={filters.ageRange} unit="age" />
      </details>
      <noscript>
        <p class="filters-foot">
          <button type="submit" class="button button-primary" safe>
            {t("filter.apply")}
          </button>
        </p>
      </noscript>
    </form>
  );
}
