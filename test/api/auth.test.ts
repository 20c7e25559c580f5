import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp, postJson, TEST_ADMIN_KEY, withTestApp } from "../helpers/app.ts";
import { claimsOf, forgeToken, loginAsAdmin, setCookie, tamper, unsignedToken } from "../helpers/auth.ts";
import { NO_STORE_HEADERS } from "../../src/lib/http/responses.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate users, user_verifications, rate_limit_counters, admin_sessions, admin_meta`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

function verify(body: unknown, headers: Record<string, string> = {}) {
  return postJson(ctx, "/api/auth/verify", body, { "x-forwarded-for": "198.51.100.7", ...headers });
}

function expectNoStore(res: Response) {
  for (const [name, value] of Object.entries(NO_STORE_HEADERS)) expect(res.headers.get(name)).toBe(value);
}

describe("POST /api/auth/verify", () => {
  test("creates the user, signs the token with exactly the claims email, v, iat, exp, aud, iss and sets the cookie", async () => {
    const res = await verify({ email: "  Visitor@Example.com ", firstName: "Ana", consent: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, email: "visitor@example.com", message: "User verified" });
    expectNoStore(res);
    const cookie = setCookie(res, "finder_user_session")!;
    expect(cookie.attributes).toEqual({ "max-age": "2592000", path: "/", httponly: true, samesite: "Lax" });
    const claims = claimsOf(cookie.value);
    const iat = Math.floor(ctx.clock.now().getTime() / 1000);
    expect(claims).toEqual({ email: "visitor@example.com", v: 1, iat, exp: iat + 2592000, aud: "finder:user", iss: "finder", sid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const again = await verify({ email: "visitor@example.com" });
    expect(await again.json()).toEqual({ success: true, email: "visitor@example.com", message: "User verified" });
  });

  const invalid: [string, unknown, string][] = [
    ["a body that is not JSON", "{email:", "Invalid request payload"],
    ["an empty body", "", "Invalid request payload"],
    ["a JSON array", "[]", "Invalid request payload"],
    ["a missing email", {}, "Valid email address is required"],
    ["a malformed email", { email: "not-an-email" }, "Valid email address is required"],
    ["an email over 254 characters", { email: `${"a".repeat(250)}@example.com` }, "Valid email address is required"],
    ["an email of a megabyte", { email: "a".repeat(900_000) }, "Valid email address is required"],
    ["an email that is an object", { email: { $gt: "" } }, "Valid email address is required"],
    ["a one-letter first name", { email: "a@b.com", firstName: "A" }, "First name must be at least 2 characters"],
    ["a one-letter last name", { email: "a@b.com", lastName: "B" }, "Last name must be at least 2 characters"],
    ["consent false", { email: "a@b.com", consent: false }, "Consent is required"],
    ["an email with a NUL", { email: "a\u0000b@example.com" }, "Valid email address is required"],
    ["an email ending in a NUL", { email: "ab@example.com\u0000" }, "Valid email address is required"],
    ["an email with CR LF", { email: "ab@example.com\r\nBcc: c@d.com" }, "Valid email address is required"],
    ["an email ending in a line feed", { email: "ab@example.com\n" }, "Valid email address is required"],
    ["an email with a TAB", { email: "a\tb@example.com" }, "Valid email address is required"],
  ];
  for (const [name, body, error] of invalid) {
    test(`400 for ${name}`, async () => {
      const res = await verify(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(error);
      expectNoStore(res);
      expect(res.headers.getSetCookie()).toEqual([]);
    });
  }

  test("a later sign-in with the same email never changes the first name, consent or source; it is kept as its own verification row", async () => {
    expect((await verify({ email: "owner@example.com", firstName: "Owner", lastName: "First", consent: true, source: "newsletter" })).status).toBe(200);
    ctx.clock.advance(60_000);
    expect((await verify({ email: "OWNER@example.com", firstName: "Intruder", lastName: "Other", consent: true, source: "attacker" }, { "x-forwarded-for": "203.0.113.66" })).status).toBe(200);
    const [user] = await ctx.deps.database.query<Record<string, unknown>>(sql`select first_name, last_name, consent, source, verification_count from users`);
    expect(user).toEqual({ first_name: "Owner", last_name: "First", consent: true, source: "newsletter", verification_count: 2 });
    const rows = await ctx.deps.database.query<Record<string, unknown>>(sql`select first_name, last_name, consent, source from user_verifications order by submitted_at`);
    expect(rows).toEqual([
      { first_name: "Owner", last_name: "First", consent: true, source: "newsletter" },
      { first_name: "Intruder", last_name: "Other", consent: true, source: "attacker" },
    ]);
  });

  test("login CSRF: a request from another site's page is 403, sets no cookie and records nothing; the site itself and non-browser callers sign in", async () => {
    for (const headers of [{ origin: "https://evil.example" }, { origin: "null" }, { referer: "https://evil.example/page" }] as Record<string, string>[]) {
      const res = await verify({ email: "victim-login@example.com", consent: true }, headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ success: false, error: "Sign-in is only possible from the finder site itself." });
      expect(res.headers.getSetCookie()).toEqual([]);
      expectNoStore(res);
    }
    expect(await ctx.deps.database.query(sql`select 1 from users`)).toHaveLength(0);
    expect((await verify({ email: "a@example.com", consent: true }, { origin: "http://finder.test" })).status).toBe(200);
    expect((await verify({ email: "b@example.com", consent: true }, { referer: "http://finder.test/?q=jazz" })).status).toBe(200);
    expect((await verify({ email: "c@example.com", consent: true })).status).toBe(200);
  });

  test("field errors list the field in issues", async () => {
    const res = await verify({ email: "nope" });
    expect(await res.json()).toEqual({ success: false, error: "Valid email address is required", issues: [{ field: "email", message: "Valid email address is required" }] });
  });

  test("hostile text is stored as given and never echoed as markup", async () => {
    const res = await verify({ email: "x@y.com", firstName: "<img src=x onerror=alert(1)>", lastName: "Robert'); DROP TABLE users;--" });
    expect(res.status).toBe(200);
    const [user] = await ctx.deps.database.query<Record<string, unknown>>(sql`select first_name, last_name from users`);
    expect(user).toEqual({ first_name: "<img src=x onerror=alert(1)>", last_name: "Robert'); DROP TABLE users;--" });
  });

  test("per IP: the 61st call within 60 s gets 429 with Retry-After from the window start", async () => {
    for (let i = 0; i < 60; i++) {
      const res = await verify({ email: `user${i}@example.com` });
      expect(res.status).toBe(200);
    }
    ctx.clock.advance(20_500);
    const limited = await verify({ email: "one-more@example.com" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("40");
    expect(await limited.json()).toEqual({ success: false, error: "Too many attempts. Please try again shortly." });
    expectNoStore(limited);
    // The per-IP limit comes first: even an invalid body is limited.
    expect((await verify("{broken")).status).toBe(429);
    // Another IP is unaffected; after the window the first IP is served again.
    expect((await verify({ email: "other@example.com" }, { "x-forwarded-for": "198.51.100.8" })).status).toBe(200);
    ctx.clock.advance(39_500);
    expect((await verify({ email: "later@example.com" })).status).toBe(200);
  }, 30_000);

  test("per email + IP: the 7th call within 15 min gets 429; another email or IP is unaffected", async () => {
    for (let i = 0; i < 6; i++) {
      expect((await verify({ email: "same@example.com" })).status).toBe(200);
      ctx.clock.advance(60_000);
    }
    const limited = await verify({ email: " SAME@example.com " });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe(String(900 - 360));
    expect((await verify({ email: "different@example.com" })).status).toBe(200);
    expect((await verify({ email: "same@example.com" }, { "x-forwarded-for": "203.0.113.1" })).status).toBe(200);
    ctx.clock.advance(540_000);
    expect((await verify({ email: "same@example.com" })).status).toBe(200);
  });

  test("the email+IP limit comes before the consent check", async () => {
    for (let i = 0; i < 6; i++) await verify({ email: "c@example.com", consent: false });
    expect((await verify({ email: "c@example.com", consent: false })).status).toBe(429);
  });

  test("fails open when the limiter is unavailable, and logs only the hashed key", async () => {
    await ctx.deps.database.query(sql`alter table rate_limit_counters rename to rate_limit_counters_away`);
    try {
      const res = await verify({ email: "open@example.com" });
      expect(res.status).toBe(200);
    } finally {
      await ctx.deps.database.query(sql`alter table rate_limit_counters_away rename to rate_limit_counters`);
    }
    const warnings = ctx.logs.filter((l) => l.level === "warn" && l.line.includes("Rate limiter unavailable"));
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) {
      expect(w.line).not.toContain("198.51.100.7");
      expect(w.line).not.toContain("open@example.com");
    }
  });

  test("a storage failure answers 500 \"Verification failed. Please try again.\" and sets no cookie", async () => {
    await ctx.deps.database.query(sql`alter table users rename to users_away`);
    try {
      const res = await verify({ email: "fail@example.com" });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ success: false, error: "Verification failed. Please try again." });
      expect(res.headers.getSetCookie()).toEqual([]);
    } finally {
      await ctx.deps.database.query(sql`alter table users_away rename to users`);
    }
  });
});

describe("GET /api/auth/session", () => {
  async function session(cookie?: string, headers: Record<string, string> = {}) {
    const res = await ctx.request("/api/auth/session", { headers: { ...(cookie ? { cookie } : {}), ...headers } });
    expect(res.status).toBe(200);
    expectNoStore(res);
    return res.json();
  }

  test("anonymous: email is null", async () => {
    expect(await session()).toEqual({ success: true, isAuthenticated: false, isAdminAuthenticated: false, email: null });
  });

  test("signed in: the cookie's email", async () => {
    const token = setCookie(await verify({ email: "me@example.com" }), "finder_user_session")!.value;
    expect(await session(`finder_user_session=${token}`)).toEqual({ success: true, isAuthenticated: true, isAdminAuthenticated: false, email: "me@example.com" });
  });

  test("isAdminAuthenticated reflects any valid admin credential", async () => {
    const { token } = await loginAsAdmin(ctx);
    expect((await session(undefined, { "x-admin-key": TEST_ADMIN_KEY })).isAdminAuthenticated).toBe(true);
    expect((await session(undefined, { authorization: `Bearer ${token}` })).isAdminAuthenticated).toBe(true);
    expect((await session(`finder_admin_session=${token}`)).isAdminAuthenticated).toBe(true);
    expect((await session(undefined, { "x-admin-key": "wrong" })).isAdminAuthenticated).toBe(false);
    // An admin token is not a user session, and a user token is not an admin one.
    expect((await session(`finder_user_session=${token}`)).isAuthenticated).toBe(false);
    const userToken = setCookie(await verify({ email: "me@example.com" }), "finder_user_session")!.value;
    expect((await session(`finder_admin_session=${userToken}`)).isAdminAuthenticated).toBe(false);
  });

  test("bad cookies are anonymous, never an error", async () => {
    const iat = Math.floor(ctx.clock.now().getTime() / 1000);
    const good = { email: "x@y.com", v: 1, iat, exp: iat + 2592000, aud: "finder:user", iss: "finder" };
    const signed = setCookie(await verify({ email: "x@y.com" }), "finder_user_session")!.value;
    const values = [
      "garbage",
      "%7B%22a%22%3A1%7D", // {"a":1}
      '{"email":"x@y.com"}',
      "[1,2,3]",
      "12345",
      "true",
      "null",
      "%E0%A4%A",
      tamper(signed, { email: "admin@y.com" }),
      unsignedToken(good),
      await forgeToken(good, { alg: "HS512" }),
      await forgeToken({ ...good, aud: "admin-api" }),
      await forgeToken({ ...good, iss: "other" }),
      await forgeToken({ ...good, v: undefined }),
      await forgeToken({ ...good, exp: iat }),
      "a".repeat(5000),
    ];
    for (const value of values) {
      expect(await session(`finder_user_session=${value}`)).toEqual({ success: true, isAuthenticated: false, isAdminAuthenticated: false, email: null });
    }
  });

  test("the user token expires after 30 days", async () => {
    const token = setCookie(await verify({ email: "me@example.com" }), "finder_user_session")!.value;
    ctx.clock.advance(2592000 * 1000 - 1000);
    expect((await session(`finder_user_session=${token}`)).isAuthenticated).toBe(true);
    ctx.clock.advance(1000);
    expect((await session(`finder_user_session=${token}`)).isAuthenticated).toBe(false);
  });
});

describe("DELETE /api/auth/session", () => {
  test("clears the cookie with the same options and Max-Age 0, with or without a cookie", async () => {
    for (const headers of [{}, { cookie: "finder_user_session=whatever" }] as Record<string, string>[]) {
      const res = await ctx.request("/api/auth/session", { method: "DELETE", headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expectNoStore(res);
      const cookie = setCookie(res, "finder_user_session")!;
      expect(cookie.value).toBe("");
      expect(cookie.attributes).toEqual({ "max-age": "0", path: "/", httponly: true, samesite: "Lax" });
    }
  });
});

describe("in production", () => {
  test("session cookies are Secure", async () => {
    await withTestApp({ env: { NODE_ENV: "production", DATA_MODE: "test" } }, async (prod) => {
      const res = await prod.request("/api/auth/verify", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "p@example.com" }) });
      expect(res.status).toBe(200);
      expect(setCookie(res, "finder_user_session")!.attributes).toEqual({ "max-age": "2592000", path: "/", httponly: true, samesite: "Lax", secure: true });
      const cleared = await prod.request("/api/auth/session", { method: "DELETE" });
      expect(setCookie(cleared, "finder_user_session")!.attributes.secure).toBe(true);
      const { response } = await loginAsAdmin(prod);
      expect(setCookie(response, "finder_admin_session")!.attributes).toEqual({ "max-age": "3600", path: "/", httponly: true, samesite: "Lax", secure: true });
    });
  });
});
