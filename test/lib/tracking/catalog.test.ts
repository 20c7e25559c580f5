import { describe, expect, test } from "bun:test";
import { createLiveCatalog, LIVE_CATALOG_TTL_MS } from "../../../src/lib/tracking/catalog.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";

function setup(keys: string[][]) {
  let now = 1_000_000;
  let reads = 0;
  let fail = false;
  const log = createMemoryLogger();
  const catalog = createLiveCatalog({
    log,
    now: () => now,
    load: async () => {
      reads++;
      if (fail) throw new Error("store unreachable");
      return keys[Math.min(reads - 1, keys.length - 1)];
    },
  });
  return {
    catalog,
    log,
    reads: () => reads,
    advance: (ms: number) => (now += ms),
    fail: (on: boolean) => (fail = on),
  };
}

describe("live catalog", () => {
  test("keys are compared lower-cased; concurrent checks share one read", async () => {
    const s = setup([["EVT_AAAAAAAAAAAA", "evt_bbbbbbbbbbbb"]]);
    const results = await Promise.all([s.catalog.has("evt_aaaaaaaaaaaa"), s.catalog.has("EVT_BBBBBBBBBBBB"), s.catalog.has("evt_cccccccccccc")]);
    expect(results).toEqual([true, true, false]);
    expect(s.reads()).toBe(1);
  });

  test("cached for 5 minutes, then read again", async () => {
    const s = setup([["evt_old000000000"], ["evt_new000000000"]]);
    expect(await s.catalog.has("evt_new000000000")).toBe(false);
    s.advance(LIVE_CATALOG_TTL_MS - 1);
    expect(await s.catalog.has("evt_new000000000")).toBe(false);
    expect(s.reads()).toBe(1);
    s.advance(1);
    expect(await s.catalog.has("evt_new000000000")).toBe(true);
    expect(s.reads()).toBe(2);
  });

  test("a failed read is not cached: unknown now, read again after a second, logged as a warning", async () => {
    const s = setup([["evt_aaaaaaaaaaaa"]]);
    s.fail(true);
    expect(await s.catalog.has("evt_aaaaaaaaaaaa")).toBeUndefined();
    expect(await s.catalog.has("evt_aaaaaaaaaaaa")).toBeUndefined();
    expect(s.reads()).toBe(1);
    expect(s.log.lines.filter((l) => l.level === "warn")).toHaveLength(1);
    s.fail(false);
    s.advance(1000);
    expect(await s.catalog.has("evt_aaaaaaaaaaaa")).toBe(true);
    expect(s.reads()).toBe(2);
  });

  test("invalidate forgets the set at once", async () => {
    const s = setup([["evt_old000000000"], ["evt_new000000000"]]);
    await s.catalog.has("x");
    s.catalog.invalidate();
    expect(await s.catalog.has("evt_new000000000")).toBe(true);
  });
});
