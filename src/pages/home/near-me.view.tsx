// "Near me" (docs/filters-and-search.md, "Near me"): the panel in the homepage, and its list as a
// fragment (`/?<filters>&near=list`, cached like the map's JSON) that the browser fetches once the
// visitor shares a position. The fragment holds the venues with the same cards as the list; the
// browser measures each venue's distance, keeps those within the radius, orders them and writes the
// distance (static/app.js). The position never leaves the page.

import type { FilterFacets } from "../../lib/events/filter-match.ts";
import { ESTIMATE_SLACK_KM, NEAR_MAX_VENUES, NEAR_RADII_KM, WALKING_METRES_PER_MINUTE, type NearScope, type NearVenue } from "../../lib/events/near-me.ts";
import { formatOrdinal, t } from "../../lib/i18n/index.ts";
import { arrondissementShortLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateRangeLabel } from "../../lib/sheet/dates.ts";
import { homeHref } from "../../lib/links.ts";
import { CARD_LIST_HX, EventCard, type EventCardProps } from "../components/event-card.view.tsx";
import { homeQuery, type HomeListing } from "./listing.ts";

export const NEAR_ME_ID = "near-me";

/** The value of the `near` parameter that asks the homepage for the near-me fragment. */
export const NEAR_PARAM = "near";
export const NEAR_PARAM_VALUE = "list";

/**
 * The panel: with JavaScript the browser asks for the position once, keeps it in the page and fills
 * the list from the fragment; without JavaScript or without permission, the arrondissement picker.
 * The walking pace, the estimate's slack and the most venues shown come from the server
 * (`data-walk`, `data-slack`, `data-max`).
 */
export function NearMe(props: { listing: HomeListing; facets: FilterFacets }): JSX.Element {
  const { filters, moment } = props.listing;
  return (
    <section id={NEAR_ME_ID} class="near-me" aria-labelledby="near-me-title" tabindex="-1" data-walk={String(WALKING_METRES_PER_MINUTE)} data-slack={String(ESTIMATE_SLACK_KM)} data-max={String(NEAR_MAX_VENUES)}>
      <div class="section-head">
        <h2 id="near-me-title" safe>
          {t("home.near.title")}
        </h2>
        <label class="near-me-radius" hidden>
          <span safe>{t("home.near.within")}</span>{" "}
          <select data-near-radius>
            {NEAR_RADII_KM.map((km) => (
              <option value={String(km)} safe>{`${km} km`}</option>
            ))}
          </select>
        </label>
      </div>
      <p class="near-me-status muted" data-near-status role="status" aria-live="polite"></p>
      <div class="near-me-results" data-near-results hidden></div>
      <div class="near-me-areas" data-near-areas>
        <p class="muted" safe>
          {t("home.near.pick")}
        </p>
        <ul class="area-picker">
          {props.facets.arrondissements
            .filter((arr): arr is number => typeof arr === "number")
            .map((arr) => {
              const href = homeHref(homeQuery({ ...filters, arrondissements: [arr] }, moment));
              return (
                <li>
                  <a class="chip" href={href} safe>
                    {arrondissementShortLabel(arr)}
                  </a>
                </li>
              );
            })}
        </ul>
      </div>
    </section>
  );
}

/** The sentence that says what the list holds (today on now and next, the chosen dates, or off season). */
function scopeText(scope: NearScope, festivalDays: readonly string[]): string {
  if (scope === "today") return t("home.near.scope.today");
  if (scope === "dates") return t("home.near.scope.dates");
  const range = festivalDays.length > 0 ? formatDateRangeLabel(festivalDays[0]!, festivalDays[festivalDays.length - 1]!) : t("common.tbc");
  return t("home.near.scope.offSeason", { range });
}

/**
 * The fragment: every candidate venue (its own name, its position, whether that is an estimate)
 * with its events as list cards. An estimated venue says "in the 10th" and never gets metres.
 */
export function NearMeResults(props: { scope: NearScope; venues: readonly NearVenue[]; festivalDays: readonly string[]; now: Date; /** How a card is drawn (the fast path passes its kept cards). */ card?: (props: EventCardProps) => JSX.Element }): JSX.Element {
  const Card = props.card ?? EventCard;
  return (
    <div class="near-results" data-near-scope={props.scope}>
      <p class="near-scope muted" safe>
        {scopeText(props.scope, props.festivalDays)}
      </p>
      <ol class="near-venues" aria-label={t("home.near.venues")} {...CARD_LIST_HX}>
        {props.venues.map((venue) => (
          <li class="near-venue" data-lat={String(venue.lat)} data-lng={String(venue.lng)} data-est={venue.estimated ? "1" : undefined} data-count={String(venue.events.length)}>
            <div class="near-venue-head">
              <h3 class="near-venue-name" safe>
                {venue.name}
              </h3>
              {venue.estimated && typeof venue.arrondissement === "number" ? (
                <span class="near-distance near-distance-estimate" title={t("home.near.inAreaTitle")} safe>
                  {t("home.near.inArea", { ordinal: formatOrdinal(venue.arrondissement) })}
                </span>
              ) : (
                <span class="near-distance" data-near-distance></span>
              )}
            </div>
            <ol class="card-grid event-list">
              {venue.events.map((event) => (
                <li>
                  <Card event={event} now={props.now} showSaved={false} headingLevel={4} />
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </div>
  );
}
