// The partner statistics read from the rollups against the raw computation (readMetrics,
// readRawDailySeries), after random batches and single inserts (several sessions and actions,
// records outside the windows, at their bounds, after "now", on other keys), retention and
// per-session deletes, an erasure, a hand update, a reschedule, a re-fulfilment, an order made
// open-ended by hand and a deleted order; and the triggers' rollups against a rebuild. On a
// Postgres server also two connections inserting at once for the same activation and new sessions.

import { describe, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { TEST_ADMIN_KEY, useTestApp } from "../../helpers/app.ts";
import { TEST_DATABASE_URL } from "../../helpers/database.ts";
import { engagementInteractions, paidOrders } from "../../../src/lib/db/schema/index.ts";
import { insertEngagementBatch, type EngagementRow } from "../../../src/lib/tracking/rows.ts";
import { applyTrackingRetention } from "../../../src/lib/insights/retention.ts";
import { eraseByEmail } from "../../../src/lib/insights/erasure.ts";
import { readDailySeries, readMetrics, readRawDailySeries, statsWindow, type PartnerStats } from "../../../src/lib/partners/stats.ts";
import { rebuildPartnerStats } from "../../../src/lib/partners/rollup.ts";
import { partnerStatsToken } from "../../../src/lib/partners/tokens.ts";

const ctx = useTestApp();

const KEY = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };
const K1 = "evt_fixture000001";
const K2 = "evt_fixture000002";
const K3 = "evt_fixture000003";
const ACTIONS = ["click", "click", "click", "outbound_click", "calendar_sync"] as const;

/** A small deterministic generator (the same data on every run). */
function random(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return { next, pick: <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)], int: (max: number) => Math.floor(next() * max) };
}

async function api(path: string, method = "GET", body?: unknown): Promise<any> {
  const res = await ctx.request(path, { method, headers: KEY, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as any;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${json.error}`);
  return json;
}

async function activation(eventKey: string, tier: "spotlight" | "promoted", startAt: string, durationHours: number, fulfil = true): Promise<string> {
  return (await api("/api/admin/orders/test", "POST", { eventKey, tier, startAt, durationHours, fulfil })).order.id as string;
}

const rowsOf = (result: unknown): Record<string, unknown>[] => (Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []));

/** Every rollup row, in key order, as plain values. */
async function rollupTables(): Promise<unknown> {
  const read = async (q: ReturnType<typeof sql>) => rowsOf(await ctx.deps.db.execute(q)).map((r) => JSON.stringify(r));
  return {
    stats: await read(sql`select order_id, event_key, start_at::text, end_at::text, click_count, outbound_count, calendar_count, sessions, view_sessions, outbound_sessions, calendar_sessions from partner_stats order by order_id`),
    sessions: await read(sql`select order_id, session_id, row_count, click_count, outbound_count, calendar_count from partner_stats_sessions order by order_id, session_id`),
    days: await read(sql`select order_id, day::text, row_count, click_count, outbound_count, calendar_count from partner_stats_days order by order_id, day`),
  };
}

async function rollupOrderIds(): Promise<string[]> {
  return rowsOf(await ctx.deps.db.execute(sql`select order_id from partner_stats order by order_id`)).map((r) => String(r.order_id));
}

/**
 * For every order: the JSON figures and the page's daily series against the raw computation over
 * the same window; a rollup exactly for the readable activations; the rollup tables equal to a
 * rebuild from the raw records. Returns the figures read, for a look at what was covered.
 */
async function expectExact(step: string): Promise<Map<string, PartnerStats["metrics"]>> {
  const orders = await ctx.deps.db.select().from(paidOrders);
  const seen = new Map<string, PartnerStats["metrics"]>();
  const readable: string[] = [];
  for (const order of orders) {
    const res = await ctx.request(`/api/partner-stats/${order.id}?token=${order.partnerStatsTokenHash ? partnerStatsToken(ctx.deps.config.authSecret, order.id) : "none"}`);
    if (order.status !== "activated") {
      expect({ step, status: res.status }).toEqual({ step, status: order.partnerStatsTokenHash ? 409 : 403 });
      continue;
    }
    readable.push(order.id);
    const body = (await res.json()) as { data: PartnerStats };
    const { startAt, endAt } = statsWindow(order, ctx.clock.now());
    expect({ step, range: body.data.range }).toEqual({ step, range: { startAt: startAt.toISOString(), endAt: endAt.toISOString() } });
    const raw = await readMetrics(ctx.deps.db, order.fulfilledEventKey!, startAt, endAt);
    expect({ step, order: order.id, metrics: body.data.metrics }).toEqual({ step, order: order.id, metrics: raw });
    expect({ step, order: order.id, days: await readDailySeries(ctx.deps.db, body.data) }).toEqual({
      step,
      order: order.id,
      days: await readRawDailySeries(ctx.deps.db, order.fulfilledEventKey!, startAt, endAt),
    });
    seen.set(order.id, raw);
  }
  expect({ step, rollups: await rollupOrderIds() }).toEqual({ step, rollups: readable.sort() });
  expect(ctx.logs.filter((l) => l.line.includes("rollup missing"))).toEqual([]);
  const kept = await rollupTables();
  await rebuildPartnerStats({ db: ctx.deps.db, log: ctx.deps.log });
  expect({ step, tables: kept }).toEqual({ step, tables: await rollupTables() });
  return seen;
}

/** Random records around 2026-06-18/20 on the three keys and another, some at the windows' bounds. */
function randomRows(rnd: ReturnType<typeof random>, count: number, bounds: readonly string[]): EngagementRow[] {
  const base = Date.parse("2026-06-17T20:00:00Z");
  return Array.from({ length: count }, (): EngagementRow => {
    const at = rnd.next() < 0.15 ? new Date(Date.parse(rnd.pick(bounds)) + rnd.pick([-1, 0, 0, 1])).toISOString() : new Date(base + rnd.next() * 3.5 * 86_400_000).toISOString();
    const email = rnd.next() < 0.1 ? "ada@example.org" : null;
    return {
      event_key: rnd.pick([K1, K1, K2, K3, "evt_fixture000009", K1.toUpperCase()]),
      action_type: rnd.pick(ACTIONS),
      session_id: rnd.next() < 0.12 ? null : `s${rnd.int(25)}`,
      source: "event_open",
      path: "/",
      is_authenticated: email !== null,
      user_email: email,
      recorded_at: at,
    };
  });
}

/** Inserts rows as the write-behind does (batches of random sizes) or one statement per row. */
async function insertRows(rnd: ReturnType<typeof random>, rows: EngagementRow[]): Promise<void> {
  for (let i = 0; i < rows.length; ) {
    if (rnd.next() < 0.3) {
      const r = rows[i++]!;
      await ctx.deps.db.insert(engagementInteractions).values({ eventKey: r.event_key, actionType: r.action_type, sessionId: r.session_id, userEmail: r.user_email, isAuthenticated: r.is_authenticated, recordedAt: new Date(r.recorded_at) });
    } else {
      const size = 1 + rnd.int(60);
      await insertEngagementBatch(ctx.deps.db, rows.slice(i, i + size), randomUUID());
      i += size;
    }
  }
}

describe("partner statistics rollups", () => {
  test("stay equal to the raw computation through inserts, deletes, updates, reschedules and re-fulfilment", async () => {
    ctx.clock.set("2026-06-18T10:00:00Z");
    const rnd = random(20260621);
    // Windows (Paris times): A 12:00 +24 h, B (same key) 14:00 +6 h, C another key 48 h, a pending
    // order, E made open-ended by hand below.
    const a = await activation(K1, "spotlight", "2026-06-18T12:00", 24);
    const b = await activation(K1, "promoted", "2026-06-18T14:00", 6);
    const c = await activation(K2, "promoted", "2026-06-18T18:00", 48);
    await activation(K2, "promoted", "2026-06-18T12:00", 24, false);
    const e = await activation(K3, "spotlight", "2026-06-18T12:00", 24);
    await ctx.deps.database.query(sql`update paid_orders set fulfilled_end_at = null where id = ${e}`);
    const bounds = ["2026-06-18T10:00:00Z", "2026-06-19T10:00:00Z", "2026-06-18T12:00:00Z", "2026-06-18T18:00:00Z", "2026-06-18T16:00:00Z", "2026-06-20T16:00:00Z"];
    await expectExact("empty windows");

    await insertRows(rnd, randomRows(rnd, 700, bounds));
    // E's window is open and "now" is its start: every record of its key is late, none counts.
    const covered = await expectExact("after inserts");
    const wide = (m: PartnerStats["metrics"] | undefined) => Boolean(m && m.clickCount > 0 && m.uniqueSessionCount > 1 && m.uniqueCalendarSessionCount > 0);
    expect([a, b, c, e].map((id) => wide(covered.get(id)))).toEqual([true, true, true, false]);
    expect(covered.get(e)!.clickCount).toBe(0);

    // The clock moves on; E's window (open) now reads up to the later now, with records after it.
    ctx.clock.set("2026-06-19T22:30:00Z");
    const later = await expectExact("later now");
    expect([a, b, c, e].map((id) => wide(later.get(id)))).toEqual([true, true, true, true]);

    // Retention-style: whole Paris days before the boundary (2026-06-19 00:00 Paris) go.
    const retention = await applyTrackingRetention({ db: ctx.deps.db, log: ctx.deps.log }, new Date("2026-06-20T10:00:00Z"), 1);
    expect(retention.deletedEngagementRows).toBeGreaterThan(50);
    await expectExact("after retention");

    // A session's records deleted; an erasure (email cleared: nothing moves); a hand update moving
    // records between sessions and actions.
    await ctx.deps.database.query(sql`delete from engagement_interactions where session_id in ('s3', 's7')`);
    await eraseByEmail({ db: ctx.deps.db, log: ctx.deps.log, now: ctx.deps.now }, "ada@example.org");
    await ctx.deps.database.query(sql`update engagement_interactions set session_id = 's1', action_type = 'click' where session_id = 's2' and action_type = 'calendar_sync'`);
    await ctx.deps.database.query(sql`update engagement_interactions set session_id = null where session_id = 's4'`);
    await expectExact("after session deletes and updates");

    // Reschedule the spotlight entries: the orders keep the window they were fulfilled with.
    const listing = await api("/api/admin/placements/spotlight");
    for (const entry of listing.entries) await api(`/api/admin/placements/spotlight/${entry.id}/reschedule`, "POST", { startAt: "2026-06-20T20:00", durationHours: 3 });
    await expectExact("after reschedule");

    // Re-fulfil A on another key and window; dismiss and delete B.
    await api(`/api/admin/orders/${a}`, "PATCH", { status: "processing" });
    expect(await rollupOrderIds()).not.toContain(a);
    await api(`/api/admin/orders/${a}/fulfil`, "POST", { eventKey: K2, tier: "promoted", startAt: "2026-06-20T01:00", durationHours: 30 });
    await api(`/api/admin/orders/${b}`, "PATCH", { status: "dismissed" });
    await api(`/api/admin/orders/${b}`, "DELETE");
    await expectExact("after re-fulfil and delete");

    // More records, then a window moved by hand (start later, end earlier) and records again.
    await insertRows(rnd, randomRows(rnd, 300, [...bounds, "2026-06-19T23:00:00Z", "2026-06-21T05:00:00Z"]));
    await ctx.deps.database.query(sql`update paid_orders set fulfilled_start_at = '2026-06-19T20:00:00Z', fulfilled_end_at = '2026-06-20T06:00:00Z' where id = ${c}`);
    await insertRows(rnd, randomRows(rnd, 200, bounds));
    await expectExact("after a moved window");

    // Truncating the raw table empties every rollup.
    await ctx.deps.database.query(sql`truncate engagement_interactions`);
    const emptied = await expectExact("after truncate");
    expect([...emptied.values()].map((m) => m.clickCount + m.uniqueSessionCount)).toEqual([0, 0, 0]);
  });

  test(`two ${TEST_DATABASE_URL ? "connections" : "callers"} inserting batches at once for the same activation and new sessions lose no count`, async () => {
    ctx.clock.set("2026-06-18T10:00:00Z");
    await ctx.deps.database.query(sql`truncate engagement_interactions, paid_orders, spotlight_schedule, promoted_schedule`);
    const id = await activation(K1, "promoted", "2026-06-18T12:00", 48);
    // On a server, two connections of their own (the app's pool aside); PGlite has one connection,
    // so there the two callers share it.
    const [{ schema }] = rowsOf(await ctx.deps.db.execute(sql`select current_schema() as schema`)) as { schema: string }[];
    const clients = TEST_DATABASE_URL ? [0, 1].map(() => postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { search_path: schema } })) : undefined;
    const execute = (who: number, query: string, params: string[]) => (clients ? clients[who]!.unsafe(query, params) : ctx.deps.database.query(sql.raw(query.replace(/\$(\d)/g, (_, n) => `'${params[Number(n) - 1]!.replaceAll("'", "''")}'`))));
    try {
      const rnd = random(7);
      // 40 rounds: both insert a batch of 50 at the same moment, sharing new sessions; every tenth
      // round each also deletes a session's records while the other inserts.
      const run = async (who: number) => {
        for (let round = 0; round < 40; round++) {
          const rows = Array.from({ length: 50 }, (_, i) => ({
            event_key: K1,
            action_type: ACTIONS[(i + who + round) % ACTIONS.length],
            session_id: `r${round}-${(i * 7 + who) % 30}`,
            recorded_at: new Date(Date.parse("2026-06-18T10:00:00Z") + rnd.int(48 * 3_600_000)).toISOString(),
          }));
          await execute(
            who,
            `insert into engagement_interactions (event_key, action_type, session_id, recorded_at)
             select x.event_key, x.action_type, x.session_id, x.recorded_at from jsonb_to_recordset($1::text::jsonb)
             as x(event_key text, action_type text, session_id text, recorded_at timestamptz)`,
            [JSON.stringify(rows)],
          );
          if (round % 10 === 9) await execute(who, "delete from engagement_interactions where session_id = $1", [`r${round - 1}-${who}`]);
        }
      };
      // Meanwhile activations of the same key are made, ended and fulfilled again through the
      // app's own connections: each backfill must see every record committed before it, and every
      // record committed after it must reach its rollup.
      const admin = async () => {
        for (let i = 0; i < 4; i++) {
          const other = await activation(K1, "promoted", `2026-06-1${8 + (i % 2)}T0${i}:00`, 30);
          await Bun.sleep(20);
          await api(`/api/admin/orders/${other}`, "PATCH", { status: "processing" });
          await api(`/api/admin/orders/${other}/fulfil`, "POST", { eventKey: K1, tier: "promoted", startAt: "2026-06-18T15:00", durationHours: 20 + i });
        }
      };
      await Promise.all([run(0), run(1), admin()]);
    } finally {
      if (clients) await Promise.all(clients.map((client) => client.end({ timeout: 5 })));
    }
    const covered = await expectExact("after concurrent batches");
    expect(covered.get(id)!.clickCount).toBeGreaterThan(1000);
    expect(covered.get(id)!.uniqueSessionCount).toBeGreaterThan(1000);
    expect(covered.size).toBe(5);
  });
});
