// Geocoding client: query building, confidence, bounds and error categories against a loopback fake provider.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  addressNamesArrondissement,
  buildGeocodingQuery,
  geocodeLocation,
  GeocodingError,
  isInParisBounds,
  scoreConfidence,
  type GeocoderOptions,
} from "../../../src/lib/geocoding/geocoder.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import { startFakeGeocoder, type FakeGeocoder } from "./fake-geocoder.ts";

let fake: FakeGeocoder;
beforeAll(() => {
  fake = startFakeGeocoder();
});
afterAll(() => fake.stop());

function options(extra: Omit<Partial<GeocoderOptions>, "log"> = {}) {
  const log = createMemoryLogger();
  return { apiKey: "test-key", apiUrl: fake.url, ...extra, log } satisfies GeocoderOptions;
}

async function failure(promise: Promise<unknown>): Promise<GeocodingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GeocodingError);
    return error as GeocodingError;
  }
  throw new Error("expected a GeocodingError");
}

describe("buildGeocodingQuery", () => {
  test.each([
    [{ name: "  Movida Club ", arrondissement: 9 }, "Movida Club, 9e arrondissement, Paris, France"],
    [{ name: "Le Louvre", arrondissement: 1 }, "Le Louvre, 1e arrondissement, Paris, France"],
    [{ name: "Bercy", arrondissement: 12 }, "Bercy, 12e arrondissement, Paris, France"],
  ])("%j → %s", (query, expected) => {
    expect(buildGeocodingQuery(query)).toBe(expected);
  });
});

describe("isInParisBounds", () => {
  test.each([
    [{ lat: 48.8566, lng: 2.3522 }, true],
    [{ lat: 48.8, lng: 2.22 }, true],
    [{ lat: 48.92, lng: 2.48 }, true],
    [{ lat: 48.79, lng: 2.35 }, false],
    [{ lat: 48.85, lng: 2.49 }, false],
    [{ lat: 48.8049, lng: 2.1204 }, false],
  ])("%j → %p", (point, expected) => {
    expect(isInParisBounds(point)).toBe(expected);
  });
});

describe("addressNamesArrondissement", () => {
  test.each([
    ["12 Rue de Provence, 75009 Paris, France", 9, true],
    ["12 Rue de Provence, 75009 Paris, France", 12, false],
    ["Rue X, 75116 Paris, France", 16, true],
    ["Rue X, 75016 Paris, France", 16, true],
    ["Rue X, 75116 Paris, France", 11, false],
    ["Place, Paris 1er, France", 1, true],
    ["Place, Paris 1e, France", 1, true],
    ["Place, 11e Arrondissement, Paris", 11, true],
    ["Place, 11e Arrondissement, Paris", 1, false],
    ["Place, 17e, Paris", 7, false],
    ["Paris, France", 3, false],
  ])("%s names %d → %p", (address, n, expected) => {
    expect(addressNamesArrondissement(address, n)).toBe(expected);
  });
});

describe("scoreConfidence", () => {
  const inside = { lat: 48.87, lng: 2.34 };
  const outside = { lat: 48.7, lng: 2.1 };
  test.each([
    ["ROOFTOP", inside, "75009 Paris", 9, 1],
    ["ROOFTOP", inside, "Paris", 9, 1],
    ["ROOFTOP", outside, "Versailles", 9, 0.95],
    ["RANGE_INTERPOLATED", inside, "Paris", 9, 0.95],
    ["RANGE_INTERPOLATED", outside, "Versailles", 9, 0.85],
    ["GEOMETRIC_CENTER", inside, "75009 Paris", 9, 0.9],
    ["GEOMETRIC_CENTER", inside, "Paris", 9, 0.8],
    ["APPROXIMATE", inside, "Paris", 9, 0.6],
    ["APPROXIMATE", outside, null, 9, 0.5],
    [null, inside, "Paris", 9, 0.4],
    ["SOMETHING_NEW", outside, "75009", 9, 0.4],
  ] as const)("%p %j %p arr %d → %d", (type, point, address, n, expected) => {
    expect(scoreConfidence(type, point, address, n)).toBe(expected);
  });
});

describe("geocodeLocation", () => {
  test("sends address, key, region=fr and the Paris bounds bias, and reads the first result", async () => {
    const before = fake.requests.length;
    const result = await geocodeLocation({ name: " Rooftop Bar ", arrondissement: 9 }, options());
    expect(fake.requests.length).toBe(before + 1);
    const seen = fake.requests.at(-1)!;
    expect(seen.address).toBe("Rooftop Bar, 9e arrondissement, Paris, France");
    expect(seen.key).toBe("test-key");
    expect(seen.region).toBe("fr");
    expect(seen.bounds).toBe("48.8,2.22|48.92,2.48");
    expect(result).toEqual({
      query: "Rooftop Bar, 9e arrondissement, Paris, France",
      coordinates: { lat: 48.8765, lng: 2.3401 },
      confidence: 1,
      locationType: "ROOFTOP",
      formattedAddress: "12 Rue de Provence, 75009 Paris, France",
      placeId: "place-48.8765-2.3401",
      inParisBounds: true,
    });
  });

  test("an APPROXIMATE result without the arrondissement scores 0.6", async () => {
    const result = await geocodeLocation({ name: "Approx Place", arrondissement: 3 }, options());
    expect(result.confidence).toBe(0.6);
  });

  test("a result outside Paris is returned and logs one warning", async () => {
    const opts = options();
    const result = await geocodeLocation({ name: "Far", arrondissement: 7 }, opts);
    expect(result.inParisBounds).toBe(false);
    expect(result.confidence).toBe(0.95);
    const warnings = opts.log.lines.filter((l) => l.level === "warn").map((l) => JSON.parse(l.line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toBe("Geocoded location is outside the Paris bounds");
    expect(warnings[0].context.query).toBe("Far, 7e arrondissement, Paris, France");
  });

  test.each([
    ["Zero", "NO_RESULTS", false, false],
    ["Always Busy", "RATE_LIMIT", true, false],
    ["Throttled", "RATE_LIMIT", true, false],
    ["Denied", "CONFIG_ERROR", false, true],
    ["Billing", "CONFIG_ERROR", false, true],
    ["Forbidden", "CONFIG_ERROR", false, true],
    ["Invalid", "API_ERROR", false, false],
    ["Unknown", "API_ERROR", true, false],
    ["Boom", "API_ERROR", true, false],
    ["Teapot", "API_ERROR", false, false],
    ["Html", "PARSE_ERROR", false, false],
    ["Broken", "PARSE_ERROR", false, false],
  ] as const)("%s → %s (retryable %p, fatal %p)", async (name, category, retryable, fatal) => {
    const error = await failure(geocodeLocation({ name, arrondissement: 5 }, options()));
    expect(error.category).toBe(category);
    expect(error.retryable).toBe(retryable);
    expect(error.fatal).toBe(fatal);
    expect(error.message).not.toContain("test-key");
  });

  test("a slow answer times out as a retryable NETWORK_ERROR", async () => {
    const started = performance.now();
    const error = await failure(geocodeLocation({ name: "Slow", arrondissement: 5 }, options({ timeoutMs: 200 })));
    expect(error.category).toBe("NETWORK_ERROR");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("timed out");
    expect(performance.now() - started).toBeLessThan(900);
  });

  test("a refused connection is a NETWORK_ERROR", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}/geocode/json`;
    closed.stop(true);
    const error = await failure(geocodeLocation({ name: "Rooftop", arrondissement: 5 }, options({ apiUrl: url })));
    expect(error.category).toBe("NETWORK_ERROR");
  });

  test("a missing key is a CONFIG_ERROR without any request", async () => {
    const before = fake.requests.length;
    for (const apiKey of [undefined, "", "  "]) {
      const error = await failure(geocodeLocation({ name: "Rooftop", arrondissement: 5 }, options({ apiKey })));
      expect(error.category).toBe("CONFIG_ERROR");
      expect(error.fatal).toBe(true);
    }
    expect(fake.requests.length).toBe(before);
  });

  test("an empty name or an arrondissement outside 1–20 never reaches the API", async () => {
    const before = fake.requests.length;
    for (const query of [{ name: "  ", arrondissement: 5 }, { name: "Rooftop", arrondissement: 0 }, { name: "Rooftop", arrondissement: 21 }]) {
      const error = await failure(geocodeLocation(query, options()));
      expect(error.category).toBe("NO_RESULTS");
    }
    expect(fake.requests.length).toBe(before);
  });
});
