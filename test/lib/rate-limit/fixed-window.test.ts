import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createClock, TEST_AUTH_SECRET, type TestContext, useTestApp } from "../../helpers/app.ts";
import { createRateLimiter, RATE_LIMITS } from "../../../src/lib/rate-limit/fixed-window.ts";
import { hmacHex } from "../../../src/lib/crypto.ts";
import { createMemoryLogger } from "../../../src/lib/logger.ts";

const ctx = useTestApp();

const rule = { scope: "test_scope", limit: 60, windowSeconds: 60 };

describe("rate limiter", () => {
  test("200 concurrent hits on one key allow exactly the limit", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, () => ctx.deps.limiter.check(rule, ["203.0.113.5"], { failOpen: false })),
    );
    expect(results.filter((r) => r.allowed).length).toBe(60);
    expect(results.filter((r) => r.status === "blocked").length).toBe(140);
  });

  test("keys are the HMAC of scope and parts; no raw IP or email is stored", async () => {
    await ctx.deps.limiter.check(RATE_LIMITS.authVerifyEmailIp, ["user@x.com", "198.51.100.23"], { failOpen: true });
    const rows = await ctx.deps.database.query<Record<string, unknown>>(sql`select * from rate_limit_counters`);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain("198.51.100.23");
    expect(dump).not.toContain("user@x.com");
    expect(dump).not.toContain("203.0.113.5");
    const expected = hmacHex(TEST_AUTH_SECRET, "auth_verify_email_ip|user@x.com|198.51.100.23");
    expect(rows.some((r) => r.key_hash === expected)).toBe(true);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  test("fixed window from the first hit: the 61st is blocked with Retry-After; blocked hits count; the window resets", async () => {
    const clock = createClock("2026-06-21T12:00:00Z");
    const limiter = createRateLimiter({ db: ctx.deps.db, secret: TEST_AUTH_SECRET, log: createMemoryLogger(), now: clock.now });
    const r = { scope: "window_test", limit: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) expect((await limiter.check(r, ["ip"], { failOpen: false })).allowed).toBe(true);
    clock.advance(20_500);
    const blocked = await limiter.check(r, ["ip"], { failOpen: false });
    expect(blocked.status).toBe("blocked");
    if (blocked.status !== "unavailable") {
      expect(blocked.retryAfter).toBe(40); // ceil(39.5)
      expect(blocked.count).toBe(4);
    }
    clock.advance(39_500); // exactly at reset_at: a new window starts
    const fresh = await limiter.check(r, ["ip"], { failOpen: false });
    expect(fresh.allowed).toBe(true);
    if (fresh.status !== "unavailable") expect(fresh.count).toBe(1);
  });

  test("cleanup deletes counters 24 h past their window only", async () => {
    const clock = createClock("2026-06-01T00:00:00Z");
    const limiter = createRateLimiter({ db: ctx.deps.db, secret: TEST_AUTH_SECRET, log: createMemoryLogger(), now: clock.now });
    await limiter.check({ scope: "old", limit: 1, windowSeconds: 60 }, ["a"], { failOpen: false });
    clock.advance(86_400_000 - 10_000); // window ended 23h59m ago
    await limiter.check({ scope: "young", limit: 1, windowSeconds: 60 }, ["a"], { failOpen: false });
    expect(await limiter.cleanup()).toBe(0);
    clock.advance(80_000);
    expect(await limiter.cleanup()).toBe(1);
    const scopes = await ctx.deps.database.query<{ scope: string }>(sql`select scope from rate_limit_counters where scope in ('old','young')`);
    expect(scopes.map((s) => s.scope)).toEqual(["young"]);
  });

  test("an unavailable store answers per the caller's choice and logs only the hashed key", async () => {
    const log = createMemoryLogger();
    const broken = {
      insert: () => {
        throw new Error("connection refused to postgres://user:pw@db");
      },
    } as unknown as TestContext["deps"]["db"];
    const limiter = createRateLimiter({ db: broken, secret: TEST_AUTH_SECRET, log, now: () => new Date() });
    const open = await limiter.check(rule, ["203.0.113.77"], { failOpen: true });
    const closed = await limiter.check(rule, ["203.0.113.77"], { failOpen: false });
    expect(open).toMatchObject({ status: "unavailable", allowed: true });
    expect(closed).toMatchObject({ status: "unavailable", allowed: false });
    expect(log.lines.length).toBe(2);
    expect(log.lines.map((l) => l.line).join("\n")).not.toContain("203.0.113.77");
  });
});
