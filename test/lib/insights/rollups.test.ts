// The rollup-based figures against the raw-row definition (reference.ts), on random tracking data
// inserted in shuffled batches of random sizes (so the triggers see views out of order, ties at
// the same instant and rows after the window end), for several windows and end instants across
// the autumn DST change; and the triggers' rollups against a rebuild from the raw rows.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { resetDatabase, sharedDatabase, TEST_DATABASE_URL } from "../../helpers/database.ts";
import { plus, seedDiscovery, seedEngagement, type DiscoverySeed, type EngagementSeed } from "../../helpers/insights.ts";
import { listDailyInsights, listEventInsights, readDiscoveryInsights, readEngagementBlocks, readSummary, readSummaryAndDaily, scopeOf } from "../../../src/lib/insights/metrics.ts";
import { rawDailyInsights, rawDiscoveryInsights, rawEventInsights, rawSummary } from "../../../src/lib/insights/reference.ts";
import { nextDate, parisDayStart, windowEndingAt } from "../../../src/lib/insights/window.ts";
import { parisDate } from "../../../src/lib/paris-time.ts";
import type { Database } from "../../../src/lib/db/client.ts";

beforeEach(async () => {
  await resetDatabase(await sharedDatabase());
});

/** A small deterministic generator (the same data on every run). */
function random(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, pick: <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)], int: (max: number) => Math.floor(next() * max) };
}

// The latest row is 2026-10-26T10:00Z; the autumn DST change (Oct 25) is inside every window.
const LAST = new Date("2026-10-26T10:00:00Z");
const ENDS = [
  "2026-10-26T10:00:00.001Z", // just after every row
  "2026-10-26T07:00:00Z", // three hours of rows after the end
  "2026-10-24T21:56:00Z", // 23:56 Paris: every window starts 4 min before a Paris midnight (start + 600 s crosses it)
  "2026-10-25T01:30:00Z", // the second 02:30 of the DST night
];
const WINDOWS = [1, 2, 3, 7, 30];

/** Every window's start, with the first Paris midnight at least 600 s after it (where whole rollup days begin). */
function windowStarts(): { end: string; days: number; start: string; midnight: string }[] {
  return ENDS.flatMap((end) =>
    WINDOWS.map((days) => {
      const start = new Date(new Date(end).getTime() - days * 86_400_000).toISOString();
      const midnight = parisDayStart(nextDate(parisDate(new Date(Date.parse(start) + 600_000)))).toISOString();
      return { end, days, start, midnight };
    }),
  );
}

function engagementRows(rnd: ReturnType<typeof random>): EngagementSeed[] {
  const rows: EngagementSeed[] = [];
  const sessions = Array.from({ length: 30 }, (_, i) => `s${i}`);
  const events = Array.from({ length: 7 }, (_, i) => `ev-${i}`);
  const actions = ["click", "click", "click", "outbound_click", "calendar_sync"] as const;
  for (let i = 0; i < 900; i++) {
    const at = new Date(LAST.getTime() - Math.pow(rnd.next(), 2) * 34 * 86_400_000).toISOString();
    rows.push({ key: rnd.pick(events), action: rnd.pick(actions), session: rnd.next() < 0.1 ? null : rnd.pick(sessions), at, email: rnd.next() < 0.1 ? "ada@example.org" : null });
  }
  // Chains of views 0–700 s apart (the 600 s rule), some at the same instant, some across midnights.
  for (let i = 0; i < 80; i++) {
    const key = rnd.pick(events);
    const session = rnd.pick(sessions);
    let at = new Date(LAST.getTime() - rnd.next() * 10 * 86_400_000).toISOString();
    for (let j = 0, len = 2 + rnd.int(5); j < len; j++) {
      rows.push({ key, session, at });
      at = plus(at, rnd.pick([0, 1, 300, 599, 600, 601, 700]));
    }
  }
  for (const end of ENDS) {
    for (const days of WINDOWS) {
      const start = new Date(new Date(end).getTime() - days * 86_400_000).toISOString();
      // A view 100 s before each window start and one 400 s after it (the first in the window),
      // views 200 and 599 s after it, and rows right at the end.
      rows.push({ key: "ev-0", session: "edge", at: plus(start, -100) }, { key: "ev-0", session: "edge", at: plus(start, 400) });
      rows.push({ key: "ev-3", session: "edge", at: plus(start, 200) }, { key: "ev-3", session: "edge", at: plus(start, 599) });
      rows.push({ key: "ev-1", action: "calendar_sync", session: "late", at: end }, { key: "ev-1", session: "late", at: plus(end, -0.001) });
    }
  }
  // Sessions whose latest row lies exactly on a bound of a window's partial first day (its start,
  // and the midnight where the rollup days begin), with a row a second before it.
  for (const { end, days, start, midnight } of windowStarts()) {
    for (const [name, at] of [["at-start", start], ["at-midnight", midnight]]) {
      rows.push({ key: "ev-2", session: `${name}-${end}-${days}`, at: plus(at, -1) }, { key: "ev-2", action: "outbound_click", session: `${name}-${end}-${days}`, at });
    }
  }
  return rows;
}

function discoveryRows(rnd: ReturnType<typeof random>): DiscoverySeed[] {
  const queries = ["techno", "tecno", "house", "afro house", "jazz", "rap", "pop", "r&b"];
  const actions = ["search", "search", "filter_apply", "filter_apply", "filter_clear"] as const;
  const rows: DiscoverySeed[] = Array.from({ length: 600 }, () => {
    const action = rnd.pick(actions);
    return {
      action,
      session: rnd.next() < 0.1 ? null : `d${rnd.int(25)}`,
      at: new Date(LAST.getTime() - Math.pow(rnd.next(), 2) * 34 * 86_400_000).toISOString(),
      query: action === "search" ? rnd.pick(queries) : null,
      group: action === "filter_apply" ? rnd.pick(["genre", "arrondissement", null]) : null,
      value: action === "filter_apply" ? rnd.pick(["house", "11", "jazz"]) : null,
    };
  });
  for (const { end, days, start, midnight } of windowStarts()) {
    for (const [name, at] of [["at-start", start], ["at-midnight", midnight]]) {
      for (const when of [plus(at, -1), at]) rows.push({ action: "filter_clear", session: `${name}-${end}-${days}`, at: when });
    }
  }
  return rows;
}

/** Inserts the rows in shuffled batches of 1–60 rows, several batches at once on a server. */
async function insertShuffled<T>(rows: T[], rnd: ReturnType<typeof random>, insert: (batch: T[]) => Promise<void>) {
  const shuffled = [...rows];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const batches: T[][] = [];
  for (let i = 0; i < shuffled.length; ) {
    const size = 1 + rnd.int(60);
    batches.push(shuffled.slice(i, i + size));
    i += size;
  }
  const parallel = TEST_DATABASE_URL ? 4 : 1;
  for (let i = 0; i < batches.length; i += parallel) await Promise.all(batches.slice(i, i + parallel).map(insert));
}

/** Every rollup table's rows in a fixed order (the `prev_*` columns only serve inside a trigger). */
async function rollupTables(database: Database) {
  const tables: Record<string, string> = {
    insights_daily_engagement: "select day::text, event_key, click_count, deduped_count, outbound_count, calendar_count from insights_daily_engagement where click_count + deduped_count + outbound_count + calendar_count > 0 order by 1, 2",
    insights_engagement_sessions: "select session_id, last_any_at, last_click_at, last_outbound_at, last_calendar_at from insights_engagement_sessions order by 1",
    insights_session_days: "select day::text, kind, sessions from insights_session_days where sessions <> 0 order by 1, 2",
    insights_event_sessions: "select session_id, event_key, last_at from insights_event_sessions order by 1, 2",
    insights_event_session_days: "select day::text, event_key, sessions from insights_event_session_days where sessions <> 0 order by 1, 2",
    insights_daily_discovery: "select day::text, action_type, count from insights_daily_discovery order by 1, 2",
    insights_daily_filters: "select day::text, filter_group, filter_value, count from insights_daily_filters order by 1, 2, 3",
    insights_daily_searches: "select day::text, search_query, count from insights_daily_searches order by 1, 2",
    insights_discovery_sessions: "select session_id, last_at from insights_discovery_sessions order by 1",
    insights_discovery_session_days: "select day::text, sessions from insights_discovery_session_days where sessions <> 0 order by 1",
  };
  const out: Record<string, unknown[]> = {};
  for (const [name, query] of Object.entries(tables)) out[name] = await database.query(sql.raw(query));
  return out;
}

describe("rollups equal the raw rows", () => {
  test("every block, for windows of 1–30 days ending at four instants, equals the raw-row computation", async () => {
    const database = await sharedDatabase();
    const rnd = random(7);
    await insertShuffled(engagementRows(rnd), rnd, (batch) => seedEngagement(database, batch));
    await insertShuffled(discoveryRows(rnd), rnd, (batch) => seedDiscovery(database, batch));
    const names = new Map([["ev-2", "Two"]]);
    let compared = 0;
    for (const end of ENDS) {
      for (const days of WINDOWS) {
        const window = windowEndingAt(new Date(end), days);
        const scope = await scopeOf(database, window);
        const label = `${days} days to ${end}`;
        const summary = await rawSummary(database, window);
        expect({ label, v: await readSummary(database, scope) }).toEqual({ label, v: summary });
        const events = await rawEventInsights(database, window, names);
        expect({ label, v: await listEventInsights(database, scope, names) }).toEqual({ label, v: events });
        const daily = await rawDailyInsights(database, window);
        expect({ label, v: await listDailyInsights(database, scope) }).toEqual({ label, v: daily });
        for (const mode of ["conservative", "aggressive"] as const) {
          expect({ label, v: await readDiscoveryInsights(database, scope, mode) }).toEqual({ label, v: await rawDiscoveryInsights(database, window, mode) });
        }
        expect({ label, v: await readSummaryAndDaily(database, scope) }).toEqual({ label, v: { summary, daily } });
        const blocks = await readEngagementBlocks(database, scope, names);
        expect({ label, v: blocks.summary }).toEqual({ label, v: summary });
        expect({ label, v: blocks.daily }).toEqual({ label, v: daily });
        expect({ label, v: blocks.events.map((e) => e.eventKey).sort() }).toEqual({ label, v: events.map((e) => e.eventKey).sort() });
        if (scope.rollupFrom) compared++;
        // The data is not trivial: most windows have views, deduplicated repeats and sessions.
        if (days >= 7) expect(summary.clickCount).toBeGreaterThan(summary.dedupedViewCount);
      }
    }
    expect(compared).toBeGreaterThanOrEqual(16);
  });

  test("the triggers' rollups equal a rebuild from the raw rows", async () => {
    const database = await sharedDatabase();
    const rnd = random(11);
    await insertShuffled(engagementRows(rnd), rnd, (batch) => seedEngagement(database, batch));
    await insertShuffled(discoveryRows(rnd), rnd, (batch) => seedDiscovery(database, batch));
    const maintained = await rollupTables(database);
    expect(maintained.insights_daily_engagement.length).toBeGreaterThan(50);
    await database.query(sql`select insights_rebuild_rollups()`);
    expect(await rollupTables(database)).toEqual(maintained);
  });

  test("concurrent batches of the same sessions and events (all at once on a server) leave the rollups a rebuild gives", async () => {
    const database = await sharedDatabase();
    const rnd = random(23);
    const base = new Date("2026-10-25T21:30:00Z").getTime(); // the hour around Paris midnight
    const batches = Array.from({ length: 24 }, () =>
      Array.from({ length: 1 + rnd.int(12) }, () => ({
        key: rnd.pick(["ev-a", "ev-b"]),
        action: rnd.pick(["click", "click", "click", "calendar_sync"] as const),
        session: rnd.pick(["s1", "s2", null]),
        at: new Date(base + rnd.int(3600) * 1000).toISOString(),
      })),
    );
    await Promise.all(batches.map((batch) => seedEngagement(database, batch)));
    const maintained = await rollupTables(database);
    await database.query(sql`select insights_rebuild_rollups()`);
    expect(await rollupTables(database)).toEqual(maintained);
    const window = windowEndingAt(new Date("2026-10-26T12:00:00Z"), 7);
    expect(await readSummary(database, await scopeOf(database, window))).toEqual(await rawSummary(database, window));
  });

  test("one statement with many views of one session and event (a bulk insert) flags them like one-by-one inserts", async () => {
    const database = await sharedDatabase();
    const base = "2026-10-20T10:00:00.000Z";
    const gaps = [0, 599, 1199, 1200, 1200, 2000, 2599, 2600];
    // One by one in reverse order, then the rest in one statement.
    for (const g of [...gaps].reverse().slice(0, 4)) await seedEngagement(database, [{ key: "ev-a", session: "s1", at: plus(base, g) }]);
    await seedEngagement(database, gaps.slice(0, 4).map((g) => ({ key: "ev-a", session: "s1", at: plus(base, g) })));
    const [row] = await database.query<{ deduped_count: number }>(sql`select deduped_count from insights_daily_engagement where event_key = 'ev-a'`);
    // 0 counts; 599 no; 1199 yes (600 after 599); 1200 no; 1200 no; 2000 yes; 2599 no; 2600 no.
    expect(Number(row.deduped_count)).toBe(3);
    const summary = await readSummary(database, await scopeOf(database, windowEndingAt(new Date("2026-10-26T00:00:00Z"), 30)));
    expect(summary).toMatchObject({ clickCount: 8, dedupedViewCount: 3, uniqueSessionCount: 1 });
  });
});
