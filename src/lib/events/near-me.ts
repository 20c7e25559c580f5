// "Near me" (docs/filters-and-search.md, "Near me"): which of the filtered events the panel offers at
// a clock reading, and those events grouped per venue. The visitor's position never reaches the
// server: the browser measures the distance to each venue and orders them (static/app.js); this
// module decides what is worth walking to and how it is grouped. The map uses the same venue rule.

import { arrondissementCentre, arrondissementShortLabel } from "../sheet/arrondissement.ts";
import { isUnknownLocation } from "../sheet/location.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { locationId } from "../geocoding/location-cache.ts";
import type { EventFilters } from "./filter-query.ts";
import { eventSpan, hasEnded, isTodayAndOpen } from "./filter-moment.ts";

/**
 * Whether a position is only an estimate: the arrondissement's centre, which is what a venue gets
 * when it could not be geocoded (docs/live-events.md, "Coordinates").
 */
export function isEstimatedPosition(point: { lat: number; lng: number }, arrondissement: number | "unknown"): boolean {
  if (typeof arrondissement !== "number") return false;
  const centre = arrondissementCentre(arrondissement);
  return point.lat.toFixed(5) === centre.lat.toFixed(5) && point.lng.toFixed(5) === centre.lng.toFixed(5);
}

/**
 * The venue an event is at, as the coordinate cache keys it (name and arrondissement), so two venues
 * at one point keep their own names; an event without a known venue is grouped by its point and
 * named after its arrondissement. Null without coordinates.
 */
export function venueOf(event: Pick<LiveEvent, "location" | "arrondissement" | "coordinates">): { id: string; name: string; lat: number; lng: number; estimated: boolean } | null {
  const point = event.coordinates;
  if (!point || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) return null;
  const unknown = isUnknownLocation(event.location);
  return {
    id: unknown ? `?${point.lat.toFixed(5)},${point.lng.toFixed(5)}` : locationId(event.location ?? "", event.arrondissement),
    name: unknown ? arrondissementShortLabel(event.arrondissement) : (event.location ?? "").trim(),
    lat: Number(point.lat.toFixed(5)),
    lng: Number(point.lng.toFixed(5)),
    estimated: isEstimatedPosition(point, event.arrondissement),
  };
}

/**
 * What the panel lists: during the festival, today's events still to see (on now or later this
 * festival day, `isTodayAndOpen`), or, when the visitor chose dates, those dates' events not yet
 * ended; before and after the festival every filtered event, and the panel says so.
 */
export type NearScope = "today" | "dates" | "offSeason";

/** The events near me may offer, with the scope the panel names. Order kept. */
export function nearMeEvents(matching: readonly LiveEvent[], filters: Pick<EventFilters, "dateFrom" | "dateTo">, now: Date, festivalOn: boolean): { scope: NearScope; events: LiveEvent[] } {
  if (!festivalOn) return { scope: "offSeason", events: [...matching] };
  if (filters.dateFrom || filters.dateTo) return { scope: "dates", events: matching.filter((event) => !hasEnded(event, now)) };
  return { scope: "today", events: matching.filter((event) => isTodayAndOpen(event, now)) };
}

/** One venue of the panel: its own name, position, whether the position is an estimate, its events. */
export interface NearVenue {
  id: string;
  name: string;
  arrondissement: number | "unknown";
  lat: number;
  lng: number;
  estimated: boolean;
  events: LiveEvent[];
}

function startOf(event: LiveEvent): number {
  return eventSpan(event)?.start ?? Number.POSITIVE_INFINITY;
}

/**
 * The events grouped per venue (events without coordinates are left out). Inside a venue, events by
 * start (what is on first, then what comes next; ties by name), cancelled ones last; venues by their
 * first event's start. The browser then orders the venues by distance.
 */
export function nearVenues(events: readonly LiveEvent[]): NearVenue[] {
  const byVenue = new Map<string, NearVenue>();
  for (const event of events) {
    const venue = venueOf(event);
    if (!venue) continue;
    let group = byVenue.get(venue.id);
    if (!group) {
      group = { id: venue.id, name: venue.name, arrondissement: event.arrondissement, lat: venue.lat, lng: venue.lng, estimated: venue.estimated, events: [] };
      byVenue.set(venue.id, group);
    }
    group.events.push(event);
  }
  const cancelled = (event: LiveEvent) => (event.status === "cancelled" ? 1 : 0);
  const venues = [...byVenue.values()];
  for (const venue of venues) venue.events.sort((a, b) => cancelled(a) - cancelled(b) || startOf(a) - startOf(b) || a.eventName.localeCompare(b.eventName));
  const firstStart = (venue: NearVenue) => Math.min(...venue.events.map(startOf));
  return venues.sort((a, b) => firstStart(a) - firstStart(b) || a.name.localeCompare(b.name));
}

/** Walking pace used for "N min on foot": 75 m a minute (4.5 km/h), sent to the browser with the panel. */
export const WALKING_METRES_PER_MINUTE = 75;

/** Most venues the panel shows (the nearest): a 5 km radius at 2,000 events stays a short page. */
export const NEAR_MAX_VENUES = 20;

/** Radii the panel offers, in km; the first is the default. */
export const NEAR_RADII_KM = [1, 3, 5] as const;

/**
 * How far past the radius an estimated venue's arrondissement centre may lie and still be listed:
 * the venue is somewhere in that arrondissement, up to about this far from its centre.
 */
export const ESTIMATE_SLACK_KM = 1;
