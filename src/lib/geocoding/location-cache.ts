// The coordinate cache document kept in KV under maps:locations:v1: ids, eligibility and entry
// builders (see docs/live-events.md, "The cache").

import type { Arrondissement, Coordinates } from "../sheet/types.ts";
import { ARRONDISSEMENT_CENTRES } from "../sheet/arrondissement.ts";
import { isUnknownLocation } from "../sheet/location.ts";
import type { GeocodeResult } from "./geocoder.ts";

/** KV key of the coordinate cache document. */
export const LOCATIONS_KV_KEY = "maps:locations:v1";
/** Document version this code reads and writes; any other version is treated as an empty cache. */
export const LOCATIONS_CACHE_VERSION = "1.0.0";
/** Confidence given to an arrondissement-centre fallback. */
export const FALLBACK_CONFIDENCE = 0.5;

/** Where a stored position came from; `manual` entries are never re-geocoded. */
export type LocationSource = "geocoded" | "estimated" | "manual";

/** One cached venue position: id, name, arrondissement, coordinates, confidence, source, lastUpdated, and the failure record of an estimate. */
export interface StoredLocation {
  id: string;
  name: string;
  arrondissement: number | "unknown";
  coordinates: Coordinates;
  confidence: number;
  source: LocationSource;
  lastUpdated: string;
  /** Estimated entries: when the provider last failed to resolve the venue (ISO). */
  lastAttemptAt?: string;
  /** Estimated entries: failed lookups in a row; sets the back-off before the next one. */
  failedAttempts?: number;
}

/** The whole KV value. */
export interface LocationsDocument {
  version: string;
  lastUpdated: string;
  locations: Record<string, StoredLocation>;
}

/** What reading a raw KV value found; `discarded` says why the stored value could not be used as is. */
export interface ReadLocationsDocument {
  document: LocationsDocument;
  discarded: { reason: "version"; found: string } | { reason: "shape" } | null;
  droppedEntries: number;
}

const SOURCES: ReadonlySet<string> = new Set<string>(["geocoded", "estimated", "manual"]);

/** Cache id of a venue: name lower-cased, trimmed, whitespace runs → `_`, then `_<arrondissement>`. */
export function locationId(name: string, arrondissement: number | "unknown"): string {
  return `${name.trim().toLowerCase().replace(/\s+/g, "_")}_${arrondissement}`;
}

/** A venue is eligible when it has a real name (not TBA/TBC) and an arrondissement 1–20. */
export function isEligibleLocation(location: string | undefined, arrondissement: Arrondissement): arrondissement is number {
  if (location === undefined || isUnknownLocation(location)) return false;
  return typeof arrondissement === "number" && Number.isInteger(arrondissement) && arrondissement >= 1 && arrondissement <= 20;
}

/** A fresh document with no entries. */
export function emptyLocationsDocument(now: Date): LocationsDocument {
  return { version: LOCATIONS_CACHE_VERSION, lastUpdated: now.toISOString(), locations: {} };
}

function isStoredLocation(value: unknown): value is StoredLocation {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Partial<StoredLocation>;
  const point = entry.coordinates as Partial<Coordinates> | undefined;
  return (
    typeof entry.name === "string" &&
    typeof entry.source === "string" &&
    SOURCES.has(entry.source) &&
    typeof point === "object" &&
    point !== null &&
    typeof point.lat === "number" &&
    typeof point.lng === "number" &&
    Number.isFinite(point.lat) &&
    Number.isFinite(point.lng) &&
    (entry.lastAttemptAt === undefined || (typeof entry.lastAttemptAt === "string" && !Number.isNaN(Date.parse(entry.lastAttemptAt)))) &&
    (entry.failedAttempts === undefined || (Number.isInteger(entry.failedAttempts) && entry.failedAttempts >= 0))
  );
}

/** Validates a raw KV value; a foreign version or shape gives an empty document, unusable entries are dropped. */
export function readLocationsDocument(value: unknown, now: Date): ReadLocationsDocument {
  if (value === undefined || value === null) return { document: emptyLocationsDocument(now), discarded: null, droppedEntries: 0 };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { document: emptyLocationsDocument(now), discarded: { reason: "shape" }, droppedEntries: 0 };
  }
  const raw = value as { version?: unknown; lastUpdated?: unknown; locations?: unknown };
  if (raw.version !== LOCATIONS_CACHE_VERSION) {
    return { document: emptyLocationsDocument(now), discarded: { reason: "version", found: String(raw.version) }, droppedEntries: 0 };
  }
  if (typeof raw.locations !== "object" || raw.locations === null || Array.isArray(raw.locations)) {
    return { document: emptyLocationsDocument(now), discarded: { reason: "shape" }, droppedEntries: 0 };
  }
  const locations: Record<string, StoredLocation> = {};
  let droppedEntries = 0;
  for (const [id, entry] of Object.entries(raw.locations)) {
    if (isStoredLocation(entry)) locations[id] = entry;
    else droppedEntries++;
  }
  const lastUpdated = typeof raw.lastUpdated === "string" ? raw.lastUpdated : now.toISOString();
  return { document: { version: LOCATIONS_CACHE_VERSION, lastUpdated, locations }, discarded: null, droppedEntries };
}

/** The arrondissement-centre fallback entry (source estimated, confidence 0.5). */
export function createEstimatedLocation(name: string, arrondissement: number, now: Date): StoredLocation {
  const centre = ARRONDISSEMENT_CENTRES[arrondissement];
  if (!centre) throw new RangeError(`No centre for arrondissement ${arrondissement}`);
  return {
    id: locationId(name, arrondissement),
    name: name.trim(),
    arrondissement,
    coordinates: { lat: centre.lat, lng: centre.lng },
    confidence: FALLBACK_CONFIDENCE,
    source: "estimated",
    lastUpdated: now.toISOString(),
  };
}

/** The entry stored for a successful geocode (source geocoded). */
export function createGeocodedLocation(name: string, arrondissement: number, result: GeocodeResult, now: Date): StoredLocation {
  return {
    id: locationId(name, arrondissement),
    name: name.trim(),
    arrondissement,
    coordinates: { lat: result.coordinates.lat, lng: result.coordinates.lng },
    confidence: result.confidence,
    source: "geocoded",
    lastUpdated: now.toISOString(),
  };
}
