// The admin session state transitions (active, revoked, invalidated, expired), one by one (the
// cleanup of old records is in test/tasks/), and the error answers of the admin sessions API.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin } from "../helpers/auth.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta, rate_limit_counters`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const nowSeconds = () => Math.floor(ctx.clock.now().getTime() / 1000);
const accepted = async (token: string) => (await ctx.request("/api/admin/health", { headers: bearer(token) })).status === 200;
const list = async (headers: Record<string, string> = ADMIN_KEY_HEADER) => {
  const res = await ctx.request("/api/admin/tokens/sessions", { headers });
  expect(res.status).toBe(200);
  return res.json();
};

describe("GET /api/admin/tokens/sessions", () => {
  test("lists active sessions newest first with jti, iat, exp, v; count, currentTokenVersion and now", async () => {
    const first = await loginAsAdmin(ctx);
    ctx.clock.advance(5000);
    const second = await loginAsAdmin(ctx);
    const body = await list(bearer(first.token));
    const t = nowSeconds();
    expect(body).toEqual({
      success: true,
      count: 2,
      sessions: [
        { jti: second.jti, iat: t, exp: t + 3600, v: 1 },
        { jti: first.jti, iat: t - 5, exp: t - 5 + 3600, v: 1 },
      ],
      currentTokenVersion: 1,
      now: t,
    });
  });

  test("same iat: ordered by jti descending", async () => {
    const a = await loginAsAdmin(ctx);
    const b = await loginAsAdmin(ctx);
    const body = await list();
    expect(body.sessions.map((s: { jti: string }) => s.jti)).toEqual([a.jti, b.jti].sort().reverse());
  });

  test("revoked, invalidated and expired sessions are not listed", async () => {
    const expired = await loginAsAdmin(ctx);
    ctx.clock.advance(3600_000);
    const revoked = await loginAsAdmin(ctx);
    await ctx.request(`/api/admin/tokens/sessions/${revoked.jti}`, { method: "DELETE", headers: ADMIN_KEY_HEADER });
    const active = await loginAsAdmin(ctx);
    const body = await list();
    expect(body.sessions.map((s: { jti: string }) => s.jti)).toEqual([active.jti]);
    expect(body.count).toBe(1);
    expect(body.sessions.some((s: { jti: string }) => s.jti === expired.jti)).toBe(false);
    await ctx.request("/api/admin/tokens/revoke", { method: "POST", headers: ADMIN_KEY_HEADER });
    expect(await list()).toMatchObject({ count: 0, sessions: [], currentTokenVersion: 2 });
  });

  test("store failure → 500 'Failed to list sessions'", async () => {
    await ctx.deps.database.query(sql`alter table admin_sessions rename to admin_sessions_away`);
    try {
      const res = await ctx.request("/api/admin/tokens/sessions", { headers: ADMIN_KEY_HEADER });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ success: false, error: "Failed to list sessions" });
      expect(res.headers.get("cache-control")).toContain("no-store");
    } finally {
      await ctx.deps.database.query(sql`alter table admin_sessions_away rename to admin_sessions`);
    }
  });
});

describe("state table: active → DELETE /api/admin/tokens/sessions/<jti> → revoked", () => {
  test("the revocation is recorded and that token is no longer accepted; others keep working", async () => {
    const target = await loginAsAdmin(ctx);
    const other = await loginAsAdmin(ctx);
    const res = await ctx.request(`/api/admin/tokens/sessions/${target.jti}`, { method: "DELETE", headers: bearer(other.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, jti: target.jti });
    expect(res.headers.get("cache-control")).toContain("no-store");
    const [row] = await ctx.deps.database.query<{ revoked_until: string | Date }>(sql`select revoked_until from admin_sessions where jti = ${target.jti}`);
    expect(new Date(row.revoked_until).getTime()).toBe((nowSeconds() + 3600) * 1000);
    expect(await accepted(target.token)).toBe(false);
    expect((await ctx.request("/api/admin/health", { headers: { cookie: `finder_admin_session=${target.token}` } })).status).toBe(401);
    expect(await accepted(other.token)).toBe(true);
  });

  test("the path jti is URL-decoded and trimmed", async () => {
    const target = await loginAsAdmin(ctx);
    const res = await ctx.request(`/api/admin/tokens/sessions/%20${target.jti.toUpperCase()}%20`, { method: "DELETE", headers: ADMIN_KEY_HEADER });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, jti: target.jti });
  });

  test("unknown or malformed jti → 404 \"Session not found or invalid jti\"", async () => {
    for (const jti of [crypto.randomUUID(), "not-a-uuid", "1%27%20or%201%3D1", "a/b", "", "x".repeat(300)]) {
      const res = await ctx.request(`/api/admin/tokens/sessions/${jti}`, { method: "DELETE", headers: ADMIN_KEY_HEADER });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "Session not found or invalid jti" });
    }
    // A path that cannot be decoded is refused before the route, like every API path.
    const malformed = await ctx.request("/api/admin/tokens/sessions/%E0%A4%A", { method: "DELETE", headers: ADMIN_KEY_HEADER });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ success: false, error: "Malformed percent-encoding in the path" });
  });

  test("a store failure answers 500, never the raw error", async () => {
    await ctx.deps.database.query(sql`alter table admin_sessions rename to admin_sessions_away`);
    try {
      const res = await ctx.request(`/api/admin/tokens/sessions/${crypto.randomUUID()}`, { method: "DELETE", headers: ADMIN_KEY_HEADER });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ success: false, error: "Failed to revoke session" });
    } finally {
      await ctx.deps.database.query(sql`alter table admin_sessions_away rename to admin_sessions`);
    }
  });
});

describe("state table: sessions with tv below the current version ← POST /api/admin/tokens/revoke", () => {
  test("version +1, nextTokenVersion and ISO timestamp; every older session, the caller's too, stops working", async () => {
    const a = await loginAsAdmin(ctx);
    const caller = await loginAsAdmin(ctx);
    const res = await ctx.request("/api/admin/tokens/revoke", { method: "POST", headers: bearer(caller.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, nextTokenVersion: 2, timestamp: "2026-06-21T10:00:00.000Z" });
    expect(await accepted(a.token)).toBe(false);
    expect(await accepted(caller.token)).toBe(false);
    // Records stay, now invalidated; a new login gets the new version.
    expect((await ctx.deps.database.query(sql`select 1 from admin_sessions`)).length).toBe(2);
    const fresh = await loginAsAdmin(ctx);
    expect(await accepted(fresh.token)).toBe(true);
    expect(await list()).toMatchObject({ count: 1, currentTokenVersion: 2, sessions: [{ jti: fresh.jti, v: 2 }] });
    const again = await ctx.request("/api/admin/tokens/revoke", { method: "POST", headers: bearer(fresh.token) });
    expect((await again.json()).nextTokenVersion).toBe(3);
  });

  test("a store failure → 500 'Failed to revoke sessions'", async () => {
    await ctx.deps.database.query(sql`alter table admin_meta rename to admin_meta_away`);
    try {
      const res = await ctx.request("/api/admin/tokens/revoke", { method: "POST", headers: ADMIN_KEY_HEADER });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ success: false, error: "Failed to revoke sessions" });
    } finally {
      await ctx.deps.database.query(sql`alter table admin_meta_away rename to admin_meta`);
    }
  });
});

describe("state table: any → passage of time → token rejected at exp", () => {
  test("accepted one second before exp, rejected at exp (1 hour after issue)", async () => {
    const s = await loginAsAdmin(ctx);
    ctx.clock.advance(3599_000);
    expect(await accepted(s.token)).toBe(true);
    ctx.clock.advance(1000);
    expect(await accepted(s.token)).toBe(false);
    expect((await ctx.request("/api/admin/health", { headers: { cookie: `finder_admin_session=${s.token}` } })).status).toBe(401);
  });
});
