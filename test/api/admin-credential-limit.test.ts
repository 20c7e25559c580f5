// Admin credentials sent in headers are limited per IP like the login form: wrong ones count, in the
// login's own bucket; past the limit they get 429, and the right key still gets in.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, postJson, useTestApp } from "../helpers/app.ts";
import { forgeToken, loginAsAdmin } from "../helpers/auth.ts";
import { RATE_LIMITS } from "../../src/lib/rate-limit/fixed-window.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta, rate_limit_counters`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

const LIMIT = RATE_LIMITS.adminLoginIp.limit;
const GUARDED = "/api/admin/tokens/sessions";

function fromIp(ip: string, headers: Record<string, string>) {
  return ctx.request(GUARDED, { headers: { "x-forwarded-for": ip, ...headers } });
}

describe("X-Admin-Key and Bearer guesses", () => {
  test("200 wrong X-Admin-Key guesses from one IP get 429 past the limit; the right key still gets in", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await fromIp("203.0.113.7", { "x-admin-key": `guess-${i}-0123456789abcdef` });
      statuses.push(res.status);
      if (i === 199) {
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(await res.json()).toEqual({ success: false, error: "Too many attempts. Please try again shortly." });
      }
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(statuses.slice(LIMIT)).toEqual(Array(200 - LIMIT).fill(429));
    // Another IP is not affected.
    expect((await fromIp("203.0.113.8", { "x-admin-key": TEST_ADMIN_KEY })).status).toBe(200);
    // From the limited IP, the key is compared once a second: a second later the right key is in.
    ctx.clock.advance(1_000);
    expect((await fromIp("203.0.113.7", { "x-admin-key": TEST_ADMIN_KEY })).status).toBe(200);
    // Over the limit, one credential a second is read, right or wrong (they cannot be told apart
    // unread): a wrong one in the same second is refused unread; a second later it is read and still 429.
    expect((await fromIp("203.0.113.7", { "x-admin-key": "another-guess" })).status).toBe(429);
    ctx.clock.advance(1_000);
    expect((await fromIp("203.0.113.7", { "x-admin-key": "another-guess" })).status).toBe(429);
    expect((await fromIp("203.0.113.7", { "x-admin-key": TEST_ADMIN_KEY })).status).toBe(429);
    ctx.clock.advance(1_000);
    expect((await fromIp("203.0.113.7", { "x-admin-key": TEST_ADMIN_KEY })).status).toBe(200);
  });

  test("wrong Bearer tokens count in the same bucket as the login form; the window's end frees the IP", async () => {
    const bad = await forgeToken({ type: "admin" }, { secret: "not-the-secret-0123456789abcdef0123" });
    for (let i = 0; i < LIMIT; i++) expect((await fromIp("198.51.100.9", { authorization: `Bearer ${bad}` })).status).toBe(401);
    expect((await fromIp("198.51.100.9", { authorization: `Bearer ${bad}` })).status).toBe(429);
    // The login form from that IP is over its limit too (one budget per IP).
    const login = await postJson(ctx, "/api/admin/login", { key: TEST_ADMIN_KEY }, { "x-forwarded-for": "198.51.100.9" });
    expect(login.status).toBe(429);
    ctx.clock.advance(RATE_LIMITS.adminLoginIp.windowSeconds * 1000);
    expect((await fromIp("198.51.100.9", { authorization: `Bearer ${bad}` })).status).toBe(401);
  });

  test("right credentials never count: many requests with the key or a token stay 200", async () => {
    const { token } = await loginAsAdmin(ctx);
    for (let i = 0; i < LIMIT * 3; i++) {
      expect((await fromIp("192.0.2.44", { "x-admin-key": TEST_ADMIN_KEY })).status).toBe(200);
      expect((await fromIp("192.0.2.44", { authorization: `Bearer ${token}` })).status).toBe(200);
    }
  });

  test("the session endpoint is limited too: over the limit it never says the key was right", async () => {
    const session = (key: string) => ctx.request("/api/auth/session", { headers: { "x-forwarded-for": "203.0.113.60", "x-admin-key": key } });
    for (let i = 0; i <= LIMIT; i++) expect((await (await session(`guess-${i}`)).json()).isAdminAuthenticated).toBe(false);
    expect((await (await session(TEST_ADMIN_KEY)).json()).isAdminAuthenticated).toBe(false);
    ctx.clock.advance(1_000);
    expect((await (await session(TEST_ADMIN_KEY)).json()).isAdminAuthenticated).toBe(true);
  });

  test("the limiter key is an HMAC and the log names neither the IP nor the guess", async () => {
    for (let i = 0; i <= LIMIT; i++) await fromIp("203.0.113.99", { "x-admin-key": `secret-guess-${i}` });
    const rows = (await ctx.deps.database.query(sql`select key_hash from rate_limit_counters`)) as { key_hash: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(ctx.logs) + JSON.stringify(rows);
    expect(text).not.toContain("203.0.113.99");
    expect(text).not.toContain("secret-guess");
    expect(ctx.logs.some((l) => JSON.stringify(l).includes("Admin credentials from one client are over the limit"))).toBe(true);
  });
});
