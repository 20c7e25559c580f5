// Coordinate cache, population and warm-up against an in-memory KV and the loopback fake provider.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ARRONDISSEMENT_CENTRES } from "../../../src/lib/sheet/arrondissement.ts";
import {
  centreCoordinates,
  GEOCODE_RETRY_MAX_MS,
  GEOCODING_UNAVAILABLE_MESSAGE,
  nextAttemptAt,
  populateCoordinates,
  warmCoordinates,
  type CoordinateDeps,
  type PlaceableEvent,
} from "../../../src/lib/geocoding/coordinates.ts";
import {
  isEligibleLocation,
  locationId,
  LOCATIONS_KV_KEY,
  readLocationsDocument,
  type LocationsDocument,
  type StoredLocation,
} from "../../../src/lib/geocoding/location-cache.ts";
import type { Arrondissement } from "../../../src/lib/sheet/types.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import { createMemoryKv, startFakeGeocoder, type FakeGeocoder } from "./fake-geocoder.ts";

let fake: FakeGeocoder;
beforeAll(() => {
  fake = startFakeGeocoder();
});
afterAll(() => fake.stop());

const NOW = new Date("2026-06-01T10:00:00.000Z");
const EARLIER = "2026-05-01T00:00:00.000Z";

/** The fallback centre of arrondissement `n` as a bare point. */
function centre(n: number) {
  const { lat, lng } = ARRONDISSEMENT_CENTRES[n]!;
  return { lat, lng };
}

function event(location: string | undefined, arrondissement: Arrondissement, extra: Partial<PlaceableEvent> = {}): PlaceableEvent & { title: string } {
  return { title: `${location} ${arrondissement}`, location, arrondissement, ...extra };
}

function stored(name: string, arrondissement: number, source: StoredLocation["source"], lat = 48.87, lng = 2.33): StoredLocation {
  return { id: locationId(name, arrondissement), name, arrondissement, coordinates: { lat, lng }, confidence: 0.9, source, lastUpdated: EARLIER };
}

function documentOf(...entries: StoredLocation[]): LocationsDocument {
  return { version: "1.0.0", lastUpdated: EARLIER, locations: Object.fromEntries(entries.map((e) => [e.id, e])) };
}

function setup(opts: { cache?: unknown; apiKey?: string; testMode?: boolean } = {}) {
  const kv = createMemoryKv(opts.cache === undefined ? {} : { [LOCATIONS_KV_KEY]: opts.cache });
  const log = createMemoryLogger();
  const deps: CoordinateDeps = { kv, log, apiKey: opts.apiKey, apiUrl: fake.url, testMode: opts.testMode, now: () => NOW };
  const requestsBefore = fake.requests.length;
  return {
    kv,
    log,
    deps,
    requests: () => fake.requests.length - requestsBefore,
    doc: () => kv.data.get(LOCATIONS_KV_KEY) as LocationsDocument,
    logged: (level: string) => log.lines.filter((l) => l.level === level).map((l) => JSON.parse(l.line)),
  };
}

describe("locationId", () => {
  test.each([
    ["Movida Club", 9, "movida_club_9"],
    ["  Le   Petit\tBain ", 13, "le_petit_bain_13"],
    ["CAFÉ Oz", 1, "café_oz_1"],
  ])("%p, %d → %s", (name, n, id) => {
    expect(locationId(name, n)).toBe(id);
  });
});

describe("isEligibleLocation", () => {
  test.each([
    ["Movida Club", 9, true],
    ["Movida Club", 20, true],
    ["Movida Club", 1, true],
    [undefined, 9, false],
    ["", 9, false],
    ["   ", 9, false],
    ["TBA", 9, false],
    ["tbc", 9, false],
    ["Location TBA", 9, false],
    [" location  tbc ", 9, false],
    ["TBA Club", 9, true],
    ["Movida Club", "unknown", false],
    ["Movida Club", 0, false],
    ["Movida Club", 21, false],
    ["Movida Club", 9.5, false],
  ] as const)("%p in %p → %p", (location, arrondissement, expected) => {
    expect(isEligibleLocation(location, arrondissement)).toBe(expected);
  });
});

describe("readLocationsDocument", () => {
  test("drops entries without numeric coordinates", () => {
    const good = stored("Good", 3, "manual");
    const read = readLocationsDocument(
      { version: "1.0.0", lastUpdated: EARLIER, locations: { [good.id]: good, bad_3: { name: "Bad", coordinates: { lat: "x" }, source: "geocoded" } } },
      NOW,
    );
    expect(Object.keys(read.document.locations)).toEqual([good.id]);
    expect(read.droppedEntries).toBe(1);
    expect(read.discarded).toBeNull();
  });

  test.each([
    [{ version: "2.0.0", locations: {} }, "version"],
    [{ locations: {} }, "version"],
    [[], "shape"],
    ["text", "shape"],
    [{ version: "1.0.0", locations: [] }, "shape"],
  ])("%j is discarded (%s)", (value, reason) => {
    const read = readLocationsDocument(value, NOW);
    expect(read.discarded?.reason).toBe(reason as "version" | "shape");
    expect(read.document).toEqual({ version: "1.0.0", lastUpdated: NOW.toISOString(), locations: {} });
  });
});

describe("populateCoordinates (live reads)", () => {
  test("reads the cache only: a missing venue gets its centre for this read, nothing is written and no request is sent, even with an API key", async () => {
    const cache = documentOf(stored("Rooftop Cached", 9, "geocoded", 48.1, 2.1), stored("Rooftop Estimate", 9, "estimated", 48.3, 2.3));
    const ctx = setup({ apiKey: "k", cache });
    const events = [
      event("Rooftop Cached", 9),
      event("Rooftop Estimate", 9),
      event("Movida Club", 9),
      event(" movida  club ", 9),
      event("TBA", 11),
      event("Somewhere", "unknown"),
      event("Placed Already", 5, { coordinates: { lat: 1, lng: 2 } }),
    ];
    const { events: out, counts } = await populateCoordinates(events, ctx.deps);

    expect(ctx.requests()).toBe(0);
    expect(counts).toEqual({ fromCache: 2, geocodedFresh: 0, upgraded: 0, arrondissementFallback: 1, skippedIneligible: 2 });
    expect(out.map((e) => e.coordinates)).toEqual([{ lat: 48.1, lng: 2.1 }, { lat: 48.3, lng: 2.3 }, centre(9), centre(9), undefined, undefined, { lat: 1, lng: 2 }]);
    expect(out[0]!.title).toBe("Rooftop Cached 9");
    expect(events[2]!.coordinates).toBeUndefined();
    expect(ctx.kv.reads).toBe(1);
    expect(ctx.kv.writes).toBe(0);
    expect(ctx.doc()).toEqual(cache);
    const info = ctx.logged("info");
    expect(info).toHaveLength(1);
    expect(info[0].message).toBe("Coordinates populated");
  });

  test("nothing to place means no KV access", async () => {
    const ctx = setup();
    const { counts } = await populateCoordinates([event("TBC", 3), event("X", 3, { coordinates: { lat: 1, lng: 1 } })], ctx.deps);
    expect(counts.skippedIneligible).toBe(1);
    expect(ctx.kv.reads).toBe(0);
    expect(ctx.kv.writes).toBe(0);
  });

  test("a cache document of another version reads as empty and is left for the warm-up to replace", async () => {
    const ctx = setup({ apiKey: "k", cache: { version: "0.9", locations: { rooftop_a_3: stored("Rooftop A", 3, "manual") } } });
    const { counts, events } = await populateCoordinates([event("Rooftop A", 3)], ctx.deps);
    expect(counts).toMatchObject({ fromCache: 0, arrondissementFallback: 1 });
    expect(events[0]!.coordinates).toEqual(centre(3));
    expect(ctx.kv.writes).toBe(0);
    expect(ctx.requests()).toBe(0);
  });

  test("centreCoordinates places eligible events on their centre without any KV access", () => {
    const out = centreCoordinates([event("Rooftop A", 3), event("TBA", 3), event("B", 4, { coordinates: { lat: 1, lng: 1 } })]);
    expect(out.map((e) => e.coordinates)).toEqual([centre(3), undefined, { lat: 1, lng: 1 }]);
  });
});

describe("warmCoordinates: geocoding and failures", () => {
  test("uses cached entries, upgrades estimates, geocodes missing venues and records failures", async () => {
    const cache = documentOf(
      stored("Rooftop Cached", 9, "geocoded", 48.1, 2.1),
      stored("Rooftop Manual", 9, "manual", 48.2, 2.2),
      stored("Rooftop Upgrade", 9, "estimated", 48.3, 2.3),
      stored("Zero Upgrade", 4, "estimated", 48.4, 2.4),
    );
    const ctx = setup({ apiKey: "k", cache });
    const events = [
      event("Rooftop Cached", 9),
      event("Rooftop Manual", 9),
      event("Rooftop Upgrade", 9),
      event("Zero Upgrade", 4),
      event("Rooftop Fresh", 9),
      event("Rooftop Fresh", 9),
      event("Zero Fresh", 6),
    ];
    const { events: out, counts } = await warmCoordinates(events, ctx.deps);

    expect(counts).toEqual({ fromCache: 3, geocodedFresh: 1, upgraded: 1, arrondissementFallback: 1, skippedIneligible: 0, pruned: 0, backedOff: 0 });
    // Only the estimates and the missing venues reach the API, each distinct venue once.
    expect(fake.requests.slice(-4).map((r) => r.address.split(",")[0]).sort()).toEqual(["Rooftop Fresh", "Rooftop Upgrade", "Zero Fresh", "Zero Upgrade"]);
    expect(ctx.requests()).toBe(4);
    expect(out.map((e) => e.coordinates)).toEqual([
      { lat: 48.1, lng: 2.1 },
      { lat: 48.2, lng: 2.2 },
      { lat: 48.8765, lng: 2.3401 },
      { lat: 48.4, lng: 2.4 },
      { lat: 48.8765, lng: 2.3401 },
      { lat: 48.8765, lng: 2.3401 },
      centre(6),
    ]);
    expect(ctx.kv.reads).toBe(1);
    expect(ctx.kv.writes).toBe(1);
    const locations = ctx.doc().locations;
    expect(locations.rooftop_upgrade_9).toMatchObject({ source: "geocoded", confidence: 1, lastUpdated: NOW.toISOString() });
    expect(locations.rooftop_fresh_9).toMatchObject({ name: "Rooftop Fresh", source: "geocoded", coordinates: { lat: 48.8765, lng: 2.3401 } });
    expect(locations.zero_upgrade_4).toEqual({ ...cache.locations.zero_upgrade_4!, lastAttemptAt: NOW.toISOString(), failedAttempts: 1 });
    expect(locations.zero_fresh_6).toMatchObject({ source: "estimated", confidence: 0.5, coordinates: centre(6), lastAttemptAt: NOW.toISOString(), failedAttempts: 1 });
    expect(locations.rooftop_manual_9).toEqual(cache.locations.rooftop_manual_9!);
  });

  test("a venue that does not resolve waits 1 h, then 2 h, … (at most a day) before the next lookup; retryFailed retries at once", async () => {
    let now = NOW.getTime();
    const ctx = setup({ apiKey: "k" });
    const deps = { ...ctx.deps, now: () => new Date(now) };
    const warm = async (options = {}) => (await warmCoordinates([event("Zero Hope", 7)], deps, options)).counts;

    await warm();
    expect(ctx.requests()).toBe(1);
    now += 59 * 60_000;
    expect(await warm()).toMatchObject({ backedOff: 1, fromCache: 1 });
    expect(ctx.requests()).toBe(1);
    now += 60_000;
    await warm();
    expect(ctx.requests()).toBe(2);
    expect(ctx.doc().locations.zero_hope_7).toMatchObject({ failedAttempts: 2, lastAttemptAt: new Date(now).toISOString() });
    now += 2 * 60 * 60_000 - 1;
    await warm();
    expect(ctx.requests()).toBe(2);
    await warm({ retryFailed: true });
    expect(ctx.requests()).toBe(3);
    // After many failures the wait stops growing at one day.
    const entry = ctx.doc().locations.zero_hope_7!;
    expect(nextAttemptAt({ ...entry, failedAttempts: 30 })!.getTime() - Date.parse(entry.lastAttemptAt!)).toBe(GEOCODE_RETRY_MAX_MS);
  });

  test("test mode never calls the API even with a key", async () => {
    const ctx = setup({ apiKey: "k", testMode: true, cache: documentOf(stored("Rooftop Old", 2, "estimated")) });
    const { counts } = await warmCoordinates([event("Rooftop New", 2), event("Rooftop Old", 2)], ctx.deps);
    expect(ctx.requests()).toBe(0);
    expect(counts).toMatchObject({ fromCache: 1, arrondissementFallback: 1, geocodedFresh: 0, upgraded: 0 });
  });

  test("writes nothing when every venue comes from the cache", async () => {
    const ctx = setup({ apiKey: "k", cache: documentOf(stored("Rooftop A", 3, "geocoded"), stored("Rooftop B", 3, "manual")) });
    const { counts } = await warmCoordinates([event("Rooftop A", 3), event("Rooftop B", 3)], ctx.deps);
    expect(counts.fromCache).toBe(2);
    expect(ctx.requests()).toBe(0);
    expect(ctx.kv.writes).toBe(0);
  });

  test("a fatal answer logs one warning, switches the rest of the run to centres and counts against no venue", async () => {
    const ctx = setup({ apiKey: "bad-key" });
    const events = [event("Denied", 1), ...Array.from({ length: 12 }, (_, i) => event(`Rooftop ${i}`, 2))];
    const { counts, events: out } = await warmCoordinates(events, ctx.deps);
    // The first batch is already in flight when the refusal arrives; the second batch never is.
    expect(ctx.requests()).toBe(10);
    const unavailable = ctx.logged("warn").filter((w) => w.message === GEOCODING_UNAVAILABLE_MESSAGE);
    expect(unavailable).toHaveLength(1);
    expect(counts.geocodedFresh + counts.arrondissementFallback).toBe(13);
    expect(counts.arrondissementFallback).toBeGreaterThanOrEqual(4);
    expect(out.every((e) => e.coordinates !== undefined)).toBe(true);
    expect(ctx.doc().locations.denied_1).not.toHaveProperty("lastAttemptAt");
  });

  test("a cache document of another version is treated as empty, logged, and replaced once", async () => {
    const ctx = setup({ cache: { version: "0.9", locations: { rooftop_a_3: stored("Rooftop A", 3, "manual") } } });
    const first = await warmCoordinates([event("Rooftop A", 3)], ctx.deps);
    expect(first.counts).toMatchObject({ fromCache: 0, arrondissementFallback: 1 });
    expect(ctx.doc().version).toBe("1.0.0");
    const second = await warmCoordinates([event("Rooftop A", 3)], ctx.deps);
    expect(second.counts).toMatchObject({ fromCache: 1 });
    expect(ctx.logged("warn").filter((w) => w.message.includes("unknown version"))).toHaveLength(1);
  });
});

describe("warmCoordinates", () => {
  test("prunes entries for venues no longer present and keeps every current one", async () => {
    const cache = documentOf(
      stored("Rooftop Keep", 5, "geocoded"),
      stored("Placed", 5, "manual"),
      stored("Gone", 5, "geocoded"),
      stored("Rooftop Keep", 6, "estimated"),
    );
    const ctx = setup({ apiKey: "k", cache });
    const { counts } = await warmCoordinates(
      [event("Rooftop Keep", 5), event("Placed", 5, { coordinates: { lat: 1, lng: 1 } }), event("TBA", 5)],
      ctx.deps,
    );
    expect(counts).toEqual({ fromCache: 1, geocodedFresh: 0, upgraded: 0, arrondissementFallback: 0, skippedIneligible: 1, pruned: 2, backedOff: 0 });
    expect(Object.keys(ctx.doc().locations).sort()).toEqual(["placed_5", "rooftop_keep_5"]);
    expect(ctx.kv.reads).toBe(1);
    expect(ctx.kv.writes).toBe(1);
    const info = ctx.logged("info");
    expect(info).toHaveLength(1);
    expect(info[0].context).toMatchObject({ pruned: 2 });
    expect(ctx.logged("warn")).toEqual([]);
  });

  test("saves nothing when nothing was added or removed", async () => {
    const ctx = setup({ apiKey: "k", cache: documentOf(stored("Rooftop Keep", 5, "geocoded")) });
    const { counts } = await warmCoordinates([event("Rooftop Keep", 5)], ctx.deps);
    expect(counts.pruned).toBe(0);
    expect(ctx.kv.writes).toBe(0);
  });

  test("geocodes and upgrades like population", async () => {
    const ctx = setup({ apiKey: "k", cache: documentOf(stored("Range Estimate", 4, "estimated")) });
    const { counts, events } = await warmCoordinates([event("Range Estimate", 4), event("Range New", 4)], ctx.deps);
    expect(counts).toMatchObject({ upgraded: 1, geocodedFresh: 1, pruned: 0 });
    expect(events[1]!.coordinates).toEqual({ lat: 48.8534, lng: 2.3488 });
    expect(ctx.doc().locations.range_estimate_4!.source).toBe("geocoded");
  });

  test("a missing API key is a warning and every venue gets a centre", async () => {
    const ctx = setup({ cache: documentOf(stored("Old", 2, "geocoded")) });
    const { counts } = await warmCoordinates([event("New Place", 2)], ctx.deps);
    expect(ctx.requests()).toBe(0);
    expect(counts).toMatchObject({ arrondissementFallback: 1, pruned: 1 });
    expect(Object.keys(ctx.doc().locations)).toEqual(["new_place_2"]);
    expect(ctx.logged("warn").map((w) => w.message)).toEqual(["Geocoding API key is not configured - using arrondissement centres"]);
  });

  test("an empty event list prunes everything", async () => {
    const ctx = setup({ apiKey: "k", cache: documentOf(stored("Old", 2, "geocoded")) });
    const { counts } = await warmCoordinates([], ctx.deps);
    expect(counts.pruned).toBe(1);
    expect(ctx.doc().locations).toEqual({});
  });
});
