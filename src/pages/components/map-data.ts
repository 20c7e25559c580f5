// The map's data from the filtered events: venues with their events (markers and popups) and the 20
// arrondissements with their counts (the shaded outlines and the area list). Pure functions
// of one live read; the page embeds the result as JSON (see docs/public-pages.md, "Map").

import { arrondissementCentre, arrondissementShortLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateLabel } from "../../lib/sheet/dates.ts";
import { formatTimeLabel } from "../../lib/sheet/times.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { t } from "../../lib/i18n/index.ts";
import { isEstimatedPosition, venueOf } from "../../lib/events/near-me.ts";

/** One event in a map popup (short field names: this goes into the page as JSON). */
export interface MapEvent {
  k: string;
  s: string;
  n: string;
  /** Date and time label. */
  w: string;
}

/** One venue (name and arrondissement) with its events. */
export interface MapVenue {
  lat: number;
  lng: number;
  venue: string;
  arr: number | "unknown";
  /**
   * True when the position is only the arrondissement's centre (an estimate: no geocoded or manual
   * pin); the map then draws the venue as its arrondissement, not as a precise dot.
   */
  est: boolean;
  events: MapEvent[];
}

/** Events per arrondissement, for the shaded outlines and the area list. */
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

export { isEstimatedPosition };

/**
 * The filtered events grouped per venue (its name and arrondissement, as the coordinate cache keys
 * it), so two venues at the same point keep their own names; events without coordinates are left
 * out.
 */
export function mapVenues(matching: readonly LiveEvent[]): MapVenue[] {
  const byVenue = new Map<string, MapVenue>();
  for (const event of matching) {
    const place = venueOf(event);
    if (!place) continue;
    let venue = byVenue.get(place.id);
    if (!venue) {
      venue = { lat: place.lat, lng: place.lng, venue: place.name, arr: event.arrondissement, est: place.estimated, events: [] };
      byVenue.set(place.id, venue);
    }
    const when = `${formatDateLabel(event.date)} · ${formatTimeLabel(event.time, event.endTime)}`;
    // The status leads the line, so a cancelled or moved event reads so on the map too.
    venue.events.push({ k: event.eventKey, s: event.slug, n: event.eventName, w: event.status === "scheduled" ? when : `${t(`status.${event.status}`)} · ${when}` });
  }
  return [...byVenue.values()];
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
