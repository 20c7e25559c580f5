// The dashboard figures against hand-computed values on small crafted data: the 600 s dedupe
// boundary, the window edges, Paris days across the DST change, sessions without ids, signed-in
// and anonymous records, and an empty database.

import { beforeEach, describe, expect, test } from "bun:test";
import { resetDatabase, sharedDatabase } from "../../helpers/database.ts";
import { plus, seedDiscovery, seedEngagement, type EngagementSeed } from "../../helpers/insights.ts";
import { listDailyInsights, listEventInsights, readDiscoveryInsights, readInsights, readSummary, scopeOf } from "../../../src/lib/insights/metrics.ts";
import { windowEndingAt } from "../../../src/lib/insights/window.ts";
import { sql } from "drizzle-orm";

const NOW = new Date("2026-06-21T20:00:00Z");
const T0 = "2026-06-21T12:00:00.000Z";

beforeEach(async () => {
  await resetDatabase(await sharedDatabase());
});

async function summaryOf(rows: EngagementSeed[], windowDays = 30, now = NOW) {
  const database = await sharedDatabase();
  await seedEngagement(database, rows);
  return readSummary(database, await scopeOf(database, windowEndingAt(now, windowDays)));
}

describe("dedupedViewCount: the 600 s rule per session and event", () => {
  const cases: { name: string; gaps: number[]; expected: number }[] = [
    { name: "599 s after the previous view: not counted", gaps: [0, 599], expected: 1 },
    { name: "exactly 600 s after: counted", gaps: [0, 600], expected: 2 },
    { name: "601 s after: counted", gaps: [0, 601], expected: 2 },
    { name: "measured from the previous view even when that one did not count", gaps: [0, 599, 1198], expected: 1 },
    { name: "a chain of 300 s steps counts only the first", gaps: [0, 300, 600, 900, 1200], expected: 1 },
    { name: "599 then 1199 (600 after the second)", gaps: [0, 599, 1199], expected: 2 },
    { name: "same instant twice", gaps: [0, 0], expected: 1 },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const s = await summaryOf(c.gaps.map((g) => ({ key: "ev-a", session: "s1", at: plus(T0, g) })));
      expect(s.clickCount).toBe(c.gaps.length);
      expect(s.dedupedViewCount).toBe(c.expected);
    });
  }

  test("views without a session always count; other sessions and events are separate", async () => {
    const s = await summaryOf([
      { key: "ev-a", session: null, at: T0 },
      { key: "ev-a", session: null, at: plus(T0, 1) },
      { key: "ev-a", session: "s1", at: T0 },
      { key: "ev-a", session: "s2", at: plus(T0, 10) },
      { key: "ev-b", session: "s1", at: plus(T0, 20) },
      { key: "ev-a", session: "s1", at: plus(T0, 30) },
    ]);
    expect(s).toMatchObject({ clickCount: 6, dedupedViewCount: 5, uniqueSessionCount: 2, uniqueViewSessionCount: 2 });
  });

  test("the first view inside the window counts even when the session viewed 100 s before the window", async () => {
    const start = windowEndingAt(NOW, 1).start.toISOString();
    const s = await summaryOf(
      [
        { key: "ev-a", session: "s1", at: plus(start, -100) },
        { key: "ev-a", session: "s1", at: plus(start, 200) },
        { key: "ev-a", session: "s1", at: plus(start, 300) },
      ],
      1,
    );
    expect(s).toMatchObject({ clickCount: 2, dedupedViewCount: 1 });
  });
});

describe("summary", () => {
  test("counts, distinct sessions and the four rates", async () => {
    const s = await summaryOf([
      { key: "ev-a", session: "s1", at: T0 },
      { key: "ev-a", session: "s2", at: T0, email: "ada@example.org" },
      { key: "ev-b", session: "s3", at: T0 },
      { key: "ev-b", session: null, at: T0 },
      { key: "ev-a", action: "outbound_click", session: "s1", at: plus(T0, 5) },
      { key: "ev-a", action: "outbound_click", session: "s1", at: plus(T0, 6) },
      { key: "ev-a", action: "calendar_sync", session: "s2", at: plus(T0, 7), email: "ada@example.org" },
      { key: "ev-a", action: "calendar_sync", session: "s4", at: plus(T0, 8) },
      { key: "ev-a", action: "calendar_sync", session: null, at: plus(T0, 9) },
    ]);
    expect(s).toEqual({
      clickCount: 4,
      dedupedViewCount: 4,
      outboundClickCount: 2,
      calendarSyncCount: 3,
      uniqueSessionCount: 4,
      uniqueViewSessionCount: 3,
      uniqueOutboundSessionCount: 1,
      uniqueCalendarSessionCount: 2,
      outboundSessionRate: 33.3,
      calendarSessionRate: 66.7,
      outboundInteractionRate: 50,
      calendarInteractionRate: 75,
    });
  });

  test("an empty database gives zeros, never NaN", async () => {
    const s = await summaryOf([]);
    expect(Object.values(s).every((v) => v === 0)).toBe(true);
  });

  test("rows at the window start count, rows at the end do not", async () => {
    const w = windowEndingAt(NOW, 7);
    const s = await summaryOf(
      [
        { key: "ev-a", session: "a", at: w.start.toISOString() },
        { key: "ev-a", session: "b", at: plus(w.start.toISOString(), -0.001) },
        { key: "ev-a", session: "c", at: w.end.toISOString() },
      ],
      7,
    );
    expect(s).toMatchObject({ clickCount: 1, uniqueSessionCount: 1 });
  });

  test("rates cap at 100 when calendar syncs outnumber views", async () => {
    const s = await summaryOf([
      { key: "ev-a", session: "s1", at: T0 },
      { key: "ev-a", action: "calendar_sync", session: "s1", at: T0 },
      { key: "ev-a", action: "calendar_sync", session: "s1", at: plus(T0, 1) },
    ]);
    expect(s.calendarInteractionRate).toBe(100);
  });
});

describe("per-event table", () => {
  test("ordered by views, outbound, calendar; live names else the key; conversion over deduped views", async () => {
    const database = await sharedDatabase();
    await seedEngagement(database, [
      { key: "b", session: "s1", at: T0 },
      { key: "b", session: "s1", at: plus(T0, 10) },
      { key: "b", action: "calendar_sync", session: "s1", at: plus(T0, 20) },
      { key: "a", session: "s2", at: T0 },
      { key: "a", session: "s3", at: T0 },
      { key: "c", session: "s2", at: T0 },
      { key: "c", action: "outbound_click", session: "s4", at: T0 },
      { key: "d", action: "calendar_sync", session: null, at: T0 },
    ]);
    const events = await listEventInsights(database, await scopeOf(database, windowEndingAt(NOW, 30)), new Map([["a", "Night A"]]));
    // a and b tie on views and outbound clicks; b's calendar sync puts it first.
    expect(events.map((e) => e.eventKey)).toEqual(["b", "a", "c", "d"]);
    expect(events[1]).toEqual({ eventKey: "a", eventName: "Night A", clickCount: 2, dedupedViewCount: 2, outboundClickCount: 0, calendarSyncCount: 0, uniqueSessionCount: 2, conversionRate: 0 });
    expect(events[0]).toEqual({ eventKey: "b", eventName: "b", clickCount: 2, dedupedViewCount: 1, outboundClickCount: 0, calendarSyncCount: 1, uniqueSessionCount: 1, conversionRate: 100 });
    expect(events[2]).toMatchObject({ eventKey: "c", clickCount: 1, outboundClickCount: 1, uniqueSessionCount: 2 });
    expect(events[3]).toMatchObject({ eventKey: "d", calendarSyncCount: 1, uniqueSessionCount: 0, conversionRate: 0 });
  });
});

describe("daily series over Paris days", () => {
  test("zero-filled, oldest first, split at Paris midnight", async () => {
    const database = await sharedDatabase();
    await seedEngagement(database, [
      { key: "a", session: "s1", at: "2026-06-20T21:59:59Z" }, // 23:59:59 Paris, June 20
      { key: "a", session: "s2", at: "2026-06-20T22:00:00Z" }, // 00:00 Paris, June 21
      { key: "a", action: "outbound_click", session: "s2", at: "2026-06-21T10:00:00Z" },
    ]);
    const daily = await listDailyInsights(database, await scopeOf(database, windowEndingAt(NOW, 3)));
    expect(daily.map((d) => d.day)).toEqual(["2026-06-18", "2026-06-19", "2026-06-20", "2026-06-21"]);
    expect(daily[0]).toEqual({ day: "2026-06-18", clickCount: 0, dedupedViewCount: 0, outboundClickCount: 0, calendarSyncCount: 0 });
    expect(daily[2]).toMatchObject({ clickCount: 1, dedupedViewCount: 1 });
    expect(daily[3]).toMatchObject({ clickCount: 1, outboundClickCount: 1 });
  });

  test("the autumn DST day is 25 hours long and stays one entry", async () => {
    const database = await sharedDatabase();
    const now = new Date("2026-10-26T12:00:00Z");
    await seedEngagement(database, [
      { key: "a", session: "s1", at: "2026-10-24T22:00:00Z" }, // 00:00 CEST, Oct 25
      { key: "a", session: "s2", at: "2026-10-25T00:30:00Z" }, // 02:30 CEST
      { key: "a", session: "s3", at: "2026-10-25T01:30:00Z" }, // 02:30 CET (second time round)
      { key: "a", session: "s4", at: "2026-10-25T22:59:59Z" }, // 23:59:59 CET, Oct 25
      { key: "a", session: "s5", at: "2026-10-25T23:00:00Z" }, // 00:00 CET, Oct 26
    ]);
    const daily = await listDailyInsights(database, await scopeOf(database, windowEndingAt(now, 2)));
    expect(daily.map((d) => [d.day, d.clickCount])).toEqual([
      ["2026-10-24", 0],
      ["2026-10-25", 4],
      ["2026-10-26", 1],
    ]);
  });

  test("the spring DST day is 23 hours long", async () => {
    const database = await sharedDatabase();
    const now = new Date("2026-03-30T12:00:00Z");
    await seedEngagement(database, [
      { key: "a", session: "s1", at: "2026-03-28T23:00:00Z" }, // 00:00 CET, Mar 29
      { key: "a", session: "s2", at: "2026-03-29T21:59:59Z" }, // 23:59:59 CEST, Mar 29
      { key: "a", session: "s3", at: "2026-03-29T22:00:00Z" }, // 00:00 CEST, Mar 30
    ]);
    const daily = await listDailyInsights(database, await scopeOf(database, windowEndingAt(now, 1)));
    expect(daily.map((d) => [d.day, d.clickCount])).toEqual([
      ["2026-03-29", 1],
      ["2026-03-30", 1],
    ]);
  });
});

describe("discovery block", () => {
  test("counts, sessions, top filters, clustered searches and top genres", async () => {
    const database = await sharedDatabase();
    await seedDiscovery(database, [
      { action: "search", session: "d1", at: T0, query: "techno" },
      { action: "search", session: "d1", at: T0, query: "techno" },
      { action: "search", session: "d2", at: T0, query: "tecno" },
      { action: "search", session: null, at: T0, query: "jazz" },
      { action: "filter_apply", session: "d2", at: T0, group: "genre", value: "house" },
      { action: "filter_apply", session: "d3", at: T0, group: "genre", value: "house", email: "ada@example.org" },
      { action: "filter_apply", session: "d3", at: T0, group: "arrondissement", value: "11" },
      { action: "filter_clear", session: "d3", at: T0 },
      { action: "search", session: "old", at: "2026-01-01T00:00:00Z", query: "jazz" },
    ]);
    await database.query(sql`insert into genre_preferences (email, genre, score) values ('a@x.org', 'house', 5), ('b@x.org', 'house', 2), ('a@x.org', 'soca', 6)`);
    const d = await readDiscoveryInsights(database, await scopeOf(database, windowEndingAt(NOW, 30)), "conservative");
    expect(d).toMatchObject({ searchCount: 4, filterApplyCount: 3, filterClearCount: 1, uniqueDiscoverySessionCount: 3 });
    expect(d.topFilters).toEqual([
      { filterGroup: "genre", filterValue: "house", count: 2 },
      { filterGroup: "arrondissement", filterValue: "11", count: 1 },
    ]);
    expect(d.topSearches).toEqual([
      { query: "techno", count: 3, variantCount: 2, variants: [{ query: "techno", count: 2 }, { query: "tecno", count: 1 }] },
      { query: "jazz", count: 1, variantCount: 1, variants: [{ query: "jazz", count: 1 }] },
    ]);
    expect(d.topGenres).toEqual([
      { genre: "house", label: "House", totalScore: 7, uniqueUsers: 2 },
      { genre: "soca", label: "Soca", totalScore: 6, uniqueUsers: 1 },
    ]);
  });
});

test("readInsights on an empty database: zeros, a zero-filled series and empty lists", async () => {
  const database = await sharedDatabase();
  const report = await readInsights(database, windowEndingAt(NOW, 7), "aggressive", new Map());
  expect(report.events).toEqual([]);
  expect(report.daily).toHaveLength(8);
  expect(report.discovery.topSearches).toEqual([]);
  expect(report.summary.clickCount).toBe(0);
});
