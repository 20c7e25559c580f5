// Anonymous traffic never reaches the geocoder: live reads only read the coordinate cache; the
// warm-up (cron task, publishing, deploy) geocodes and remembers failures (docs/live-events.md).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HTMX_HEADERS, useTestApp } from "../helpers/app.ts";
import { startFakeGeocoder, type FakeGeocoder } from "../lib/geocoding/fake-geocoder.ts";
import { LOCATIONS_KV_KEY, type LocationsDocument } from "../../src/lib/geocoding/location-cache.ts";

const CRON_SECRET = "cron-secret-0123456789";
let fake: FakeGeocoder;
beforeAll(() => {
  fake = startFakeGeocoder();
});
afterAll(() => fake.stop());
// Local mode reads data/events.csv, whose venues the fake does not resolve (ZERO_RESULTS).
const ctx = useTestApp(() => ({ env: { DATA_MODE: "local", GEOCODING_API_KEY: "test-key", GEOCODING_API_URL: fake.url, CRON_SECRET } }));

/** Distinct public searches and pages, each a render-cache miss. */
async function publicRequests(round: string) {
  const paths = ["/", "/api/events", `/?q=${round}-jazz`, `/?q=${round}-house`, "/?a=11", `/api/events?q=${round}`];
  for (const path of paths) {
    const res = await ctx.request(path);
    expect(res.status).toBeLessThan(400);
    await res.arrayBuffer();
  }
  const fragment = await ctx.request(`/?q=${round}-funk`, { headers: HTMX_HEADERS });
  expect(fragment.status).toBe(200);
  return paths.length + 1;
}

describe("geocoding happens in the warm-up only", () => {
  test("public pages, the events API and new searches make no provider call on an empty cache", async () => {
    const before = fake.requests.length;
    await publicRequests("cold");
    expect(fake.requests.length - before).toBe(0);
    // The events still have positions: their arrondissement centres.
    const body = (await (await ctx.request("/api/events")).json()) as { events: { coordinates?: unknown; arrondissement: unknown }[] };
    expect(body.events.filter((e) => typeof e.arrondissement === "number").every((e) => e.coordinates !== undefined)).toBe(true);
  });

  test("the warm-coordinates task geocodes once; a venue that did not resolve is not retried by the next warm-up", async () => {
    const before = fake.requests.length;
    const first = await ctx.request("/api/cron/warm-coordinates", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(first.status).toBe(200);
    const report = (await first.json()) as Record<string, number | boolean | string>;
    const tried = fake.requests.length - before;
    expect(tried).toBeGreaterThan(5);
    expect(report).toMatchObject({ ok: true, geocodedFresh: 0, backedOff: 0 });
    const doc = (await ctx.deps.kv.get<LocationsDocument>(LOCATIONS_KV_KEY))!;
    const failed = Object.values(doc.locations).filter((l) => l.failedAttempts === 1);
    expect(failed.length).toBe(tried);

    const second = await ctx.request("/api/cron/warm-coordinates", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(await second.json()).toMatchObject({ ok: true, backedOff: tried });
    expect(fake.requests.length - before).toBe(tried);

    // An hour later the back-off has passed: the next warm-up tries them again.
    ctx.clock.advance(60 * 60_000);
    await ctx.request("/api/cron/warm-coordinates", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(fake.requests.length - before).toBe(2 * tried);
  });

  test("after a warm-up, public traffic still makes no provider call", async () => {
    const before = fake.requests.length;
    await publicRequests("warm");
    expect(fake.requests.length - before).toBe(0);
  });
});
