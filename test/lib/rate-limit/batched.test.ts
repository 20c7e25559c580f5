import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createBatchedLimiter } from "../../../src/lib/rate-limit/batched.ts";
import { createRateLimiter, RATE_LIMITS } from "../../../src/lib/rate-limit/fixed-window.ts";
import { hmacHex } from "../../../src/lib/crypto.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";
import type { Db } from "../../../src/lib/db/client.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { createTestTimers } from "../../helpers/timers.ts";
import type { Timers } from "../../../src/lib/timers.ts";
import { createClock, TEST_AUTH_SECRET, type TestClock, useTestApp } from "../../helpers/app.ts";

const ctx = useTestApp();
let clock: TestClock;
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  clock = createClock("2026-06-21T20:00:00Z");
});

const rule = { scope: "batched_test", limit: 240, windowSeconds: 60 };
// A long interval: the tests flush by hand.
const make = (db: Db = ctx.deps.db, log = createMemoryLogger(), extra: { maxKeys?: number; localFallback?: boolean; timers?: Timers; flushIntervalMs?: number } = {}) =>
  createBatchedLimiter({ db, secret: TEST_AUTH_SECRET, log, now: clock.now, flushIntervalMs: 60_000, ...extra });

async function storedCount(scope: string): Promise<number> {
  const rows = await ctx.deps.database.query<{ count: number }>(sql`select count from rate_limit_counters where scope = ${scope}`);
  return rows.reduce((n, r) => n + Number(r.count), 0);
}

describe("batched tracking limiter", () => {
  test("one instance is exact: the limit-th hit passes, the next is blocked, every hit is counted in Postgres", async () => {
    const limiter = make();
    const decisions = Array.from({ length: 300 }, () => limiter.hit(rule, ["203.0.113.5"], { failOpen: false }));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(240);
    expect(decisions[239].allowed).toBe(true);
    expect(decisions[240]).toMatchObject({ status: "blocked", allowed: false, count: 241, retryAfter: 60 });
    expect(await limiter.flush()).toBe(true);
    expect(await storedCount(rule.scope)).toBe(300);
    await limiter.close();
  });

  test("same table, same keys and same window as the exact limiter", async () => {
    const limiter = make();
    for (let i = 0; i < 5; i++) limiter.hit(RATE_LIMITS.trackEventIp, ["198.51.100.7"], { failOpen: false });
    await limiter.flush();
    const rows = await ctx.deps.database.query<Record<string, unknown>>(sql`select * from rate_limit_counters`);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(hmacHex(TEST_AUTH_SECRET, "track_event_ip|198.51.100.7"));
    expect(limiter.keyFor(RATE_LIMITS.trackEventIp, ["198.51.100.7"])).toBe(rows[0].key_hash as string);
    expect(JSON.stringify(rows)).not.toContain("198.51.100.7");
    const exact = createRateLimiter({ db: ctx.deps.db, secret: TEST_AUTH_SECRET, log: createMemoryLogger(), now: clock.now });
    const next = await exact.check(RATE_LIMITS.trackEventIp, ["198.51.100.7"], { failOpen: false });
    expect(next.status === "unavailable" ? -1 : next.count).toBe(6);
    await limiter.close();
  });

  test("fixed window from the first hit: blocked until reset, then a new window starts", async () => {
    const limiter = make();
    const small = { scope: "window_batched", limit: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) expect(limiter.hit(small, ["ip"], { failOpen: false }).allowed).toBe(true);
    clock.advance(20_500);
    const blocked = limiter.hit(small, ["ip"], { failOpen: false });
    expect(blocked).toMatchObject({ status: "blocked", retryAfter: 40 });
    await limiter.flush();
    clock.advance(39_000);
    expect(limiter.hit(small, ["ip"], { failOpen: false }).allowed).toBe(false);
    clock.advance(500); // exactly at reset
    expect(limiter.hit(small, ["ip"], { failOpen: false })).toMatchObject({ allowed: true, count: 1 });
    await limiter.flush();
    const [row] = await ctx.deps.database.query<{ count: number; reset_at: unknown }>(sql`select count, reset_at from rate_limit_counters where scope = 'window_batched'`);
    expect(row.count).toBe(1);
    expect(new Date(row.reset_at as string).toISOString()).toBe("2026-06-21T20:02:00.000Z");
    await limiter.close();
  });

  test("across instances: after one flush each instance sees the other's hits and blocks", async () => {
    const a = make();
    const b = make();
    for (let i = 0; i < 240; i++) expect(a.hit(rule, ["shared-ip"], { failOpen: false }).allowed).toBe(true);
    await a.flush();
    // b has not synced yet: its first hit is admitted (the bounded over-admission)...
    expect(b.hit(rule, ["shared-ip"], { failOpen: false }).allowed).toBe(true);
    await b.flush();
    // ...and from its first flush on it knows the global count.
    expect(b.hit(rule, ["shared-ip"], { failOpen: false })).toMatchObject({ allowed: false, count: 242 });
    // a learns the hits b has flushed at its next flush (b's unflushed one arrives later).
    a.hit(rule, ["shared-ip"], { failOpen: false });
    await a.flush();
    expect(a.hit(rule, ["shared-ip"], { failOpen: false })).toMatchObject({ count: 243 });
    await Promise.all([a.flush(), b.flush()]);
    expect(await storedCount(rule.scope)).toBe(244);
    await Promise.all([a.close(), b.close()]);
  });

  test("concurrent flushes from several instances lose no counts", async () => {
    const instances = [make(), make(), make(), make()];
    for (const limiter of instances) for (let i = 0; i < 50; i++) for (let k = 0; k < 20; k++) limiter.hit(rule, [`ip-${k}`], { failOpen: false });
    await Promise.all(instances.map((l) => l.flush()));
    expect(await storedCount(rule.scope)).toBe(4 * 50 * 20);
    await Promise.all(instances.map((l) => l.close()));
  });

  function flakyDb(): { db: Db; up(): void } {
    let down = true;
    const db = new Proxy(ctx.deps.db, {
      get(target, prop, receiver) {
        if (prop === "execute") {
          return (query: unknown) => {
            if (down) return Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
            return (target.execute as (q: unknown) => Promise<unknown>)(query);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    return { db, up: () => (down = false) };
  }

  test("with the database unreachable its decisions are unavailable (failOpen decides), hits are still counted and written when it is back", async () => {
    const flaky = flakyDb();
    const log = createMemoryLogger();
    const limiter = make(flaky.db, log);
    const small = { scope: "outage", limit: 5, windowSeconds: 60 };
    const first = Array.from({ length: 4 }, () => limiter.hit(small, ["ip"], { failOpen: false }));
    expect(first.map((d) => d.status)).toEqual(["allowed", "allowed", "allowed", "allowed"]);
    expect(await limiter.flush()).toBe(false);
    expect(limiter.stats()).toMatchObject({ degraded: true, pendingHits: 4 });
    expect(log.lines.some((l) => l.level === "warn" && l.line.includes("decisions are unavailable"))).toBe(true);
    expect(limiter.hit(small, ["ip"], { failOpen: false })).toMatchObject({ status: "unavailable", allowed: false });
    expect(limiter.hit(small, ["other"], { failOpen: true })).toMatchObject({ status: "unavailable", allowed: true });
    flaky.up();
    expect(await limiter.flush()).toBe(true);
    expect(await storedCount("outage")).toBe(6);
    expect(limiter.hit(small, ["ip"], { failOpen: false })).toMatchObject({ status: "blocked", allowed: false, count: 6 });
    await limiter.close();
  });

  test("with localFallback it keeps deciding on local counts while the database is unreachable and writes them when it is back", async () => {
    const flaky = flakyDb();
    const log = createMemoryLogger();
    const limiter = make(flaky.db, log, { localFallback: true });
    const small = { scope: "outage", limit: 5, windowSeconds: 60 };
    const first = Array.from({ length: 4 }, () => limiter.hit(small, ["ip"], { failOpen: false }));
    expect(await limiter.flush()).toBe(false);
    expect(limiter.stats()).toMatchObject({ degraded: true, pendingHits: 4 });
    expect(log.lines.some((l) => l.level === "warn" && l.line.includes("deciding on local counts"))).toBe(true);
    const later = Array.from({ length: 4 }, () => limiter.hit(small, ["ip"], { failOpen: false }));
    expect([...first, ...later].map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    flaky.up();
    expect(await limiter.flush()).toBe(true);
    expect(await storedCount("outage")).toBe(8);
    expect(limiter.stats()).toMatchObject({ degraded: false, pendingHits: 0 });
    await limiter.close();
  });

  test("past its key budget a new key is unavailable (fail-open decides); known keys keep working", async () => {
    const limiter = make(ctx.deps.db, createMemoryLogger(), { maxKeys: 2 });
    expect(limiter.hit(rule, ["a"], { failOpen: false }).allowed).toBe(true);
    expect(limiter.hit(rule, ["b"], { failOpen: false }).allowed).toBe(true);
    expect(limiter.hit(rule, ["c"], { failOpen: false })).toMatchObject({ status: "unavailable", allowed: false });
    expect(limiter.hit(rule, ["c"], { failOpen: true })).toMatchObject({ status: "unavailable", allowed: true });
    expect(limiter.hit(rule, ["a"], { failOpen: false })).toMatchObject({ status: "allowed", count: 2 });
    // Once their windows end and their counts are written, old keys make room.
    await limiter.flush();
    clock.advance(61_000);
    expect(limiter.hit(rule, ["c"], { failOpen: false }).allowed).toBe(true);
    await limiter.close();
  });
});

describe("when keys are synced", () => {
  test("the sync tick runs on the timers the limiter is given (a test clock here: nothing sleeps)", async () => {
    const timers = createTestTimers();
    const limiter = make(ctx.deps.db, createMemoryLogger(), { timers, flushIntervalMs: 100 });
    expect(timers.pending()).toBe(0);
    // A tenth of the limit unsynced: due at the next tick, and only then.
    for (let i = 0; i < 24; i++) limiter.hit(rule, ["ticked"], { failOpen: false });
    expect(timers.pending()).toBe(1);
    await timers.advance(99);
    expect(limiter.stats()).toMatchObject({ flushes: 0, pendingHits: 24 });
    await timers.advance(1);
    // The tick took the hits into its upsert; flush() waits for that upsert to answer.
    expect(limiter.stats().pendingHits).toBe(0);
    expect(await limiter.flush()).toBe(true);
    expect(await storedCount(rule.scope)).toBe(24);
    await limiter.close();
  });

  test("cold keys wait up to 3 s; keys past a tenth of the limit unsynced or half the limit in total go at the next tick", async () => {
    const limiter = make();
    limiter.hit(rule, ["cold"], { failOpen: false });
    for (let i = 0; i < 24; i++) limiter.hit(rule, ["busy"], { failOpen: false });
    await limiter.flushDue();
    const counts = async () => Object.fromEntries((await ctx.deps.database.query<{ key_hash: string; count: number }>(sql`select key_hash, count from rate_limit_counters`)).map((r) => [r.key_hash, r.count]));
    const cold = limiter.keyFor(rule, ["cold"]);
    const busy = limiter.keyFor(rule, ["busy"]);
    expect(await counts()).toEqual({ [busy]: 24 });
    clock.advance(2999);
    await limiter.flushDue();
    expect((await counts())[cold]).toBeUndefined();
    clock.advance(1);
    await limiter.flushDue();
    expect(await counts()).toEqual({ [busy]: 24, [cold]: 1 });
    // Past half the limit every hit is synced at the next tick.
    for (let i = 0; i < 96; i++) limiter.hit(rule, ["busy"], { failOpen: false });
    await limiter.flushDue();
    limiter.hit(rule, ["busy"], { failOpen: false });
    await limiter.flushDue();
    expect((await counts())[busy]).toBe(121);
    await limiter.close();
  });
});
