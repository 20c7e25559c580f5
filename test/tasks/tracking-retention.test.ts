// The retention task: rows past the limit leave the raw tables, the dashboard figures for those
// days do not change (also after a rebuild of the rollups), a second run is a no-op, and the cron
// endpoint runs it.

import { beforeEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { plus, seedDiscovery, seedEngagement, type EngagementSeed } from "../helpers/insights.ts";
import { applyTrackingRetention, retentionBoundary } from "../../src/lib/insights/retention.ts";
import { rebuildRollups } from "../../src/lib/insights/rollups.ts";

const NOW = "2026-06-21T20:00:00.000Z";
const CRON_SECRET = "cron-secret-for-retention-tests";

const ctx = useTestApp({ env: { TRACKING_RETENTION_DAYS: "10", CRON_SECRET } });
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set(NOW);
});

const report = async (query: string) => {
  const body = await (await ctx.request(`/api/admin/insights?${query}`, { headers: ADMIN_KEY_HEADER })).json();
  delete body.range;
  return body;
};

// 10 days before 2026-06-21T20:00Z is June 11 in Paris: everything before June 11 00:00 Paris
// (June 10 22:00 UTC) is rolled up.
const BOUNDARY = "2026-06-10T22:00:00.000Z";

function craftedRows(): EngagementSeed[] {
  const rows: EngagementSeed[] = [];
  const sessions = ["s1", "s2", "s3", null];
  for (let day = 1; day <= 20; day++) {
    const base = `2026-06-${String(day).padStart(2, "0")}T09:00:00.000Z`;
    sessions.forEach((session, i) => {
      rows.push({ key: `ev-${(day + i) % 3}`, session, at: plus(base, i * 100) });
      rows.push({ key: `ev-${(day + i) % 3}`, session, at: plus(base, i * 100 + 300) });
      if (i % 2 === 0) rows.push({ key: `ev-${i}`, action: "calendar_sync", session, at: plus(base, 900) });
      if (day % 4 === 0) rows.push({ key: `ev-${i}`, action: "outbound_click", session, at: plus(base, 1000), email: "ada@example.org" });
    });
  }
  // Views across the boundary: 540 s apart (the second is a repeat), then 700 s later (counted).
  rows.push({ key: "ev-x", session: "edge", at: plus(BOUNDARY, -300) });
  rows.push({ key: "ev-x", session: "edge", at: plus(BOUNDARY, 240) });
  rows.push({ key: "ev-x", session: "edge", at: plus(BOUNDARY, 940) });
  // The boundary day in Paris across midnight.
  rows.push({ key: "ev-y", session: "late", at: "2026-06-10T21:59:59.000Z" });
  return rows;
}

test("rows past the limit leave the raw tables; every figure for 7, 30 and 365 days is unchanged", async () => {
  expect(retentionBoundary(new Date(NOW), 10).toISOString()).toBe(BOUNDARY);
  await seedEngagement(ctx.deps.database, craftedRows());
  await seedDiscovery(ctx.deps.database, [
    { action: "search", session: "d1", at: "2026-06-02T10:00:00Z", query: "techno" },
    { action: "search", session: "d2", at: "2026-06-15T10:00:00Z", query: "tecno" },
    { action: "filter_apply", session: "d1", at: "2026-06-03T10:00:00Z", group: "genre", value: "house" },
    { action: "filter_apply", session: "d1", at: "2026-06-16T10:00:00Z", group: "genre", value: "house" },
    { action: "filter_clear", session: null, at: "2026-06-04T10:00:00Z" },
  ]);
  // Windows that start before the archived days or after the boundary. (A window starting inside an
  // archived day counts that day whole; with the default 400 days no window of at most 365 does.)
  const queries = ["windowDays=30", "windowDays=365&cluster=aggressive", "windowDays=7", "windowDays=10"];
  const before = await Promise.all(queries.map(report));
  expect(before[0].summary.clickCount).toBeGreaterThan(100);

  const res = await ctx.request("/api/cron/tracking-retention", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
  expect(res.status).toBe(200);
  const outcome = await res.json();
  expect(outcome).toMatchObject({ ok: true, archivedBefore: BOUNDARY });
  expect(outcome.deletedEngagementRows).toBeGreaterThan(0);

  const [raw] = await ctx.deps.database.query<{ e: number; d: number; tail: number }>(sql`
    select (select count(*) from engagement_interactions where recorded_at < ${BOUNDARY}::timestamptz - interval '600 seconds') as e,
      (select count(*) from discovery_interactions where recorded_at < ${BOUNDARY}::timestamptz) as d,
      (select count(*) from engagement_interactions where recorded_at < ${BOUNDARY}::timestamptz) as tail`);
  expect([Number(raw.e), Number(raw.d)]).toEqual([0, 0]);
  // Only the 600 s tail before the boundary stays, as previous views for the next day.
  expect(Number(raw.tail)).toBe(2);

  const after = await Promise.all(queries.map(report));
  expect(after).toEqual(before);
  // A rebuild from the raw rows keeps the archived days' rollups (their rows are gone) and
  // recomputes the rest: the figures stay the same.
  await rebuildRollups(ctx.deps);
  expect(await Promise.all(queries.map(report))).toEqual(before);

  // A day later, the next run archives one more day; the figures still match what the raw rows gave.
  const second = await applyTrackingRetention(ctx.deps, new Date(NOW), 10);
  expect(second).toMatchObject({ archivedBefore: BOUNDARY, deletedEngagementRows: 0, deletedDiscoveryRows: 0 });
  ctx.clock.set(plus(NOW, 86_400));
  const nextBefore = await report("windowDays=30");
  await applyTrackingRetention(ctx.deps, ctx.clock.now(), 10);
  expect(await report("windowDays=30")).toEqual(nextBefore);
});

test("an empty database: the task runs and the dashboard answers", async () => {
  const outcome = await applyTrackingRetention(ctx.deps, new Date(NOW), 400);
  expect(outcome).toMatchObject({ archivedEngagementRows: 0, deletedEngagementRows: 0 });
  expect((await report("windowDays=90")).summary.clickCount).toBe(0);
});
