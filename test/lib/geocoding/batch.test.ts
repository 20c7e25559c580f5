// Batch geocoding: batch size and pause, bounded retries of transient failures, the fatal stop, the result shape.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { geocodeBatch } from "../../../src/lib/geocoding/batch.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import { startFakeGeocoder, type FakeGeocoder } from "./fake-geocoder.ts";

let fake: FakeGeocoder;
beforeAll(() => {
  fake = startFakeGeocoder({ responseDelayMs: 10 });
});
afterAll(() => fake.stop());

const options = () => ({ log: createMemoryLogger(), apiKey: "k", apiUrl: fake.url });

describe("geocodeBatch", () => {
  test("runs 10 in parallel with a 100 ms pause between batches", async () => {
    const addresses = Array.from({ length: 25 }, (_, i) => ({ name: `Rooftop ${i}`, arrondissement: (i % 20) + 1 }));
    const before = fake.requests.length;
    const outcome = await geocodeBatch(addresses, options());
    const seen = fake.requests.slice(before);
    expect(seen).toHaveLength(25);
    expect(fake.maxInFlight).toBe(10);
    // Batch k starts at least 100 ms after batch k-1 started (its answers take 10 ms, then the pause).
    expect(seen[10]!.at - seen[9]!.at).toBeGreaterThanOrEqual(100);
    expect(seen[20]!.at - seen[19]!.at).toBeGreaterThanOrEqual(100);
    expect(seen[9]!.at - seen[0]!.at).toBeLessThan(50);
    expect(outcome.total).toBe(25);
    expect(outcome.successful).toHaveLength(25);
    expect(outcome.failed).toEqual([]);
    expect(outcome.successRate).toBe(1);
    expect(outcome.successful.map((s) => s.address)).toEqual(expect.arrayContaining(addresses));
  });

  test("retries OVER_QUERY_LIMIT once the provider recovers", async () => {
    const outcome = await geocodeBatch([{ name: "Busy Bee", arrondissement: 4 }], options());
    expect(fake.countFor("Busy Bee")).toBe(2);
    expect(outcome.successful).toHaveLength(1);
    expect(outcome.successful[0]!.result.locationType).toBe("GEOMETRIC_CENTER");
  });

  test("gives up on a transient failure after 2 more attempts, 100 ms then 200 ms apart", async () => {
    const before = fake.requests.length;
    const outcome = await geocodeBatch([{ name: "Boom", arrondissement: 4 }, { name: "Always Busy", arrondissement: 4 }], options());
    const boom = fake.requests.slice(before).filter((r) => r.address.startsWith("Boom,"));
    expect(boom).toHaveLength(3);
    expect(boom[1]!.at - boom[0]!.at).toBeGreaterThanOrEqual(100);
    expect(boom[2]!.at - boom[1]!.at).toBeGreaterThanOrEqual(200);
    expect(fake.requests.slice(before).filter((r) => r.address.startsWith("Always Busy,"))).toHaveLength(3);
    expect(outcome.failed.map((f) => [f.address.name, f.category]).sort()).toEqual([
      ["Always Busy", "RATE_LIMIT"],
      ["Boom", "API_ERROR"],
    ]);
    expect(outcome.successRate).toBe(0);
  });

  test("does not retry final failures", async () => {
    const before = fake.requests.length;
    const outcome = await geocodeBatch(
      [
        { name: "Zero Place", arrondissement: 1 },
        { name: "Invalid", arrondissement: 1 },
        { name: "Html", arrondissement: 1 },
        { name: "Rooftop", arrondissement: 1 },
      ],
      options(),
    );
    expect(fake.requests.length - before).toBe(4);
    expect(outcome.failed.map((f) => f.category).sort()).toEqual(["API_ERROR", "NO_RESULTS", "PARSE_ERROR"]);
    expect(outcome.successRate).toBe(0.25);
    const failure = outcome.failed.find((f) => f.category === "NO_RESULTS")!;
    expect(failure.address).toEqual({ name: "Zero Place", arrondissement: 1 });
    expect(typeof failure.message).toBe("string");
  });

  test("after a fatal answer no later batch calls the API", async () => {
    const before = fake.requests.length;
    const addresses = [
      ...Array.from({ length: 10 }, () => ({ name: "Denied", arrondissement: 2 })),
      ...Array.from({ length: 5 }, (_, i) => ({ name: `Rooftop late ${i}`, arrondissement: 2 })),
    ];
    const outcome = await geocodeBatch(addresses, options());
    expect(fake.requests.length - before).toBe(10);
    expect(outcome.failed).toHaveLength(15);
    expect(new Set(outcome.failed.map((f) => f.category))).toEqual(new Set(["CONFIG_ERROR"]));
  });

  test("an empty list gives a zero success rate", async () => {
    expect(await geocodeBatch([], options())).toEqual({ successful: [], failed: [], total: 0, successRate: 0 });
  });
});
