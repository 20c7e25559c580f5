import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_AUTH_SECRET, useTestApp } from "../../helpers/app.ts";
import {
  checkAdminToken,
  deleteExpiredAdminSessions,
  deriveSessionStatus,
  getTokenVersion,
  listAdminSessions,
  parseJtiParam,
  revokeAdminSession,
  revokeAllAdminSessions,
  startAdminSession,
  type AdminSessionStatus,
} from "../../../src/lib/auth/admin-sessions.ts";

const now = new Date("2026-06-21T10:00:00Z");
const t = Math.floor(now.getTime() / 1000);

describe("deriveSessionStatus (first match wins: expired → revoked → invalidated → active)", () => {
  const later = new Date(now.getTime() + 120_000);
  const rows: [string, { exp: number; tv: number; revokedUntil: Date | null }, number, AdminSessionStatus][] = [
    ["fresh, current version", { exp: t + 10, tv: 2, revokedUntil: null }, 2, "active"],
    ["exp equal to now", { exp: t, tv: 2, revokedUntil: null }, 2, "expired"],
    ["expired and revoked", { exp: t - 1, tv: 2, revokedUntil: later }, 2, "expired"],
    ["expired and old version", { exp: t - 1, tv: 1, revokedUntil: null }, 2, "expired"],
    ["revoked and old version", { exp: t + 10, tv: 1, revokedUntil: later }, 2, "revoked"],
    ["revocation that has run out", { exp: t + 10, tv: 2, revokedUntil: now }, 2, "active"],
    ["old version", { exp: t + 10, tv: 1, revokedUntil: null }, 2, "invalidated"],
    ["newer version than current (never minted)", { exp: t + 10, tv: 3, revokedUntil: null }, 2, "invalidated"],
  ];
  for (const [name, record, version, status] of rows) {
    test(name, () => expect(deriveSessionStatus(record, now, version)).toBe(status));
  }
});

describe("parseJtiParam", () => {
  const uuid = "3b241101-e2bb-4255-8caf-4136c566a962";
  test.each([
    [uuid, uuid],
    [encodeURIComponent(` ${uuid} `), uuid],
    [uuid.toUpperCase(), uuid],
    ["%20" + uuid, uuid],
    ["not-a-uuid", undefined],
    ["%E0%A4%A", undefined],
    ["", undefined],
    [uuid + "x", undefined],
    ["' or 1=1 --", undefined],
  ])("%p → %p", (raw, expected) => expect(parseJtiParam(raw)).toBe(expected as string | undefined));
});

describe("session store", () => {
  const ctx = useTestApp();
  beforeEach(async () => {
    await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta`);
  });

  const start = (at: Date) => startAdminSession({ db: ctx.deps.db, secret: TEST_AUTH_SECRET, now: at }, { ip: "203.0.113.9", ua: "Test UA" });

  test("the version starts at 1 and only increases by one per revoke-all", async () => {
    expect(await getTokenVersion(ctx.deps.db)).toBe(1);
    expect(await revokeAllAdminSessions(ctx.deps.db, now)).toBe(2);
    expect(await revokeAllAdminSessions(ctx.deps.db, now)).toBe(3);
    expect(await getTokenVersion(ctx.deps.db)).toBe(3);
  });

  test("a session is recorded with jti, tv, iat, exp, ip and ua, and its token checks out", async () => {
    const s = await start(now);
    const [row] = await ctx.deps.database.query<Record<string, unknown>>(sql`select jti, tv, iat::float8 as iat, exp::float8 as exp, ip, ua, revoked_until from admin_sessions`);
    expect(row).toEqual({ jti: s.jti, tv: 1, iat: t, exp: t + 3600, ip: "203.0.113.9", ua: "Test UA", revoked_until: null });
    expect(await checkAdminToken(ctx.deps.adminSessionLookup, TEST_AUTH_SECRET, s.token, now)).toEqual({ jti: s.jti, tv: 1, iat: t, exp: t + 3600 });
  });

  test("a valid signature without a record is refused", async () => {
    const s = await start(now);
    await ctx.deps.database.query(sql`delete from admin_sessions`);
    expect(await checkAdminToken(ctx.deps.adminSessionLookup, TEST_AUTH_SECRET, s.token, now)).toBeUndefined();
  });

  test("a record whose iat differs from the token is refused", async () => {
    const s = await start(now);
    await ctx.deps.database.query(sql`update admin_sessions set iat = iat - 1`);
    expect(await checkAdminToken(ctx.deps.adminSessionLookup, TEST_AUTH_SECRET, s.token, now)).toBeUndefined();
  });

  test("revoking sets revoked_until to the later of exp and now + 60 s", async () => {
    const s = await start(now);
    expect(await revokeAdminSession(ctx.deps.db, s.jti, now)).toBe(true);
    let [row] = await ctx.deps.database.query<{ revoked_until: Date | string }>(sql`select revoked_until from admin_sessions`);
    expect(new Date(row.revoked_until).getTime()).toBe((t + 3600) * 1000);
    // Revoked 30 s before expiry: now + 60 s is later than exp.
    const late = new Date((t + 3570) * 1000);
    await revokeAdminSession(ctx.deps.db, s.jti, late);
    [row] = await ctx.deps.database.query<{ revoked_until: Date | string }>(sql`select revoked_until from admin_sessions`);
    expect(new Date(row.revoked_until).getTime()).toBe(late.getTime() + 60_000);
    expect(await revokeAdminSession(ctx.deps.db, crypto.randomUUID(), now)).toBe(false);
  });

  test("listing: newest first, statuses derived, expired hidden unless asked", async () => {
    const old = await start(new Date(now.getTime() - 2 * 3600_000)); // expired
    const revoked = await start(new Date(now.getTime() - 60_000));
    await revokeAdminSession(ctx.deps.db, revoked.jti, now);
    const current = await start(now);
    const listed = await listAdminSessions(ctx.deps.db, now);
    expect(listed.sessions.map((s) => [s.jti, s.status])).toEqual([
      [current.jti, "active"],
      [revoked.jti, "revoked"],
    ]);
    expect(listed.total).toBe(3);
    expect(listed.active).toBe(1);
    const all = await listAdminSessions(ctx.deps.db, now, { includeExpired: true });
    expect(all.sessions.map((s) => s.status)).toEqual(["active", "revoked", "expired"]);
    expect(all.sessions[2].jti).toBe(old.jti);
  });

  test("cleanup deletes only records more than 604800 s past exp", async () => {
    const a = await start(new Date((t - 3600 - 604800 - 1) * 1000)); // exp = now - 604801
    const b = await start(new Date((t - 3600 - 604800) * 1000)); // exp = now - 604800 exactly
    const c = await start(new Date((t - 3600 - 10) * 1000)); // recently expired
    expect(await deleteExpiredAdminSessions(ctx.deps.db, now)).toBe(1);
    const left = await ctx.deps.database.query<{ jti: string }>(sql`select jti from admin_sessions order by iat`);
    expect(left.map((r) => r.jti)).toEqual([b.jti, c.jti]);
    expect(left.some((r) => r.jti === a.jti)).toBe(false);
  });
});
