// The map card of the homepage (see docs/public-pages.md, "Map card"): a closed <details> that
// loads Leaflet, its marker clusters, the arrondissement outlines and static/map.js only when
// opened, then the filtered events' JSON from the address on the area list, so the map follows
// the filters. Without JavaScript or tiles, the area list still
// links to every area.

import type { EventFilters } from "../../lib/events/filter-query.ts";
import { nextFilterQueries } from "../../lib/events/filter-links.ts";
import { areaBand, mapAreas, mapVenues } from "./map-data.ts";
import { homeHref } from "../../lib/links.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import Html from "@kitajs/html";
import { Icon } from "./icons.tsx";
import { assetUrl } from "../../lib/serving/static-assets.ts";
import { t } from "../../lib/i18n/index.ts";
import { OUTLINES_ATTRIBUTION } from "../../lib/geocoding/arrondissement-outlines.ts";

/** The id of the out-of-band map data block (JSON + area list). */
export const MAP_DATA_ID = "map-areas";

/** The value of the `map` parameter that asks the homepage for the map's JSON instead of HTML. */
export const MAP_DATA_PARAM_VALUE = "data";

/** The map's JSON for the filtered events: venue points with their events, and the 20 areas. */
export function mapJson(matching: readonly LiveEvent[], filters: EventFilters): string {
  return JSON.stringify({ venues: mapVenues(matching), areas: mapAreas(matching, filters.arrondissements) });
}

/**
 * The area list and the address of the map's JSON (fetched only when the map opens, so a list of
 * 2,000 events does not carry 2,000 map points); swapped out-of-band with the results.
 */
export function MapData(props: { matching: readonly LiveEvent[]; filters: EventFilters; query: string; /** queryWithoutSearch of the filters, when known. */ searchlessQuery?: string; oob?: boolean }): JSX.Element {
  const areas = mapAreas(props.matching, props.filters.arrondissements);
  const next = nextFilterQueries(props.filters, props.searchlessQuery);
  const areaHref = (arr: number) => homeHref(next({ arrondissements: [arr] }));
  const listed = areas.filter((area) => area.count > 0 || area.selected);
  const src = homeHref(props.query ? `${props.query}&map=${MAP_DATA_PARAM_VALUE}` : `map=${MAP_DATA_PARAM_VALUE}`);
  return (
    <div id={MAP_DATA_ID} class="map-data" data-map-src={src} hx-swap-oob={props.oob ? "true" : undefined}>
      <h3 class="visually-hidden" safe>
        {t("map.perArea")}
      </h3>
      {listed.length > 0 ? (
        <ul class="area-list">
          {listed.map((area) => (
            <li>
              <a class={`area-chip band-${areaBand(area.count, area.selected)}`} href={areaHref(area.arr)}>
                {Html.escapeHtml(area.label)} <strong safe>{String(area.count)}</strong>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted" safe>
          {t("map.none")}
        </p>
      )}
    </div>
  );
}

/** The map card (closed until the visitor opens it). */
export function MapCard(props: { matching: readonly LiveEvent[]; filters: EventFilters; query: string; /** queryWithoutSearch of the filters, when known. */ searchlessQuery?: string }): JSX.Element {
  return (
    <details
      id="map-card"
      class="map-card"
      data-leaflet-css={assetUrl("vendor/leaflet.css")}
      data-leaflet-js={assetUrl("vendor/leaflet.js")}
      data-cluster-css={assetUrl("vendor/MarkerCluster.css")}
      data-cluster-js={assetUrl("vendor/leaflet.markercluster.js")}
      data-map-js={assetUrl("map.js")}
      data-outlines={assetUrl("data/arrondissements.json")}
      data-outlines-attribution={OUTLINES_ATTRIBUTION}
    >
      <summary data-show={t("map.show")} data-hide={t("map.hide")}>
        <span class="map-card-title">
          <Icon name="map" />
          <span safe>{t("map.title")}</span>
        </span>
        <span class="muted" safe>
          {t("map.subtitle")}
        </span>
      </summary>
      <div class="map-body">
        <div class="map-frame">
          <div id="event-map" class="event-map" role="region" aria-label={t("map.region")}></div>
          <noscript>
            <p class="map-fallback" safe>
              {t("map.noscript")}
            </p>
          </noscript>
        </div>
        <ul class="map-legend" aria-label={t("map.legend")}>
          <li class="band-none">0</li>
          <li class="band-one">1</li>
          <li class="band-few">2–4</li>
          <li class="band-many">5+</li>
          <li class="band-selected" safe>
            {t("map.selected")}
          </li>
          <li class="legend-approx" safe>
            {t("map.approx")}
          </li>
        </ul>
        <MapData matching={props.matching} filters={props.filters} query={props.query} searchlessQuery={props.searchlessQuery} />
      </div>
    </details>
  );
}
