// Pins the team can fix (docs/live-events.md, "Coordinates", "Pins in the console"): the venues of
// the live events with where their pin comes from (geocoded, estimated, manual), its confidence,
// and whether it lies outside the arrondissement its row names; and setting a pin by hand
// (`manual`, which the warm-up never geocodes again). A new pin drops the homepage from the render
// cache so the public map follows at once.

import type { Kv } from "../kv.ts";
import type { Logger } from "../logger.ts";
import { HOMEPAGE, type InvalidationBus } from "../serving/invalidation.ts";
import { isInsideArrondissement } from "./arrondissement-outlines.ts";
import { arrondissementCentre } from "../sheet/arrondissement.ts";
import type { Coordinates, LiveEvent } from "../sheet/types.ts";
import { FALLBACK_CONFIDENCE, isEligibleLocation, LOCATIONS_KV_KEY, locationId, readLocationsDocument, type LocationSource, type StoredLocation } from "./location-cache.ts";

/** A manual pin's confidence: the team looked at it. */
export const MANUAL_CONFIDENCE = 1;

/** Where a pasted pin may be: Paris and its edge (a pin elsewhere is a typo or swapped numbers). */
export const PIN_BOUNDS = { minLat: 48.8, maxLat: 48.92, minLng: 2.22, maxLng: 2.48 } as const;

/** One venue of the live events and its pin. */
export interface VenuePin {
  id: string;
  name: string;
  arrondissement: number;
  lat: number;
  lng: number;
  source: LocationSource;
  confidence: number;
  /** The pin lies outside its arrondissement's outline (more than 15 m past the border). */
  outside: boolean;
  /** How many live events (occurrences) are at this venue. */
  eventCount: number;
  lastUpdated: string | null;
}

/** What listing and setting pins need (the app's deps satisfy it). */
export interface PinDeps {
  kv: Kv;
  /** The live reader (its `load`, without projections: only venues are needed). */
  events: { load(options: { includeFeaturedProjection: boolean; includeEngagementProjection: boolean }): Promise<{ events: readonly LiveEvent[] }> };
  invalidation: Pick<InvalidationBus, "invalidate">;
  log: Logger;
  now: () => Date;
}

/**
 * The venues of the live events with their pins, flagged first, then by arrondissement and name. A
 * venue not yet in the cache shows its arrondissement centre as an estimate (the next warm-up
 * stores it).
 */
export async function listVenuePins(deps: PinDeps): Promise<VenuePin[]> {
  const now = deps.now();
  const [{ events }, stored] = await Promise.all([deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false }), deps.kv.get<unknown>(LOCATIONS_KV_KEY)]);
  const cached = readLocationsDocument(stored, now).document.locations;
  const venues = new Map<string, VenuePin>();
  for (const event of events) {
    if (!isEligibleLocation(event.location, event.arrondissement)) continue;
    const id = locationId(event.location!, event.arrondissement);
    const known = venues.get(id);
    if (known) {
      known.eventCount++;
      continue;
    }
    const entry = cached[id];
    const point: Coordinates = entry?.coordinates ?? arrondissementCentre(event.arrondissement);
    venues.set(id, {
      id,
      name: event.location!.trim(),
      arrondissement: event.arrondissement,
      lat: point.lat,
      lng: point.lng,
      source: entry?.source ?? "estimated",
      confidence: entry?.confidence ?? FALLBACK_CONFIDENCE,
      outside: !isInsideArrondissement(point, event.arrondissement),
      eventCount: 1,
      lastUpdated: entry?.lastUpdated ?? null,
    });
  }
  return [...venues.values()].sort((a, b) => Number(b.outside) - Number(a.outside) || a.arrondissement - b.arrondissement || a.name.localeCompare(b.name, "fr"));
}

/**
 * Reads pasted coordinates: "48.8566, 2.3522" (latitude first, as map apps copy them), with a
 * comma, semicolon or spaces between; decimal points only. Null when it is not two numbers.
 */
export function parsePastedCoordinates(text: string): Coordinates | null {
  const match = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*[,; ]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  return { lat: Number(match[1]), lng: Number(match[2]) };
}

/** Why a pin cannot be set, or null when it can. */
export function pinIssue(point: Coordinates): string | null {
  if (!Number.isFinite(point.lat) || !Number.isFinite(point.lng)) return "Latitude and longitude must be numbers";
  const b = PIN_BOUNDS;
  if (point.lat < b.minLat || point.lat > b.maxLat || point.lng < b.minLng || point.lng > b.maxLng) {
    return `The pin must be in Paris (latitude ${b.minLat}–${b.maxLat}, longitude ${b.minLng}–${b.maxLng}); check the order: latitude first`;
  }
  return null;
}

/** The outcome of setting a pin: the venue's new pin, or why nothing changed. */
export type SetPinOutcome = { ok: true; pin: VenuePin } | { ok: false; reason: "invalid" | "not_found"; error: string };

/**
 * Sets a venue's pin by hand: source `manual`, confidence 1. The venue must be one of the live
 * events' venues; the point must be in Paris. Nothing changes on a refusal.
 */
export async function setManualPin(deps: PinDeps, id: string, point: Coordinates, actor?: string): Promise<SetPinOutcome> {
  const issue = pinIssue(point);
  if (issue) return { ok: false, reason: "invalid", error: issue };
  const venue = (await listVenuePins(deps)).find((v) => v.id === id);
  if (!venue) return { ok: false, reason: "not_found", error: "No live event is at this venue" };
  const stamp = deps.now();
  const coordinates = { lat: Number(point.lat.toFixed(6)), lng: Number(point.lng.toFixed(6)) };
  const entry: StoredLocation = { id, name: venue.name, arrondissement: venue.arrondissement, coordinates, confidence: MANUAL_CONFIDENCE, source: "manual", lastUpdated: stamp.toISOString() };
  await deps.kv.update<unknown>(LOCATIONS_KV_KEY, (current) => {
    const document = readLocationsDocument(current, stamp).document;
    return { ...document, lastUpdated: stamp.toISOString(), locations: { ...document.locations, [id]: entry } };
  });
  await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths], tags: [...HOMEPAGE.tags] });
  deps.log.info("geocoding", "Venue pin set by hand", { venue: id, arrondissement: venue.arrondissement, by: actor ?? null });
  return { ok: true, pin: { ...venue, lat: coordinates.lat, lng: coordinates.lng, source: "manual", confidence: MANUAL_CONFIDENCE, outside: !isInsideArrondissement(coordinates, venue.arrondissement), lastUpdated: entry.lastUpdated } };
}
