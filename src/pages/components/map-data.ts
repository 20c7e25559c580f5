// The map's data from the filtered events: venue points with their events (the popups) and the 20
// arrondissements with their counts (the coloured area circles and the area list). Pure functions
// of one live read; the page embeds the result as JSON (see docs/public-pages.md, "Map").

import { arrondissementCentre, arrondissementShortLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateLabel } from "../../lib/sheet/dates.ts";
import { isUnknownLocation } from "../../lib/sheet/location.ts";
import { formatTimeLabel } from "../../lib/sheet/times.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { t } from "../../lib/i18n/index.ts";

/** One event in a map popup (short field names: this goes into the page as JSON). */
export interface MapEvent {
  k: string;
  s: string;
  n: string;
  /** Date and time label. */
  w: string;
}

/** Events at one venue point. */
export interface MapVenue {
  lat: number;
  lng: number;
  venue: string;
  /** Arrondissement of the venue's first event (popups of the area circles list its events). */
  arr: number | "unknown";
  events: MapEvent[];
}

/** Events per arrondissement, for the coloured area circles. */
export interface MapArea {
  arr: number;
  label: string;
  lat: number;
  lng: number;
  count: number;
  selected: boolean;
}

/** Colour band of an area by its event count: 0 grey, 1 green, 2–4 orange, 5+ red; selected blue. */
export function areaBand(count: number, selected: boolean): "selected" | "none" | "one" | "few" | "many" {
  if (selected) return "selected";
  if (count === 0) return "none";
  if (count === 1) return "one";
  return count <= 4 ? "few" : "many";
}

/** The filtered events grouped per venue point (events without coordinates are left out). */
export function mapVenues(matching: readonly LiveEvent[]): MapVenue[] {
  const byPoint = new Map<string, MapVenue>();
  for (const event of matching) {
    const point = event.coordinates;
    if (!point || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) continue;
    const id = `${point.lat.toFixed(5)},${point.lng.toFixed(5)}`;
    let venue = byPoint.get(id);
    if (!venue) {
      venue = {
        lat: Number(point.lat.toFixed(5)),
        lng: Number(point.lng.toFixed(5)),
        venue: isUnknownLocation(event.location) ? arrondissementShortLabel(event.arrondissement) : (event.location ?? ""),
        arr: event.arrondissement,
        events: [],
      };
      byPoint.set(id, venue);
    }
    const when = `${formatDateLabel(event.date)} · ${formatTimeLabel(event.time, event.endTime)}`;
    // The status leads the line, so a cancelled or moved event reads so on the map too.
    venue.events.push({ k: event.eventKey, s: event.slug, n: event.eventName, w: event.status === "scheduled" ? when : `${t(`status.${event.status}`)} · ${when}` });
  }
  return [...byPoint.values()];
}

/** The 20 arrondissements with the filtered event count of each. */
export function mapAreas(matching: readonly LiveEvent[], selected: readonly (number | "unknown")[]): MapArea[] {
  const counts = new Map<number, number>();
  for (const event of matching) {
    if (typeof event.arrondissement === "number") counts.set(event.arrondissement, (counts.get(event.arrondissement) ?? 0) + 1);
  }
  const areas: MapArea[] = [];
  for (let arr = 1; arr <= 20; arr++) {
    const centre = arrondissementCentre(arr);
    areas.push({ arr, label: centre.label ?? arrondissementShortLabel(arr), lat: centre.lat, lng: centre.lng, count: counts.get(arr) ?? 0, selected: selected.includes(arr) });
  }
  return areas;
}
