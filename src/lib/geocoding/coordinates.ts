// Coordinates: live reads fill event positions from the KV cache only (never the provider); the
// warm-up geocodes, upgrades estimates and prunes, remembering failures so a venue that does not
// resolve is retried with a growing back-off (see docs/live-events.md, "Coordinates").

import type { Coordinates, LiveEvent } from "../sheet/types.ts";
import type { Kv } from "../kv.ts";
import { memoisedPerObject } from "../memo/memo.ts";
import { ARRONDISSEMENT_CENTRES } from "../sheet/arrondissement.ts";
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
}

/** Per-run counts; the four resolution counts are per distinct venue, skippedIneligible is per event. */
export interface PopulationCounts {
  /** Venues served from an existing cache entry (including estimates kept after a failed upgrade). */
  fromCache: number;
  /** Venues missing from the cache and geocoded now (warm-up only). */
  geocodedFresh: number;
  /** Estimated entries replaced by a geocoded position (warm-up only). */
  upgraded: number;
  /** Venues missing from the cache that got the arrondissement centre. */
  arrondissementFallback: number;
  /** Events without coordinates whose venue is not eligible. */
  skippedIneligible: number;
}

/** Warm-up counts: population plus entries pruned and estimates left alone while in back-off. */
export interface WarmUpCounts extends PopulationCounts {
  pruned: number;
  /** Estimated venues not sent to the provider because their last failure is too recent. */
  backedOff: number;
}

/** What a warm-up may do beyond the default. */
export interface WarmUpOptions {
  /** Retry every estimated venue now, whatever its back-off (the explicit recovery action). */
  retryFailed?: boolean;
  /** Hears how many of the venues to geocode are done (console progress bars). */
  onProgress?: (done: number, total: number) => void;
}

/** The event fields population reads and writes. */
export type PlaceableEvent = Pick<LiveEvent, "location" | "arrondissement" | "coordinates">;

/** First wait after a failed lookup of a venue; doubles with each further failure. */
export const GEOCODE_RETRY_BASE_MS = 60 * 60 * 1000;
/** Longest wait between two lookups of a venue that keeps failing: one day. */
export const GEOCODE_RETRY_MAX_MS = 24 * 60 * 60 * 1000;

/** When an estimated entry may next be sent to the provider (`undefined`: now, it was never tried). */
export function nextAttemptAt(entry: StoredLocation): Date | undefined {
  if (!entry.lastAttemptAt || !entry.failedAttempts) return undefined;
  const wait = Math.min(GEOCODE_RETRY_BASE_MS * 2 ** (entry.failedAttempts - 1), GEOCODE_RETRY_MAX_MS);
  return new Date(Date.parse(entry.lastAttemptAt) + wait);
}

function zeroCounts(): PopulationCounts {
  return { fromCache: 0, geocodedFresh: 0, upgraded: 0, arrondissementFallback: 0, skippedIneligible: 0 };
}

interface Venues {
  pairs: ReadonlyMap<string, LocationQuery>;
  eligibleIds: ReadonlySet<string>;
  /** By the list's index: the venue id of each eligible event still without coordinates. */
  missingIds: readonly (string | undefined)[];
  skippedIneligible: number;
}

/**
 * Venues per event list. The store source hands every live read the same built list while the
 * store is unchanged, so the venue ids (a folded, hashed name per event) are worked out once per
 * list instead of on every read. Lists are never changed once built; the results are read-only.
 */
const venuesOfList = memoisedPerObject((events: readonly PlaceableEvent[]): Venues => {
  const pairs = new Map<string, LocationQuery>();
  const eligibleIds = new Set<string>();
  const missingIds: (string | undefined)[] = [];
  let skippedIneligible = 0;
  for (const event of events) {
    const eligible = isEligibleLocation(event.location, event.arrondissement);
    const id = eligible ? locationId(event.location!, event.arrondissement as number) : undefined;
    if (id) eligibleIds.add(id);
    missingIds.push(event.coordinates ? undefined : id);
    if (event.coordinates) continue;
    if (!id) skippedIneligible++;
    else if (!pairs.has(id)) pairs.set(id, { name: event.location!.trim(), arrondissement: event.arrondissement as number });
  }
  return { pairs, eligibleIds, missingIds, skippedIneligible };
});

/** Distinct eligible venues of the events still without coordinates, and the ids of every eligible venue. */
function venuesOf(events: readonly PlaceableEvent[], counts: PopulationCounts): Venues {
  const venues = venuesOfList(events);
  counts.skippedIneligible += venues.skippedIneligible;
  return venues;
}

function centreOf(arrondissement: number): Coordinates {
  const centre = ARRONDISSEMENT_CENTRES[arrondissement]!;
  return { lat: centre.lat, lng: centre.lng };
}

/**
 * A copy of every event, with the resolved point of each one still without coordinates. Always
 * new objects, so a live read can write its projections into them: one copy per event and read.
 * The venue ids come from the list's memo (venuesOf), not worked out again per read.
 */
function fill<E extends PlaceableEvent>(events: readonly E[], resolved: ReadonlyMap<string, Coordinates>, missingIds: readonly (string | undefined)[]): E[] {
  return events.map((event, index) => {
    const id = missingIds[index];
    const point = id === undefined ? undefined : resolved.get(id);
    return point ? { ...event, coordinates: { lat: point.lat, lng: point.lng } } : { ...event };
  });
}

/**
 * Every eligible event without coordinates gets its arrondissement centre; nothing is read or
 * written. Live reads use it when the coordinate cache cannot be read (the database is down).
 */
export function centreCoordinates<E extends PlaceableEvent>(events: readonly E[]): E[] {
  const resolved = new Map<string, Coordinates>();
  const venues = venuesOf(events, zeroCounts());
  for (const [id, query] of venues.pairs) resolved.set(id, centreOf(query.arrondissement));
  return fill(events, resolved, venues.missingIds);
}

/**
 * The live-read step: fills missing coordinates from the cache, one KV read, no write and never a
 * provider call. The events come back as new objects (the caller may write into them). A venue
 * missing from the cache gets its arrondissement centre for this read; the next warm-up geocodes
 * it. KV errors propagate.
 */
export async function populateCoordinates<E extends PlaceableEvent>(
  events: readonly E[],
  deps: Pick<CoordinateDeps, "kv" | "log" | "now">,
): Promise<{ events: E[]; counts: PopulationCounts }> {
  const counts = zeroCounts();
  const venues = venuesOf(events, counts);
  const { pairs } = venues;
  if (pairs.size === 0) return { events: fill(events, new Map(), venues.missingIds), counts };
  // A foreign or damaged document reads as empty here; the warm-up logs and replaces it.
  const cached = readLocationsDocument(await deps.kv.get<unknown>(LOCATIONS_KV_KEY), (deps.now ?? (() => new Date()))()).document.locations;
  const resolved = new Map<string, Coordinates>();
  for (const [id, query] of pairs) {
    const existing = cached[id];
    if (existing) {
      resolved.set(id, existing.coordinates);
      counts.fromCache++;
    } else {
      resolved.set(id, centreOf(query.arrondissement));
      counts.arrondissementFallback++;
    }
  }
  deps.log.info("geocoding", "Coordinates populated", { ...counts });
  return { events: fill(events, resolved, venues.missingIds), counts };
}

function applyChanges(
  current: unknown,
  stamp: Date,
  changes: ReadonlyMap<string, StoredLocation>,
  keepOnly: ReadonlySet<string>,
): LocationsDocument {
  // Merged into the value read under the row lock, so a concurrent run's new entries survive.
  const locations = { ...readLocationsDocument(current, stamp).document.locations };
  for (const [id, entry] of changes) locations[id] = entry;
  for (const id of Object.keys(locations)) if (!keepOnly.has(id)) delete locations[id];
  return { version: LOCATIONS_CACHE_VERSION, lastUpdated: stamp.toISOString(), locations };
}

/**
 * The warm-up: geocodes venues missing from the cache, upgrades estimates whose back-off has
 * passed (all of them with `retryFailed`), records each failure (`lastAttemptAt`,
 * `failedAttempts`) and prunes entries of venues no longer present. Reads the cache once and
 * writes it once, only when something changed. Used by publishing, deploy revalidation, the
 * `warm-coordinates` task and the recovery action; a missing API key is logged as a warning.
 */
export async function warmCoordinates<E extends PlaceableEvent>(
  events: readonly E[],
  deps: CoordinateDeps,
  options: WarmUpOptions = {},
): Promise<{ events: E[]; counts: WarmUpCounts }> {
  if (deps.testMode !== true && !deps.apiKey?.trim()) {
    deps.log.warn("geocoding", "Geocoding API key is not configured - using arrondissement centres");
  }
  const stamp = (deps.now ?? (() => new Date()))();
  const counts = zeroCounts();
  const venues = venuesOf(events, counts);
  const { pairs, eligibleIds } = venues;

  const read = readLocationsDocument(await deps.kv.get<unknown>(LOCATIONS_KV_KEY), stamp);
  logCacheRead(deps, read);
  const cached = read.document.locations;
  const canGeocode = deps.testMode !== true && Boolean(deps.apiKey?.trim());
  const plan = planWarmUp(pairs, cached, { canGeocode, retryFailed: options.retryFailed === true, stamp }, counts);
  const geocodeFailures = plan.toGeocode.size > 0 ? await geocodeDue(plan, deps, options, stamp, counts) : 0;

  const pruned = Object.keys(cached).filter((id) => !eligibleIds.has(id)).length;
  if (plan.changes.size > 0 || pruned > 0 || read.discarded !== null || read.droppedEntries > 0) {
    await deps.kv.update<unknown>(LOCATIONS_KV_KEY, (current) => applyChanges(current, stamp, plan.changes, eligibleIds));
  }
  const warmCounts: WarmUpCounts = { ...counts, pruned, backedOff: plan.backedOff };
  deps.log.info("geocoding", "Coordinates warmed", { ...warmCounts, geocodeFailures });
  return { events: fill(events, plan.resolved, venues.missingIds), counts: warmCounts };
}

/** What a warm-up resolves, writes and still has to geocode. */
interface WarmPlan {
  resolved: Map<string, Coordinates>;
  changes: Map<string, StoredLocation>;
  toGeocode: Map<LocationQuery, { id: string; existing?: StoredLocation }>;
  /** Estimates whose back-off has not passed. */
  backedOff: number;
}

/** Warns about a cache document that was discarded or had invalid entries. */
function logCacheRead(deps: CoordinateDeps, read: ReturnType<typeof readLocationsDocument>): void {
  if (read.discarded?.reason === "version") {
    // The rewrite at the end of this run replaces the foreign document, so this is logged once.
    deps.log.warn("geocoding", "Coordinate cache has an unknown version - starting from an empty cache", { found: read.discarded.found });
  } else if (read.discarded) {
    deps.log.warn("geocoding", "Coordinate cache is not a valid document - starting from an empty cache");
  } else if (read.droppedEntries > 0) {
    deps.log.warn("geocoding", "Dropped invalid coordinate cache entries", { count: read.droppedEntries });
  }
}

/** Sorts the venues: cached (and estimates still backing off) resolve now, due ones are geocoded, the rest get the centre. */
function planWarmUp(
  pairs: ReadonlyMap<string, LocationQuery>,
  cached: Readonly<Record<string, StoredLocation>>,
  rules: { canGeocode: boolean; retryFailed: boolean; stamp: Date },
  counts: PopulationCounts,
): WarmPlan {
  const { canGeocode, stamp } = rules;
  const plan: WarmPlan = { resolved: new Map(), changes: new Map(), toGeocode: new Map(), backedOff: 0 };
  for (const [id, query] of pairs) {
    const existing = cached[id];
    const next = existing ? nextAttemptAt(existing) : undefined;
    const due = existing?.source === "estimated" && canGeocode && (rules.retryFailed || next === undefined || next <= stamp);
    if (existing && !due) {
      if (existing.source === "estimated" && canGeocode) plan.backedOff++;
      plan.resolved.set(id, existing.coordinates);
      counts.fromCache++;
    } else if (canGeocode) {
      plan.toGeocode.set(query, { id, existing });
    } else {
      const fallback = createEstimatedLocation(query.name, query.arrondissement, stamp);
      plan.changes.set(id, fallback);
      plan.resolved.set(id, fallback.coordinates);
      counts.arrondissementFallback++;
    }
  }
  return plan;
}

/** Geocodes the due venues: successes are stored, failures keep (or get) an estimate and count an attempt. Returns the failures. */
async function geocodeDue(plan: WarmPlan, deps: CoordinateDeps, options: WarmUpOptions, stamp: Date, counts: PopulationCounts): Promise<number> {
  const { toGeocode, changes, resolved } = plan;
  options.onProgress?.(0, toGeocode.size);
  const batch = await geocodeBatch([...toGeocode.keys()], deps, options.onProgress);
  for (const { address, result } of batch.successful) {
    const { id, existing } = toGeocode.get(address)!;
    const entry = createGeocodedLocation(address.name, address.arrondissement, result, stamp);
    changes.set(id, entry);
    resolved.set(id, entry.coordinates);
    if (existing) counts.upgraded++;
    else counts.geocodedFresh++;
  }
  for (const { address, category } of batch.failed) {
    const { id, existing } = toGeocode.get(address)!;
    const estimate = existing ?? createEstimatedLocation(address.name, address.arrondissement, stamp);
    // A refused key or project says nothing about the venue: it is not counted against it.
    const attempt = category === "CONFIG_ERROR" ? {} : { lastAttemptAt: stamp.toISOString(), failedAttempts: (existing?.failedAttempts ?? 0) + 1 };
    changes.set(id, { ...estimate, ...attempt });
    resolved.set(id, estimate.coordinates);
    if (existing) counts.fromCache++;
    else counts.arrondissementFallback++;
  }
  const fatal = batch.failed.find((failure) => failure.category === "CONFIG_ERROR");
  if (fatal) deps.log.warn("geocoding", GEOCODING_UNAVAILABLE_MESSAGE, { reason: fatal.message });
  return batch.failed.length;
}
