// Insights per edition through the app (docs/insights.md, "Editions"): `edition=<year>` selects that
// edition's lead-up and days only, the comparison cuts both editions at the same distance from the
// night (a day off either way changes the figures), after the night it compares whole windows, and
// bad years answer 400 on the API and the console page.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { seedDiscovery, seedEngagement } from "../helpers/insights.ts";

const ctx = useTestApp();
const HX = { ...ADMIN_KEY_HEADER, "hx-request": "true" };
const get = (path: string, headers: Record<string, string> = ADMIN_KEY_HEADER) => ctx.request(path, { headers });
const json = async (path: string) => {
  const res = await get(path);
  expect(res.status).toBe(200);
  return res.json();
};

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.deps.editions.windows = {};
});

describe("edition=<year> selects that edition's lead-up and days", () => {
  beforeEach(async () => {
    ctx.clock.set("2026-12-07T12:00:00Z");
    await seedEngagement(ctx.deps.database, [
      { key: "a", session: "s1", at: "2025-04-15T12:00:00Z" }, // 15 April in Paris: the day before the lead-up
      { key: "a", session: "s1", at: "2025-04-15T22:30:00Z" }, // 00:30 on 16 April in Paris: the lead-up's first minutes
      { key: "a", session: "s2", at: "2025-06-21T20:00:00Z" },
      { key: "a", action: "calendar_sync", session: "s2", at: "2025-06-21T20:01:00Z" },
      { key: "a", session: "s3", at: "2025-06-22T21:30:00Z" }, // 23:30 on 22 June in Paris: the last day
      { key: "a", session: "s3", at: "2025-06-22T22:30:00Z" }, // 00:30 on 23 June in Paris: after it
      { key: "b", session: "s4", at: "2026-06-21T20:00:00Z" },
      { key: "b", session: "s5", at: "2026-06-21T20:30:00Z" },
    ]);
    await seedDiscovery(ctx.deps.database, [
      { action: "search", session: "s1", at: "2025-06-01T10:00:00Z", query: "jazz" },
      { action: "search", session: "s4", at: "2026-06-01T10:00:00Z", query: "house" },
      { action: "search", session: "s4", at: "2026-06-02T10:00:00Z", query: "house" },
    ]);
  });

  test("2025: only its days, from 16 April (60 days before 15 June) through 22 June, Paris time", async () => {
    const body = await json("/api/admin/insights?edition=2025");
    expect(body.edition).toEqual({ year: 2025, leadFrom: "2025-04-16", from: "2025-06-15", to: "2025-06-22", night: "2025-06-21" });
    expect(body.range).toEqual({ startAt: "2025-04-15T22:00:00.000Z", endAt: "2025-06-22T22:00:00.000Z" });
    expect(body.windowDays).toBe(68);
    expect(body.summary).toMatchObject({ clickCount: 3, calendarSyncCount: 1, uniqueSessionCount: 3 });
    expect(body.discovery.searchCount).toBe(1);
    expect(body.daily).toHaveLength(68);
    expect(body.daily[0]).toEqual({ day: "2025-04-16", clickCount: 1, dedupedViewCount: 1, outboundClickCount: 0, calendarSyncCount: 0 });
    expect(body.daily.at(-1)).toEqual({ day: "2025-06-22", clickCount: 1, dedupedViewCount: 1, outboundClickCount: 0, calendarSyncCount: 0 });
    expect(body.events.map((e: { eventKey: string }) => e.eventKey)).toEqual(["a"]);
  });

  test("2026: only its days", async () => {
    const body = await json("/api/admin/insights?edition=2026");
    expect(body.range).toEqual({ startAt: "2026-04-15T22:00:00.000Z", endAt: "2026-06-22T22:00:00.000Z" });
    expect(body.summary).toMatchObject({ clickCount: 2, calendarSyncCount: 0, uniqueSessionCount: 2 });
    expect(body.discovery.searchCount).toBe(2);
    expect(body.events.map((e: { eventKey: string }) => e.eventKey)).toEqual(["b"]);
  });

  test("a window the team set moves the lead-up with it", async () => {
    ctx.deps.editions.windows = { "2025": { from: "2025-06-18", to: "2025-06-22", night: "2025-06-21" } };
    const body = await json("/api/admin/insights?edition=2025");
    expect(body.edition.leadFrom).toBe("2025-04-19");
    expect(body.summary.clickCount).toBe(2);
  });

  test("without edition the window is still the last windowDays days", async () => {
    const body = await json("/api/admin/insights?windowDays=7");
    expect(body.edition).toBeNull();
    expect(body.windowDays).toBe(7);
    expect(body.summary.clickCount).toBe(0);
  });

  test("an edition still to come: the window is cut at now (empty before its lead-up)", async () => {
    const body = await json("/api/admin/insights?edition=2027");
    expect(body.range).toEqual({ startAt: "2027-04-15T22:00:00.000Z", endAt: "2027-04-15T22:00:00.000Z" });
    expect(body.summary.clickCount).toBe(0);
    expect(body.daily).toHaveLength(1);
  });
});

// The 2025 rows around the cut, for a clock of 11 June 2026 at 12:00 Paris time (10 days before the
// night): the 2025 side stops on 11 June 2025 at 12:00 Paris time.
async function seedTwoEditions() {
  await seedEngagement(ctx.deps.database, [
    { key: "a", session: "p0", at: "2025-04-10T10:00:00Z" }, // before the 2025 lead-up
    { key: "a", session: "p1", at: "2025-05-01T10:00:00Z" },
    { key: "a", session: "p2", at: "2025-06-10T15:00:00Z" }, // 11 days before the night, afternoon: out if the distance were a day longer
    { key: "a", action: "calendar_sync", session: "p2", at: "2025-06-11T09:59:00Z" },
    { key: "a", session: "p3", at: "2025-06-11T10:01:00Z" }, // the same day, after the same time
    { key: "a", session: "p4", at: "2025-06-12T08:00:00Z" }, // 9 days before the night: in if the distance were a day shorter
    { key: "b", session: "c0", at: "2026-04-10T10:00:00Z" }, // before the 2026 lead-up
    { key: "b", session: "c1", at: "2026-05-01T10:00:00Z" },
    { key: "b", session: "c2", at: "2026-06-01T10:00:00Z" },
    { key: "b", action: "calendar_sync", session: "c2", at: "2026-06-01T10:01:00Z" },
    { key: "b", session: "c3", at: "2026-06-11T09:00:00Z" },
    { key: "b", action: "calendar_sync", session: "c3", at: "2026-06-11T09:30:00Z" },
  ]);
  await seedDiscovery(ctx.deps.database, [
    { action: "search", session: "p1", at: "2025-06-05T10:00:00Z", query: "jazz" },
    { action: "search", session: "p3", at: "2025-06-11T10:05:00Z", query: "jazz" },
    { action: "filter_apply", session: "p1", at: "2025-06-01T10:00:00Z", group: "genre", value: "house" },
    { action: "filter_apply", session: "p1", at: "2025-06-01T10:01:00Z", group: "genre", value: "house" },
    { action: "filter_apply", session: "p1", at: "2025-06-01T10:02:00Z", group: "arrondissement", value: "11" },
    { action: "filter_apply", session: "p1", at: "2025-06-01T10:03:00Z", group: "arrondissement", value: "near_me" },
    { action: "filter_apply", session: "p4", at: "2025-06-12T08:00:00Z", group: "genre", value: "jazz" },
    { action: "search", session: "c1", at: "2026-06-05T10:00:00Z", query: "house" },
    { action: "search", session: "c1", at: "2026-06-05T10:01:00Z", query: "house" },
    { action: "filter_apply", session: "c1", at: "2026-06-02T10:00:00Z", group: "genre", value: "house" },
    ...[0, 1, 2].map((i) => ({ action: "filter_apply" as const, session: "c2", at: `2026-06-03T10:0${i}:00Z`, group: "genre", value: "jazz" })),
    { action: "filter_apply", session: "c2", at: "2026-06-03T11:00:00Z", group: "arrondissement", value: "11" },
    { action: "filter_apply", session: "c2", at: "2026-06-03T11:01:00Z", group: "arrondissement", value: "11" },
    { action: "filter_apply", session: "c2", at: "2026-06-03T11:02:00Z", group: "arrondissement", value: "3" },
  ]);
}

describe("comparison: this edition against the last at the same distance from the night", () => {
  beforeEach(seedTwoEditions);

  test("10 days before the night: 2026 up to now against 2025 up to the same Paris time 10 days before its night", async () => {
    ctx.clock.set("2026-06-11T10:00:00Z");
    const { comparison } = await json("/api/admin/insights");
    expect(comparison.basis).toBe("sameDistance");
    expect(comparison.daysBeforeNight).toBe(10);
    expect(comparison.current).toEqual({
      year: 2026,
      leadFrom: "2026-04-16",
      from: "2026-06-15",
      to: "2026-06-22",
      night: "2026-06-21",
      range: { startAt: "2026-04-15T22:00:00.000Z", endAt: "2026-06-11T10:00:00.000Z" },
      views: 3,
      saves: 2,
      searches: 2,
      topGenres: [
        { value: "jazz", label: "Jazz", count: 3 },
        { value: "house", label: "House", count: 1 },
      ],
      topArrondissements: [
        { value: "11", label: "11e", count: 2 },
        { value: "3", label: "3e", count: 1 },
      ],
    });
    expect(comparison.previous).toEqual({
      year: 2025,
      leadFrom: "2025-04-16",
      from: "2025-06-15",
      to: "2025-06-22",
      night: "2025-06-21",
      range: { startAt: "2025-04-15T22:00:00.000Z", endAt: "2025-06-11T10:00:00.000Z" },
      views: 2,
      saves: 1,
      searches: 1,
      topGenres: [{ value: "house", label: "House", count: 2 }],
      topArrondissements: [{ value: "11", label: "11e", count: 1 }],
    });
    expect(comparison.difference).toEqual({
      views: 1,
      saves: 1,
      searches: 1,
      topGenres: [
        { value: "jazz", label: "Jazz", current: 3, previous: 0, difference: 3 },
        { value: "house", label: "House", current: 1, previous: 2, difference: -1 },
      ],
      topArrondissements: [
        { value: "11", label: "11e", current: 2, previous: 1, difference: 1 },
        { value: "3", label: "3e", current: 1, previous: 0, difference: 1 },
      ],
    });
  });

  test("a day later (9 days before the night) the 2025 side takes one more day", async () => {
    ctx.clock.set("2026-06-12T10:00:00Z");
    const { comparison } = await json("/api/admin/insights");
    expect(comparison.daysBeforeNight).toBe(9);
    expect(comparison.previous.range.endAt).toBe("2025-06-12T10:00:00.000Z");
    // p3 (11 June, 12:01) and p4 (12 June, 10:00) join; the search of 11 June 12:05 and the jazz filter of 12 June too.
    expect(comparison.previous).toMatchObject({ views: 4, saves: 1, searches: 2 });
    expect(comparison.previous.topGenres).toEqual([
      { value: "house", label: "House", count: 2 },
      { value: "jazz", label: "Jazz", count: 1 },
    ]);
  });

  test("the 2025 side stops at the same Paris time, to the second", async () => {
    // 10 June 2026 at 17:00 Paris: 11 days before the night; the 2025 side stops on 10 June 2025 at 17:00, before p2.
    ctx.clock.set("2026-06-10T15:00:00Z");
    const { comparison } = await json("/api/admin/insights");
    expect(comparison.daysBeforeNight).toBe(11);
    expect(comparison.previous.range.endAt).toBe("2025-06-10T15:00:00.000Z");
    expect(comparison.previous.views).toBe(1);
    ctx.clock.set("2026-06-10T15:00:01Z");
    expect((await json("/api/admin/insights")).comparison.previous.views).toBe(2);
  });

  test("after the night: the whole windows", async () => {
    ctx.clock.set("2026-06-22T10:00:00Z");
    const { comparison } = await json("/api/admin/insights");
    expect(comparison.basis).toBe("wholeWindow");
    expect(comparison.daysBeforeNight).toBe(-1);
    expect(comparison.current.range).toEqual({ startAt: "2026-04-15T22:00:00.000Z", endAt: "2026-06-22T10:00:00.000Z" });
    expect(comparison.previous.range).toEqual({ startAt: "2025-04-15T22:00:00.000Z", endAt: "2025-06-22T22:00:00.000Z" });
    expect(comparison.previous).toMatchObject({ views: 4, saves: 1, searches: 2 });
    expect(comparison.current).toMatchObject({ views: 3, saves: 2, searches: 2 });
  });

  test("edition=2026 off season compares 2026 and 2025 whole; without it, the coming edition (nothing yet)", async () => {
    ctx.clock.set("2026-12-07T12:00:00Z");
    const chosen = (await json("/api/admin/insights?edition=2026")).comparison;
    expect(chosen).toMatchObject({ basis: "wholeWindow", current: { year: 2026, views: 3 }, previous: { year: 2025, views: 4 }, difference: { views: -1 } });
    const current = (await json("/api/admin/insights")).comparison;
    expect(current).toMatchObject({ basis: "sameDistance", daysBeforeNight: 196, current: { year: 2027, views: 0 }, previous: { year: 2026, views: 0 } });
  });

  test("the console block: a table of both editions with the differences, escaped", async () => {
    ctx.clock.set("2026-06-11T10:00:00Z");
    await seedDiscovery(ctx.deps.database, [{ action: "filter_apply", session: "x", at: "2026-06-04T10:00:00Z", group: "genre", value: "<script>alert(1)</script>" }]);
    const res = await get("/admin/insights/comparison", HX);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith('<section id="insights-comparison"')).toBe(true);
    expect(html).toContain("Edition 2026 against 2025");
    expect(html).toContain("10 days before the night");
    expect(html).toMatch(/<th scope="row">Views<\/th><td>3<\/td><td>2<\/td><td>\+1<\/td>/);
    expect(html).toMatch(/<th scope="row">House<\/th><td>1<\/td><td>2<\/td><td>−1<\/td>/);
    expect(html).toMatch(/<th scope="row">11e<\/th><td>2<\/td><td>1<\/td><td>\+1<\/td>/);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("the console page", () => {
  test("the edition picker and every block asking for the chosen edition", async () => {
    ctx.clock.set("2026-06-11T10:00:00Z");
    const html = await (await get("/admin/insights?edition=2025")).text();
    expect(html).toContain('<select name="edition">');
    for (const year of [2026, 2025, 2024, 2023]) expect(html).toContain(`<option value="${year}"`);
    expect(html).toMatch(/<option value="2025" selected>/);
    for (const url of ["/admin/insights/stats?windowDays=30&cluster=conservative&edition=2025", "/admin/insights/events?windowDays=30&edition=2025", "/admin/insights/reports?windowDays=30&edition=2025", "/admin/insights/comparison?edition=2025"]) {
      expect(html).toContain(`hx-get="${url}"`);
    }
  });

  test("the stats block of an edition names it", async () => {
    ctx.clock.set("2026-12-07T12:00:00Z");
    await seedTwoEditions();
    const html = await (await get("/admin/insights/stats?edition=2025", HX)).text();
    expect(html).toContain("Edition 2025 (with its 60-day lead-up)");
    expect(html).toContain('<th scope="row">2025-04-16</th>');
    expect(html).not.toContain('<th scope="row">2025-06-23</th>');
  });
});

describe("bad edition values", () => {
  const bad = ["20", "20255", "1999", "2101", "abcd", "2025.0", "2025x", "-2025", "0x7e9", "%3Cscript%3E"];
  for (const value of bad) {
    test(`edition=${value} → 400 naming the parameter, nothing changed`, async () => {
      ctx.clock.set("2026-06-11T10:00:00Z");
      await seedTwoEditions();
      const count = async () => (await ctx.deps.database.query<{ n: string }>(sql`select (select count(*) from engagement_interactions) + (select count(*) from insights_daily_engagement) as n`))[0]?.n;
      const before = await count();
      const res = await get(`/api/admin/insights?edition=${value}`);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.issues).toEqual([{ field: "edition", message: "edition must be a year of 4 digits from 2000 to 2100" }]);
      expect(JSON.stringify(body)).not.toContain("<script>");
      for (const path of [`/admin/insights?edition=${value}`, `/admin/insights/stats?edition=${value}`, `/admin/insights/comparison?edition=${value}`]) {
        expect((await get(path, HX)).status).toBe(400);
      }
      expect(await count()).toBe(before);
    });
  }
});
