import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp, postJson, withTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER, claimsOf, forgeToken, loginAsAdmin, setCookie, tamper, unsignedToken } from "../helpers/auth.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { NO_STORE_HEADERS } from "../../src/lib/http/responses.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta, rate_limit_counters`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

const UNAUTHORIZED = { success: false, error: "Unauthorized" };

/** Every admin API endpoint with a request that would succeed when authorised. */
const ADMIN_ENDPOINTS: [string, string][] = [
  ["GET", "/api/admin/tokens/sessions"],
  ["DELETE", "/api/admin/tokens/sessions/3b241101-e2bb-4255-8caf-4136c566a962"],
  ["POST", "/api/admin/tokens/revoke"],
  ["POST", "/api/admin/logout"],
  ["GET", "/api/admin/health"],
  ["GET", "/api/admin/data-store/status"],
  ["GET", "/api/admin/postgres/kv"],
];

function login(body: string, headers: Record<string, string> = {}) {
  return postJson(ctx, "/api/admin/login", body, headers);
}

function expectNoStore(res: Response) {
  for (const [name, value] of Object.entries(NO_STORE_HEADERS)) expect(res.headers.get(name)).toBe(value);
}

describe("POST /api/admin/login", () => {
  test("the right key (JSON) mints a token, records the session and sets the cookie", async () => {
    const res = await login(JSON.stringify({ key: TEST_ADMIN_KEY }), { "user-agent": "Browser/1.0", "x-forwarded-for": "203.0.113.4, 10.0.0.1" });
    expect(res.status).toBe(200);
    expectNoStore(res);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["expiresAt", "jti", "success", "token"]);
    const iat = Math.floor(ctx.clock.now().getTime() / 1000);
    expect(body.expiresAt).toBe(new Date((iat + 3600) * 1000).toISOString());
    expect(claimsOf(body.token)).toEqual({ type: "admin", tv: 1, jti: body.jti, iat, exp: iat + 3600, aud: "admin-api", iss: "finder" });
    const cookie = setCookie(res, "finder_admin_session")!;
    expect(cookie.value).toBe(body.token);
    expect(cookie.attributes).toEqual({ "max-age": "3600", path: "/", httponly: true, samesite: "Lax" });
    const [row] = await ctx.deps.database.query<Record<string, unknown>>(sql`select jti, tv, iat::float8 as iat, exp::float8 as exp, ip, ua from admin_sessions`);
    expect(row).toEqual({ jti: body.jti, tv: 1, iat, exp: iat + 3600, ip: "203.0.113.4", ua: "Browser/1.0" });
  });

  test("the key is trimmed and also accepted form-encoded", async () => {
    expect((await login(JSON.stringify({ key: `  ${TEST_ADMIN_KEY}\n` }))).status).toBe(200);
    const form = await ctx.request("/api/admin/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `key=${encodeURIComponent(TEST_ADMIN_KEY)}` });
    expect(form.status).toBe(200);
    expect((await form.json()).success).toBe(true);
  });

  const wrong: [string, string][] = [
    ["a wrong key", JSON.stringify({ key: "wrong" })],
    ["a key prefix", JSON.stringify({ key: TEST_ADMIN_KEY.slice(0, -1) })],
    ["no key", JSON.stringify({})],
    ["a key that is not a string", JSON.stringify({ key: [TEST_ADMIN_KEY] })],
    ["an over-long key", JSON.stringify({ key: TEST_ADMIN_KEY + " ".repeat(600) })],
    ["a megabyte key", JSON.stringify({ key: "k".repeat(900_000) })],
    ["malformed JSON", "{key:"],
    ["an empty body", ""],
  ];
  for (const [name, body] of wrong) {
    test(`401 for ${name}; no session recorded, no cookie`, async () => {
      const res = await login(body);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
      expect(res.headers.getSetCookie()).toEqual([]);
      expectNoStore(res);
      expect(await ctx.deps.database.query(sql`select 1 from admin_sessions`)).toEqual([]);
    });
  }

  test("per IP: the 11th attempt in 15 minutes gets 429 with Retry-After, even with the right key", async () => {
    for (let i = 0; i < 10; i++) expect((await login(JSON.stringify({ key: "guess" + i }), { "x-forwarded-for": "192.0.2.1" })).status).toBe(401);
    ctx.clock.advance(100_000);
    const res = await login(JSON.stringify({ key: TEST_ADMIN_KEY }), { "x-forwarded-for": "192.0.2.1" });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("800");
    expect((await res.json()).success).toBe(false);
    expect((await login(JSON.stringify({ key: TEST_ADMIN_KEY }), { "x-forwarded-for": "192.0.2.2" })).status).toBe(200);
  });

  test("failed logins are logged without the submitted key", async () => {
    await login(JSON.stringify({ key: "my-secret-guess" }));
    const line = ctx.logs.find((l) => l.line.includes("Admin login rejected"));
    expect(line?.level).toBe("warn");
    expect(ctx.logs.some((l) => l.line.includes("my-secret-guess"))).toBe(false);
  });
});

describe("the three credential types", () => {
  test("X-Admin-Key, Bearer token and session cookie are each accepted by every admin endpoint", async () => {
    for (const [method, path] of ADMIN_ENDPOINTS) {
      // Each credential is minted just before its call: revoke-all and logout end earlier ones.
      const credentials: (() => Promise<Record<string, string>>)[] = [
        async () => ADMIN_KEY_HEADER,
        async () => ({ authorization: `Bearer ${(await loginAsAdmin(ctx)).token}` }),
        async () => ({ cookie: `finder_admin_session=${(await loginAsAdmin(ctx)).token}`, origin: "http://finder.test" }),
      ];
      for (const credential of credentials) {
        const res = await ctx.request(path, { method, headers: await credential() });
        expect([200, 404]).toContain(res.status); // 404: DELETE of an unknown jti, after the guard passed
        expectNoStore(res);
      }
    }
  });

  test("the Bearer scheme is case-insensitive; a token may also come in X-Admin-Key", async () => {
    const { token } = await loginAsAdmin(ctx);
    for (const headers of [{ authorization: `bearer ${token}` }, { authorization: `BEARER   ${token}` }, { "x-admin-key": token }] as Record<string, string>[]) {
      expect((await ctx.request("/api/admin/health", { headers })).status).toBe(200);
    }
  });

  test("the first present credential decides: a wrong X-Admin-Key is not rescued by a good Bearer", async () => {
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/api/admin/health", { headers: { "x-admin-key": "wrong", authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  test("without any credential every admin endpoint answers the JSON 401", async () => {
    for (const [method, path] of ADMIN_ENDPOINTS) {
      const res = await ctx.request(path, { method });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
      expectNoStore(res);
    }
  });
});

describe("rejected tokens: 401, never 500", () => {
  test("tampered, expired, wrong audience or issuer, alg none, HS512, missing claims, user tokens, garbage", async () => {
    const { token, jti } = await loginAsAdmin(ctx);
    const iat = Math.floor(ctx.clock.now().getTime() / 1000);
    const claims = { type: "admin", jti, tv: 1, iat, exp: iat + 3600, aud: "admin-api", iss: "finder" };
    // The forged ones below carry the real jti, iat and tv, so only the named defect can fail them.
    expect((await ctx.request("/api/admin/health", { headers: { authorization: `Bearer ${await forgeToken(claims)}` } })).status).toBe(200);
    const bad: [string, string][] = [
      ["tampered tv", tamper(token, { tv: 2 })],
      ["tampered signature", token.slice(0, -2) + (token.endsWith("A") ? "BB" : "AA")],
      ["another secret", await forgeToken(claims, { secret: "z".repeat(40) })],
      ["expired", await forgeToken({ ...claims, exp: iat })],
      ["wrong audience", await forgeToken({ ...claims, aud: "finder:user" })],
      ["wrong issuer", await forgeToken({ ...claims, iss: "elsewhere" })],
      ["alg none", unsignedToken(claims)],
      ["HS512", await forgeToken(claims, { alg: "HS512" })],
      ["missing jti", await forgeToken({ ...claims, jti: undefined })],
      ["missing tv", await forgeToken({ ...claims, tv: undefined })],
      ["missing type", await forgeToken({ ...claims, type: undefined })],
      ["missing exp", await forgeToken({ ...claims, exp: undefined })],
      ["missing iat", await forgeToken({ ...claims, iat: undefined })],
      ["unknown jti", await forgeToken({ ...claims, jti: crypto.randomUUID() })],
      ["a user token", (await signUserToken("test-auth-secret-0123456789abcdef-0123456789", "admin@example.com", ctx.clock.now())).token],
      ["garbage", "garbage"],
      ["SQL-looking", "' or '1'='1"],
      ["over-long", "a".repeat(6000)],
    ];
    // Each defect from an address of its own: wrong Bearer tokens count against their IP's limit.
    for (const [i, [name, value]] of bad.entries()) {
      for (const headers of [{ authorization: `Bearer ${value}` }, { cookie: `finder_admin_session=${encodeURIComponent(value)}` }] as Record<string, string>[]) {
        const res = await ctx.request("/api/admin/health", { headers: { ...headers, "x-forwarded-for": `198.19.0.${i + 1}` } });
        if (res.status !== 401) throw new Error(`${name} via ${Object.keys(headers)[0]}: ${res.status}`);
        expect(await res.json()).toEqual(UNAUTHORIZED);
      }
    }
  });

  test("garbage and JSON-looking cookies", async () => {
    for (const value of ["%7B%22type%22%3A%22admin%22%7D", '{"type":"admin"}', "[1]", "1", "true", "null", "%E0%A4%A", ""]) {
      const res = await ctx.request("/api/admin/tokens/sessions", { headers: { cookie: `finder_admin_session=${value}` } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }
  });

  test("the key is compared whole: prefixes, padding inside, case changes and over-long keys fail", async () => {
    for (const key of [TEST_ADMIN_KEY.slice(0, 10), TEST_ADMIN_KEY.toUpperCase(), `${TEST_ADMIN_KEY}x`, "x".repeat(513), "x".repeat(8000)]) {
      expect((await ctx.request("/api/admin/health", { headers: { "x-admin-key": key } })).status).toBe(401);
    }
  });
});

describe("ADMIN_KEY unset", () => {
  test("every admin endpoint and the login answer 401, even with a token minted before", async () => {
    const { token } = await loginAsAdmin(ctx);
    await withTestApp({ env: { ADMIN_KEY: undefined }, keepData: true, clock: ctx.clock }, async (disabled) => {
      const res = await disabled.request("/api/admin/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: TEST_ADMIN_KEY }) });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
      for (const [method, path] of ADMIN_ENDPOINTS) {
        for (const headers of [{}, ADMIN_KEY_HEADER, { authorization: `Bearer ${token}` }, { cookie: `finder_admin_session=${token}` }] as Record<string, string>[]) {
          const r = await disabled.request(path, { method, headers });
          expect(r.status).toBe(401);
          expect(await r.json()).toEqual(UNAUTHORIZED);
        }
      }
      const session = await disabled.request("/api/auth/session", { headers: ADMIN_KEY_HEADER });
      expect((await session.json()).isAdminAuthenticated).toBe(false);
    });
  });
});

describe("CSRF origin check for cookie-authenticated state changes", () => {
  test("a foreign Origin gets 403; the site origin, the request's own host and a same-origin Referer pass", async () => {
    const { token } = await loginAsAdmin(ctx);
    const post = (headers: Record<string, string>) =>
      ctx.request("/api/admin/tokens/sessions/3b241101-e2bb-4255-8caf-4136c566a962", { method: "DELETE", headers: { cookie: `finder_admin_session=${token}`, ...headers } });
    for (const headers of [{ origin: "https://evil.example" }, {}, { origin: "null" }, { referer: "https://evil.example/page" }, { origin: "http://finder.test.evil.example" }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ success: false, error: "Forbidden" });
    }
    expect((await post({ origin: "http://finder.test" })).status).toBe(404);
    expect((await post({ referer: "http://finder.test/admin/operations" })).status).toBe(404);
    // GET is not state-changing.
    expect((await ctx.request("/api/admin/tokens/sessions", { headers: { cookie: `finder_admin_session=${token}`, origin: "https://evil.example" } })).status).toBe(200);
  });

  test("key and Bearer callers are exempt", async () => {
    const { token } = await loginAsAdmin(ctx);
    const evil = { origin: "https://evil.example" };
    expect((await ctx.request("/api/admin/tokens/revoke", { method: "POST", headers: { ...ADMIN_KEY_HEADER, ...evil } })).status).toBe(200);
    const fresh = await loginAsAdmin(ctx);
    expect((await ctx.request("/api/admin/logout", { method: "POST", headers: { authorization: `Bearer ${fresh.token}`, ...evil } })).status).toBe(200);
    expect(token).not.toBe(fresh.token);
  });

  test("a foreign origin cannot revoke all sessions through the cookie", async () => {
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/api/admin/tokens/revoke", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect((await ctx.request("/api/admin/health", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe("POST /api/admin/logout", () => {
  test("revokes the caller's session and clears the cookie", async () => {
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/api/admin/logout", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, origin: "http://finder.test" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const cookie = setCookie(res, "finder_admin_session")!;
    expect(cookie.value).toBe("");
    expect(cookie.attributes["max-age"]).toBe("0");
    expect((await ctx.request("/api/admin/health", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  test("with the key there is no session to revoke; other sessions stay", async () => {
    const { token } = await loginAsAdmin(ctx);
    expect((await ctx.request("/api/admin/logout", { method: "POST", headers: ADMIN_KEY_HEADER })).status).toBe(200);
    expect((await ctx.request("/api/admin/health", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe("session store unavailable", () => {
  test("a token cannot be checked: 503, logged; the key still works", async () => {
    const { token } = await loginAsAdmin(ctx);
    await ctx.deps.database.query(sql`alter table admin_sessions rename to admin_sessions_away`);
    try {
      const res = await ctx.request("/api/admin/health", { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ success: false, error: "Service unavailable" });
      expect((await ctx.request("/api/admin/health", { headers: ADMIN_KEY_HEADER })).status).toBe(200);
    } finally {
      await ctx.deps.database.query(sql`alter table admin_sessions_away rename to admin_sessions`);
    }
    expect(ctx.logs.some((l) => l.level === "error" && l.line.includes("Admin session store unavailable"))).toBe(true);
  });
});
