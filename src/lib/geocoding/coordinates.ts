// Coordinate population and warm-up: fills event coordinates from the KV cache, geocoding or
// arrondissement centres (see docs/live-events.md, "Coordinates").

import type { Coordinates, LiveEvent } from "../sheet/types.ts";
import type { Kv } from "../kv.ts";
import { geocodeBatch } from "./batch.ts";
import type { GeocoderOptions, LocationQuery } from "./geocoder.ts";
import {
  createEstimatedLocation,
  createGeocodedLocation,
  isEligibleLocation,
  locationId,
  LOCATIONS_CACHE_VERSION,
  LOCATIONS_KV_KEY,
  readLocationsDocument,
  type LocationsDocument,
  type StoredLocation,
} from "./location-cache.ts";

/** The warning logged once per run when the provider refuses the key or project. */
export const GEOCODING_UNAVAILABLE_MESSAGE = "Geocoding API unavailable - using arrondissement centres for the rest of this run";

/** What population and warm-up need: the KV store, the geocoder options and a clock. */
export interface CoordinateDeps extends GeocoderOptions {
  kv: Kv;
  now?: () => Date;
  /** Test mode never calls the geocoding API (missing entries get the centre fallback). */
  testMode?: boolean;
  /** Hears how many of the venues to geocode are done (console progress bars). */
  onProgress?: (done: number, total: number) => void;
}

/** Per-run counts; the four resolution counts are per distinct venue, skippedIneligible is per event. */
export interface PopulationCounts {
  /** Venues served from an existing cache entry (including estimates kept after a failed upgrade). */
  fromCache: number;
  /** Venues missing from the cache and geocoded now. */
  geocodedFresh: number;
  /** Estimated entries replaced by a geocoded position. */
  upgraded: number;
  /** Venues missing from the cache that got the arrondissement centre. */
  arrondissementFallback: number;
  /** Events without coordinates whose venue is not eligible. */
  skippedIneligible: number;
}

/** Warm-up counts: population plus the number of cache entries pruned. */
export interface WarmUpCounts extends PopulationCounts {
  pruned: number;
}

/** The event fields population reads and writes. */
export type PlaceableEvent = Pick<LiveEvent, "location" | "arrondissement" | "coordinates">;

interface RunOutcome<E> {
  events: E[];
  counts: PopulationCounts;
  pruned: number;
  geocodeFailures: number;
}

function zeroCounts(): PopulationCounts {
  return { fromCache: 0, geocodedFresh: 0, upgraded: 0, arrondissementFallback: 0, skippedIneligible: 0 };
}

function applyChanges(
  current: unknown,
  stamp: Date,
  changes: ReadonlyMap<string, StoredLocation>,
  keepOnly: ReadonlySet<string> | null,
): LocationsDocument {
  // Merged into the value read under the row lock, so a concurrent run's new entries survive.
  const locations = { ...readLocationsDocument(current, stamp).document.locations };
  for (const [id, entry] of changes) locations[id] = entry;
  if (keepOnly) {
    for (const id of Object.keys(locations)) if (!keepOnly.has(id)) delete locations[id];
  }
  return { version: LOCATIONS_CACHE_VERSION, lastUpdated: stamp.toISOString(), locations };
}

async function run<E extends PlaceableEvent>(events: readonly E[], deps: CoordinateDeps, prune: boolean): Promise<RunOutcome<E>> {
  const stamp = (deps.now ?? (() => new Date()))();
  const counts = zeroCounts();
  const pairs = new Map<string, LocationQuery>();
  const eligibleIds = new Set<string>();

  for (const event of events) {
    const eligible = isEligibleLocation(event.location, event.arrondissement);
    const id = eligible ? locationId(event.location!, event.arrondissement as number) : undefined;
    if (id) eligibleIds.add(id);
    if (event.coordinates) continue;
    if (!id) counts.skippedIneligible++;
    else if (!pairs.has(id)) pairs.set(id, { name: event.location!.trim(), arrondissement: event.arrondissement as number });
  }
  if (pairs.size === 0 && !prune) return { events: [...events], counts, pruned: 0, geocodeFailures: 0 };

  const read = readLocationsDocument(await deps.kv.get<unknown>(LOCATIONS_KV_KEY), stamp);
  if (read.discarded?.reason === "version") {
    // The rewrite at the end of this run replaces the foreign document, so this is logged once.
    deps.log.warn("geocoding", "Coordinate cache has an unknown version - starting from an empty cache", { found: read.discarded.found });
  } else if (read.discarded) {
    deps.log.warn("geocoding", "Coordinate cache is not a valid document - starting from an empty cache");
  } else if (read.droppedEntries > 0) {
    deps.log.warn("geocoding", "Dropped invalid coordinate cache entries", { count: read.droppedEntries });
  }
  const cached = read.document.locations;
  const canGeocode = deps.testMode !== true && Boolean(deps.apiKey?.trim());
  const resolved = new Map<string, Coordinates>();
  const changes = new Map<string, StoredLocation>();
  const toGeocode = new Map<LocationQuery, { id: string; existing?: StoredLocation }>();

  for (const [id, query] of pairs) {
    const existing = cached[id];
    if (existing && (existing.source !== "estimated" || !canGeocode)) {
      resolved.set(id, existing.coordinates);
      counts.fromCache++;
    } else if (canGeocode) {
      toGeocode.set(query, { id, existing });
    } else {
      const fallback = createEstimatedLocation(query.name, query.arrondissement, stamp);
      changes.set(id, fallback);
      resolved.set(id, fallback.coordinates);
      counts.arrondissementFallback++;
    }
  }

  let geocodeFailures = 0;
  if (toGeocode.size > 0) {
    deps.onProgress?.(0, toGeocode.size);
    const batch = await geocodeBatch([...toGeocode.keys()], deps, deps.onProgress);
    for (const { address, result } of batch.successful) {
      const { id, existing } = toGeocode.get(address)!;
      const entry = createGeocodedLocation(address.name, address.arrondissement, result, stamp);
      changes.set(id, entry);
      resolved.set(id, entry.coordinates);
      if (existing) counts.upgraded++;
      else counts.geocodedFresh++;
    }
    for (const { address } of batch.failed) {
      const { id, existing } = toGeocode.get(address)!;
      if (existing) {
        resolved.set(id, existing.coordinates);
        counts.fromCache++;
      } else {
        const fallback = createEstimatedLocation(address.name, address.arrondissement, stamp);
        changes.set(id, fallback);
        resolved.set(id, fallback.coordinates);
        counts.arrondissementFallback++;
      }
    }
    geocodeFailures = batch.failed.length;
    const fatal = batch.failed.find((failure) => failure.category === "CONFIG_ERROR");
    if (fatal) deps.log.warn("geocoding", GEOCODING_UNAVAILABLE_MESSAGE, { reason: fatal.message });
  }

  const pruned = prune ? Object.keys(cached).filter((id) => !eligibleIds.has(id)).length : 0;
  if (changes.size > 0 || pruned > 0 || read.discarded !== null || read.droppedEntries > 0) {
    await deps.kv.update<unknown>(LOCATIONS_KV_KEY, (current) => applyChanges(current, stamp, changes, prune ? eligibleIds : null));
  }

  const filled = events.map((event) => {
    if (event.coordinates || !isEligibleLocation(event.location, event.arrondissement)) return event;
    const point = resolved.get(locationId(event.location!, event.arrondissement));
    return point ? { ...event, coordinates: { lat: point.lat, lng: point.lng } } : event;
  });
  return { events: filled, counts, pruned, geocodeFailures };
}

/**
 * Fills missing coordinates of eligible events. Reads the cache once and writes it once, only when
 * something changed. Geocoding failures become centre fallbacks; KV errors propagate.
 */
export async function populateCoordinates<E extends PlaceableEvent>(
  events: readonly E[],
  deps: CoordinateDeps,
): Promise<{ events: E[]; counts: PopulationCounts }> {
  const outcome = await run(events, deps, false);
  deps.log.info("geocoding", "Coordinates populated", { ...outcome.counts, geocodeFailures: outcome.geocodeFailures });
  return { events: outcome.events, counts: outcome.counts };
}

/**
 * Population plus prune: cache entries whose id is not an eligible venue of `events` are deleted.
 * Used on admin writes and deploy revalidation; a missing API key is logged as a warning.
 */
export async function warmCoordinates<E extends PlaceableEvent>(
  events: readonly E[],
  deps: CoordinateDeps,
): Promise<{ events: E[]; counts: WarmUpCounts }> {
  if (deps.testMode !== true && !deps.apiKey?.trim()) {
    deps.log.warn("geocoding", "Geocoding API key is not configured - using arrondissement centres");
  }
  const outcome = await run(events, deps, true);
  const counts = { ...outcome.counts, pruned: outcome.pruned };
  deps.log.info("geocoding", "Coordinates warmed", { ...counts, geocodeFailures: outcome.geocodeFailures });
  return { events: outcome.events, counts };
}
