// Security headers on every response, set in one place: pages, render-cache hits, fragments, JSON,
// static files, redirects and errors (see docs/public-pages.md, "Security headers").

import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { useTestApp, withTestApp } from "../helpers/app.ts";
import { createApp } from "../../src/app.ts";
import { CONTENT_SECURITY_POLICY, referrerPolicyOption, securityHeaders, STRICT_TRANSPORT_SECURITY } from "../../src/lib/http/security-headers.ts";

const ctx = useTestApp();

function expectSecurityHeaders(res: Response, path: string) {
  const csp = res.headers.get("content-security-policy");
  expect(csp, path).toBe(CONTENT_SECURITY_POLICY);
  const directives = new Map(csp!.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(directives.get("script-src"), path).toEqual(["'self'"]);
  expect(directives.get("img-src"), path).toEqual(["'self'", "data:", "https://tile.openstreetmap.org"]);
  expect(directives.get("frame-ancestors"), path).toEqual(["'none'"]);
  expect(directives.get("base-uri"), path).toEqual(["'none'"]);
  expect(directives.get("object-src"), path).toEqual(["'none'"]);
  expect(directives.get("form-action"), path).toEqual(["'self'"]);
  expect(csp, path).not.toContain("unsafe-eval");
  expect(directives.get("script-src")!.join(" "), path).not.toContain("unsafe-inline");
  expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
  expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("permissions-policy"), path).toBe("geolocation=(self)");
}

describe("security headers", () => {
  test("every kind of response carries them: pages, cache hits, fragments, JSON, static files, redirects, errors", async () => {
    const requests: [string, RequestInit?][] = [
      ["/"],
      ["/"], // served from the render cache
      ["/?q=jazz", { headers: { "hx-request": "true" } }],
      ["/", { headers: { "accept-encoding": "br" } }],
      ["/api/events"],
      ["/api/health"],
      ["/static/app.css"],
      ["/static/vendor/htmx.min.js"],
      ["/feature-event"],
      ["/feature-event/status"],
      ["/privacy"],
      ["/submit-event"],
      ["/admin/login"],
      ["/admin"],
      ["/event/evt_fixture000001/canal-amapiano-sunset"],
      ["/no-such-page"],
      ["/api/no-such-endpoint"],
      ["/api/track", { method: "POST", headers: { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) }, body: "{}" }],
    ];
    const statuses = new Set<number>();
    for (const [path, init] of requests) {
      const res = await ctx.request(path, init);
      statuses.add(res.status);
      expectSecurityHeaders(res, path);
      await res.arrayBuffer();
    }
    // Successes, redirects, client errors and the body cap were all covered.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 307, 404, 413]));
    // Not in development or test: HSTS is for production only.
    expect((await ctx.request("/")).headers.get("strict-transport-security")).toBeNull();
  });

  test("over a real socket too, where a fresh cached homepage skips Elysia (the server's own route)", async () => {
    await withTestApp({ keepData: true }, async (bare) => {
      const url = bare.listen();
      for (const path of ["/", "/", "/api/health", "/static/app.css", "/missing"]) {
        const res = await fetch(`${url}${path}`, { headers: { "accept-encoding": "br" } });
        await res.arrayBuffer();
        expectSecurityHeaders(res, `${path} (socket)`);
      }
      const hit = await fetch(`${url}/`);
      await hit.arrayBuffer();
      expect(hit.headers.get("x-cache")).toBe("HIT");
      expectSecurityHeaders(hit, "/ (cache hit, socket)");
    });
  });

  test("a static file answered 304 keeps them", async () => {
    const first = await ctx.request("/static/app.js");
    const again = await ctx.request("/static/app.js", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expectSecurityHeaders(again, "/static/app.js (304)");
  });

  test("production adds HSTS", async () => {
    await withTestApp({ env: { NODE_ENV: "production", DATA_MODE: "test", DATABASE_URL: "postgres://unused@127.0.0.1:9/unused" }, keepData: true }, async (production) => {
      for (const path of ["/", "/api/health", "/static/app.css", "/missing"]) {
        const res = await production.request(path);
        expect(res.headers.get("strict-transport-security"), path).toBe(STRICT_TRANSPORT_SECURITY);
        expectSecurityHeaders(res, path);
      }
    });
  });

  test("the bench baseline can turn them off; nothing else does", async () => {
    const bare = createApp(ctx.deps, { securityHeaders: false });
    const res = await bare.handle(new Request("http://finder.test/api/health"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBeNull();
    expect(res.headers.get("x-content-type-options")).toBeNull();
  });

  test("a route with a token in its URL chooses no-referrer, even when it fails", async () => {
    const app = new Elysia()
      .use(securityHeaders({ production: false }))
      .use(
        new Elysia()
          .use(referrerPolicyOption)
          .get("/stats/:token", ({ params }) => `stats for ${params.token}`, { referrerPolicy: "no-referrer" })
          .get("/stats-broken/:token", () => {
            throw new Error("boom");
          }, { referrerPolicy: "no-referrer" })
          .get("/other", () => "other"),
      );
    const ok = await app.handle(new Request("http://finder.test/stats/abc"));
    expect(ok.headers.get("referrer-policy")).toBe("no-referrer");
    expect(ok.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    const broken = await app.handle(new Request("http://finder.test/stats-broken/abc"));
    expect(broken.status).toBe(500);
    expect(broken.headers.get("referrer-policy")).toBe("no-referrer");
    expect((await app.handle(new Request("http://finder.test/other"))).headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});
