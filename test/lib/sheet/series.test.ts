// Multi-day rows (§2.12): Date To expansion limits and series keys.

import { describe, expect, test } from "bun:test";
import { expandDateRange, generateSeriesKey, normaliseSeriesKey } from "../../../src/lib/sheet/series.ts";

function sha16(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16);
}

describe("expandDateRange", () => {
  test.each([
    ["2026-06-19", "2026-06-21", ["2026-06-19", "2026-06-20", "2026-06-21"], undefined],
    ["2026-06-30", "2026-07-01", ["2026-06-30", "2026-07-01"], undefined],
    ["2026-06-21", "2026-06-21", ["2026-06-21"], "same_day"],
    ["2026-06-21", "2026-06-19", ["2026-06-21"], "before_start"],
    ["2026-06-01", "2026-07-03", ["2026-06-01"], "too_long"],
  ])("%p → %p", (start, end, dates, problem) => {
    expect(expandDateRange(start, end)).toEqual((problem ? { dates, problem } : { dates }) as never);
  });

  test("31 days after the start is the longest expansion (32 events)", () => {
    expect(expandDateRange("2026-06-01", "2026-07-02").dates).toHaveLength(32);
  });
});

describe("series keys", () => {
  test.each([
    ["ser_abcdef123456", "ser_abcdef123456"],
    [" SER_ABCDEF123456 ", "ser_abcdef123456"],
    ["ser_short", null],
    ["evt_abcdef123456", null],
    ["", null],
  ])("normaliseSeriesKey(%p) → %p", (raw, key) => {
    expect(normaliseSeriesKey(raw)).toBe(key);
  });

  test("a generated key hashes series| + folded title, start time, location, area and URL", () => {
    const key = generateSeriesKey({
      title: " Batignolles  Sound Garden ",
      startTime: "14:00",
      location: "Jardin",
      area: "17e",
      primaryUrl: "HTTPS://X.example",
    });
    expect(key).toBe(`ser_${sha16("series|batignolles sound garden|14:00|jardin|17e|https://x.example")}`);
    expect(normaliseSeriesKey(key)).toBe(key);
  });
});
