// Console pages: login (with and without htmx), the 401 login card, the shell and its tabs, logout.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp, withTestApp, HTMX_HEADERS as HX } from "../../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin, setCookie } from "../../helpers/auth.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate admin_sessions, admin_meta, rate_limit_counters`);
  ctx.clock.set("2026-06-21T10:00:00Z");
});

const AREAS = ["/admin", "/admin/operations", "/admin/content", "/admin/placements", "/admin/insights"];
const SAME_ORIGIN = { origin: "http://finder.test" };

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return ctx.request(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "192.0.2.50", ...headers }, body: new URLSearchParams(fields).toString() });
}

describe("GET /admin/login", () => {
  test("the login card as a full page, or only the card for htmx; never cached", async () => {
    const page = await ctx.request("/admin/login");
    expect(page.status).toBe(200);
    expect(page.headers.get("vary")).toBe("HX-Request");
    expect(page.headers.get("cache-control")).toContain("no-store");
    const html = await page.text();
    expect(html).toStartWith("<!doctype html>");
    for (const text of ["Admin Access", "Admin Key", "Enter Console", 'type="password"', 'hx-post="/admin/login"', 'action="/admin/login"', "Back to Home", "noindex"]) expect(html).toContain(text);
    const fragment = await (await ctx.request("/admin/login", { headers: HX })).text();
    expect(fragment).toStartWith('<section id="admin-login"');
    expect(fragment).not.toContain("<html");
  });

  test("an unknown next is replaced by /admin; a console path is kept", async () => {
    expect(await (await ctx.request("/admin/login?next=https://evil.example")).text()).toContain('name="next" value="/admin"');
    expect(await (await ctx.request("/admin/login?next=/admin/insights")).text()).toContain('name="next" value="/admin/insights"');
  });

  test("an admin who is already signed in goes straight to the console", async () => {
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/login?next=/admin/operations", { headers: { cookie: `finder_admin_session=${token}` } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/operations");
  });
});

describe("POST /admin/login (the form)", () => {
  test("without JavaScript: the right key sets the cookie and redirects (303) to next", async () => {
    const res = await postForm("/admin/login", { key: TEST_ADMIN_KEY, next: "/admin/operations" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/operations");
    const cookie = setCookie(res, "finder_admin_session")!;
    expect(cookie.attributes).toEqual({ "max-age": "3600", path: "/", httponly: true, samesite: "Lax" });
    const page = await ctx.request("/admin/operations", { headers: { cookie: `finder_admin_session=${cookie.value}` } });
    expect(page.status).toBe(200);
  });

  test("with htmx: HX-Redirect to next", async () => {
    const res = await postForm("/admin/login", { key: TEST_ADMIN_KEY, next: "/admin" }, HX);
    expect(res.status).toBe(200);
    expect(res.headers.get("hx-redirect")).toBe("/admin");
    expect(setCookie(res, "finder_admin_session")).toBeDefined();
  });

  test("a wrong key re-renders the card with the inline error (401), page or fragment", async () => {
    const page = await postForm("/admin/login", { key: "nope" });
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html).toStartWith("<!doctype html>");
    expect(html).toContain("That key is not valid.");
    expect(html).toContain('aria-invalid="true"');
    const fragment = await postForm("/admin/login", { key: "nope" }, HX);
    expect(fragment.status).toBe(401);
    expect(await fragment.text()).toStartWith('<section id="admin-login"');
    expect(fragment.headers.getSetCookie()).toEqual([]);
  });

  test("an empty key → 422 'Enter the admin key.'; too many attempts → 429 with Retry-After", async () => {
    const empty = await postForm("/admin/login", { key: "  " }, HX);
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain("Enter the admin key.");
    for (let i = 0; i < 10; i++) await postForm("/admin/login", { key: `guess${i}` });
    const limited = await postForm("/admin/login", { key: TEST_ADMIN_KEY }, HX);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("900");
    expect(await limited.text()).toContain("Too many attempts");
  });

  test("submitted markup is never echoed", async () => {
    const res = await postForm("/admin/login", { key: "<script>alert(1)</script>", next: '"><script>alert(1)</script>' });
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("alert(1)");
  });
});

describe("guarded console pages", () => {
  test("without a credential: 401 with the login card in place (next = the page asked for)", async () => {
    for (const path of AREAS) {
      const res = await ctx.request(path);
      expect(res.status).toBe(401);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(res.headers.get("vary")).toBe("HX-Request");
      const html = await res.text();
      expect(html).toContain("Admin Access");
      expect(html).toContain(`name="next" value="${path}"`);
      expect(html).not.toContain("Admin Console");
    }
  });

  test("htmx without a credential: 401, the card, and HX-Redirect to the login page", async () => {
    const res = await ctx.request("/admin/operations", { headers: HX });
    expect(res.status).toBe(401);
    expect(res.headers.get("hx-redirect")).toBe("/admin/login?next=%2Fadmin%2Foperations");
    expect(await res.text()).toStartWith('<section id="admin-login"');
  });

  test("bad cookies get the login card, never a 500", async () => {
    for (const value of ["garbage", "%7B%22a%22%3A1%7D", "[]", "1", "%E0%A4%A"]) {
      const res = await ctx.request("/admin", { headers: { cookie: `finder_admin_session=${value}` } });
      expect(res.status).toBe(401);
    }
  });

  test("with the key, a Bearer token or the cookie: the shell with the five tabs, the current one marked", async () => {
    const { token } = await loginAsAdmin(ctx);
    for (const headers of [ADMIN_KEY_HEADER, { authorization: `Bearer ${token}` }, { cookie: `finder_admin_session=${token}` }] as Record<string, string>[]) {
      for (const path of AREAS) {
        const res = await ctx.request(path, { headers });
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toContain("no-store");
        const html = await res.text();
        expect(html).toContain("<h1>Admin Console</h1>");
        expect(html).toContain("Back to Home");
        expect(html).toContain("Action Center");
        for (const area of AREAS) expect(html).toContain(`href="${area}"`);
        expect(html).toContain(`href="${path}" class="tab tab-current" aria-current="page"`);
      }
    }
  });

  test("htmx tab navigation gets only the console fragment", async () => {
    const res = await ctx.request("/admin/content", { headers: { ...ADMIN_KEY_HEADER, ...HX } });
    expect(res.status).toBe(200);
    expect(res.headers.get("vary")).toBe("HX-Request");
    const html = await res.text();
    expect(html).toStartWith('<div id="admin-console"');
    expect(html).not.toContain("<html");
  });

  test("the overview shows the runtime tiles and a card per area; pending work shows on tabs and the badge", async () => {
    await ctx.deps.database.query(sql`truncate event_submissions cascade`);
    await ctx.deps.database.query(
      sql`insert into event_submissions (payload, host_email, status) values ('{}'::jsonb, 'a@x.com', 'pending'), ('{}'::jsonb, 'b@x.com', 'pending'), ('{}'::jsonb, 'c@x.com', 'accepted')`,
    );
    const html = await (await ctx.request("/admin", { headers: ADMIN_KEY_HEADER })).text();
    for (const text of ["Runtime Source", "Test dataset", "Live Events", "Store Rows", "Pending Submissions", "Pending Orders", ">Open<"]) expect(html).toContain(text);
    expect(html).toContain("Action Center 2");
    expect(html).toMatch(/href="\/admin\/content"[^>]*>.*?<span class="tab-count">2<\/span>/s);
    await ctx.deps.database.query(sql`truncate event_submissions cascade`);
  });

  test("ADMIN_KEY unset: the login page and every console page say admin access is disabled", async () => {
    await withTestApp({ env: { ADMIN_KEY: undefined }, keepData: true, clock: ctx.clock }, async (disabled) => {
      const login = await disabled.request("/admin/login");
      expect(await login.text()).toContain("Admin access is disabled");
      for (const path of AREAS) {
        const res = await disabled.request(path, { headers: ADMIN_KEY_HEADER });
        expect(res.status).toBe(401);
        const html = await res.text();
        expect(html).toContain("Admin access is disabled");
        expect(html).not.toContain('name="key"');
      }
      expect((await disabled.request("/admin/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `key=${TEST_ADMIN_KEY}` })).status).toBe(401);
    });
  });
});

describe("POST /admin/logout", () => {
  test("revokes the cookie's session, clears the cookie and goes to the login page", async () => {
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/logout", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, ...SAME_ORIGIN } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/login");
    expect(setCookie(res, "finder_admin_session")!.attributes["max-age"]).toBe("0");
    expect((await ctx.request("/admin", { headers: { cookie: `finder_admin_session=${token}` } })).status).toBe(401);
    const hx = await ctx.request("/admin/logout", { method: "POST", headers: { ...HX } });
    expect(hx.headers.get("hx-redirect")).toBe("/admin/login");
  });

  test("an expired or garbage cookie is still cleared", async () => {
    const res = await ctx.request("/admin/logout", { method: "POST", headers: { cookie: "finder_admin_session=garbage" } });
    expect(res.status).toBe(303);
    expect(setCookie(res, "finder_admin_session")!.value).toBe("");
  });

  test("a valid cookie from a foreign origin is refused (403) and the session stays", async () => {
    const { token } = await loginAsAdmin(ctx);
    const res = await ctx.request("/admin/logout", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect((await ctx.request("/admin", { headers: { cookie: `finder_admin_session=${token}` } })).status).toBe(200);
  });
});
