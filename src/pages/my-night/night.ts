// "My night" (see docs/public-pages.md, "My night"): the reading of the `e` parameter (the saved
// event keys, kept by the browser and carried by share links), the time order of the saved events
// and the walking routes between them. Pure functions: the routes feed them one live read.

import { eventSpan } from "../../lib/events/filter-moment.ts";
import { normaliseEventKey } from "../../lib/sheet/keys.ts";
import { isUnknownLocation } from "../../lib/sheet/location.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { mapQuery } from "../components/event-links.ts";
import { MAX_NIGHT_EVENTS } from "../../lib/events/saved-night.ts";

/** The URL parameter holding the saved keys, comma-separated: `/my-night?e=evt_…,evt_…`. */
export const NIGHT_PARAM = "e";
/** Most events a night holds (lib/events/saved-night.ts, shared with the browser). */
export { MAX_NIGHT_EVENTS };
/** Characters of the parameter read at most (30 keys of 24 characters and commas fit easily). */
const MAX_PARAM_CHARS = 2000;
/** Stops per walking-route link: a Google Maps directions URL takes an origin, a destination and up to 9 waypoints. */
export const ROUTE_STOPS = 11;

/** What the `e` parameter holds: valid keys (lower-cased, first seen order, no repeats), and what was left out. */
export interface NightKeys {
  keys: string[];
  /** Parts that are not event keys at all (ignored). */
  malformed: number;
  /** Valid keys beyond MAX_NIGHT_EVENTS (ignored). */
  overCap: number;
}

/** Reads the `e` parameter; never throws, whatever the input. */
export function readNightKeys(raw: string | null | undefined): NightKeys {
  const keys: string[] = [];
  let malformed = 0;
  let overCap = 0;
  const seen = new Set<string>();
  for (const part of (raw ?? "").slice(0, MAX_PARAM_CHARS).split(",")) {
    if (part.trim() === "") continue;
    const key = normaliseEventKey(part);
    if (!key) {
      malformed++;
      continue;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    if (keys.length >= MAX_NIGHT_EVENTS) overCap++;
    else keys.push(key);
  }
  return { keys, malformed, overCap };
}

/** The night's address for a set of keys: `/my-night?e=k1,k2` (keys are URL-safe), `/my-night` when empty. */
export function nightPath(keys: readonly string[], suffix = ""): string {
  return keys.length === 0 ? `/my-night${suffix}` : `/my-night${suffix}?${NIGHT_PARAM}=${keys.join(",")}`;
}

/** The saved events that are listed, in time order (start, then name; undated last), and the keys no longer listed. */
export function nightEvents(events: readonly LiveEvent[], keys: readonly string[]): { events: LiveEvent[]; missing: string[] } {
  const byKey = new Map<string, LiveEvent>();
  for (const event of events) byKey.set(event.eventKey, event);
  const found: Array<{ event: LiveEvent; start: number }> = [];
  const missing: string[] = [];
  for (const key of keys) {
    const event = byKey.get(key);
    if (!event) missing.push(key);
    else found.push({ event, start: eventSpan(event)?.start ?? Number.POSITIVE_INFINITY });
  }
  found.sort((a, b) => (a.start === b.start ? a.event.eventName.localeCompare(b.event.eventName) : a.start < b.start ? -1 : 1));
  return { events: found.map((f) => f.event), missing };
}

/** One walking-route link: the stops it covers (1-based positions among the routed events) and its URL. */
export interface WalkingRoute {
  from: number;
  to: number;
  url: string;
}

/**
 * Walking directions through the events with a known venue, in time order, as Google Maps
 * directions links (which open the map app on a phone). More than ROUTE_STOPS stops are split into
 * several links, each starting where the previous one ended. Fewer than two stops give no route.
 */
export function walkingRoutes(events: readonly LiveEvent[]): { routes: WalkingRoute[]; unplaced: LiveEvent[] } {
  const placed = events.filter((event) => !isUnknownLocation(event.location));
  const unplaced = events.filter((event) => isUnknownLocation(event.location));
  const routes: WalkingRoute[] = [];
  if (placed.length < 2) return { routes, unplaced };
  for (let start = 0; start < placed.length - 1; start += ROUTE_STOPS - 1) {
    const stops = placed.slice(start, start + ROUTE_STOPS).map(mapQuery);
    const params = new URLSearchParams({ api: "1", origin: stops[0], destination: stops[stops.length - 1], travelmode: "walking" });
    if (stops.length > 2) params.set("waypoints", stops.slice(1, -1).join("|"));
    routes.push({ from: start + 1, to: start + stops.length, url: `https://www.google.com/maps/dir/?${params.toString()}` });
  }
  return { routes, unplaced };
}
