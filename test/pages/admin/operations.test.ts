// /admin/operations: the Admin Sessions card and its actions, each with and without htmx.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp, HTMX_HEADERS as HX } from "../../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin, setCookie } from "../../helpers/auth.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta, rate_limit_counters`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

const cookieOf = (token: string) => ({ cookie: `finder_admin_session=${token}`, origin: "http://finder.test" });
const accepted = async (token: string) => (await ctx.request("/api/admin/health", { headers: { authorization: `Bearer ${token}` } })).status === 200;

describe("the Admin Sessions card", () => {
  test("shows the caller's session, active/total, every live record with status, jti, tv, ip and user agent", async () => {
    const expired = await loginAsAdmin(ctx);
    ctx.clock.advance(3600_000);
    const revoked = await loginAsAdmin(ctx);
    await ctx.request(`/api/admin/tokens/sessions/${revoked.jti}`, { method: "DELETE", headers: ADMIN_KEY_HEADER });
    const me = await loginAsAdmin(ctx, { "user-agent": `"><script>alert('ua')</script>`, "x-forwarded-for": "203.0.113.77" });
    const html = await (await ctx.request("/admin/operations", { headers: cookieOf(me.token) })).text();
    expect(html).toContain('id="admin-sessions"');
    expect(html).toContain("Admin Sessions");
    expect(html).toContain("1 active / 3 total");
    expect(html).toContain("Your session expires at");
    expect(html).toContain("Token version <strong>1</strong>");
    expect(html).toContain(me.jti);
    expect(html).toContain(revoked.jti);
    expect(html).not.toContain(expired.jti); // expired ones are hidden by default
    expect(html).toContain('class="status status-active"');
    expect(html).toContain('class="status status-revoked"');
    expect(html).toContain("(this session)");
    expect(html).toContain("203.0.113.77");
    // Neither the text nor the title attribute lets the user agent out of its place.
    expect(html).not.toContain('"><script>');
    expect(html).toContain("&lt;script&gt;alert(");
    // Revoke only on active rows; revoke-all and logout always there.
    expect(html.match(/>Revoke</g)?.length).toBe(1);
    expect(html).toContain("Revoke All Sessions");
    expect(html).toContain("Logout");
    expect(html).toContain("Show expired");
  });

  test("the key caller has no session of its own", async () => {
    const html = await (await ctx.request("/admin/operations", { headers: ADMIN_KEY_HEADER })).text();
    expect(html).toContain("Signed in with the admin key (no session)");
    expect(html).toContain("No tracked sessions besides expired ones.");
  });

  test("Show expired: the card alone for htmx, the page with ?expired=1 otherwise", async () => {
    const old = await loginAsAdmin(ctx);
    ctx.clock.advance(3600_000);
    const fragment = await ctx.request("/admin/operations/sessions?expired=1", { headers: { ...ADMIN_KEY_HEADER, ...HX } });
    expect(fragment.status).toBe(200);
    const card = await fragment.text();
    expect(card).toStartWith('<section id="admin-sessions"');
    expect(card).toContain(old.jti);
    expect(card).toContain('class="status status-expired"');
    expect(card).toContain("Hide expired");
    const plain = await ctx.request("/admin/operations/sessions?expired=1", { headers: ADMIN_KEY_HEADER });
    expect(plain.status).toBe(303);
    expect(plain.headers.get("location")).toBe("/admin/operations?expired=1");
    expect(await (await ctx.request("/admin/operations?expired=1", { headers: ADMIN_KEY_HEADER })).text()).toContain(old.jti);
  });
});

describe("Revoke (one session)", () => {
  test("with htmx: the session is revoked and the refreshed card comes back", async () => {
    const me = await loginAsAdmin(ctx);
    const other = await loginAsAdmin(ctx);
    const res = await ctx.request(`/admin/operations/sessions/${other.jti}/revoke`, { method: "POST", headers: { ...cookieOf(me.token), ...HX } });
    expect(res.status).toBe(200);
    const card = await res.text();
    expect(card).toStartWith('<section id="admin-sessions"');
    expect(card).toContain("1 active / 2 total");
    expect(await accepted(other.token)).toBe(false);
    expect(await accepted(me.token)).toBe(true);
  });

  test("without JavaScript: 303 back to the operations page", async () => {
    const other = await loginAsAdmin(ctx);
    const res = await ctx.request(`/admin/operations/sessions/${other.jti}/revoke`, { method: "POST", headers: ADMIN_KEY_HEADER });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/operations");
    expect(await accepted(other.token)).toBe(false);
  });

  test("revoking your own session clears the cookie and sends you to the login page", async () => {
    const me = await loginAsAdmin(ctx);
    const res = await ctx.request(`/admin/operations/sessions/${me.jti}/revoke`, { method: "POST", headers: { ...cookieOf(me.token), ...HX } });
    expect(res.headers.get("hx-redirect")).toBe("/admin/login");
    expect(setCookie(res, "finder_admin_session")!.attributes["max-age"]).toBe("0");
    expect(await accepted(me.token)).toBe(false);
  });

  test("an unknown jti → 404; a foreign origin with the cookie → 403 and nothing revoked", async () => {
    const me = await loginAsAdmin(ctx);
    const other = await loginAsAdmin(ctx);
    expect((await ctx.request(`/admin/operations/sessions/${crypto.randomUUID()}/revoke`, { method: "POST", headers: cookieOf(me.token) })).status).toBe(404);
    expect((await ctx.request(`/admin/operations/sessions/not-a-uuid/revoke`, { method: "POST", headers: cookieOf(me.token) })).status).toBe(404);
    const evil = await ctx.request(`/admin/operations/sessions/${other.jti}/revoke`, { method: "POST", headers: { cookie: `finder_admin_session=${me.token}`, origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect(await accepted(other.token)).toBe(true);
  });

  test("without a credential: 401 login card, nothing revoked", async () => {
    const other = await loginAsAdmin(ctx);
    const res = await ctx.request(`/admin/operations/sessions/${other.jti}/revoke`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(await accepted(other.token)).toBe(true);
  });
});

describe("Revoke All Sessions", () => {
  test("with the cookie: every session ends, yours too, and you go to the login page", async () => {
    const me = await loginAsAdmin(ctx);
    const other = await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/operations/sessions/revoke-all", { method: "POST", headers: { ...cookieOf(me.token), ...HX } });
    expect(res.headers.get("hx-redirect")).toBe("/admin/login");
    expect(setCookie(res, "finder_admin_session")!.value).toBe("");
    expect(await accepted(me.token)).toBe(false);
    expect(await accepted(other.token)).toBe(false);
    const [meta] = await ctx.deps.database.query<{ token_version: number }>(sql`select token_version from admin_meta`);
    expect(meta.token_version).toBe(2);
  });

  test("with the key: the refreshed card (htmx) shows the new version; without htmx 303", async () => {
    await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/operations/sessions/revoke-all", { method: "POST", headers: { ...ADMIN_KEY_HEADER, ...HX } });
    expect(res.status).toBe(200);
    const card = await res.text();
    expect(card).toContain("Token version <strong>2</strong>");
    expect(card).toContain("0 active / 1 total");
    expect(card).toContain('class="status status-invalidated"');
    const plain = await ctx.request("/admin/operations/sessions/revoke-all", { method: "POST", headers: ADMIN_KEY_HEADER });
    expect(plain.status).toBe(303);
  });

  test("a foreign origin cannot revoke all through the cookie", async () => {
    const me = await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/operations/sessions/revoke-all", { method: "POST", headers: { cookie: `finder_admin_session=${me.token}`, referer: "https://evil.example/x" } });
    expect(res.status).toBe(403);
    expect(await accepted(me.token)).toBe(true);
  });
});
