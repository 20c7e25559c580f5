// Per-IP limits over a real socket: the server sees the peer address, so a client that connects
// directly cannot buy new buckets by rotating X-Forwarded-For; behind a trusted proxy the header
// names the client. Also the admin login backstop across all IPs.

import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp, withTestApp } from "../helpers/app.ts";
import { RATE_LIMITS } from "../../src/lib/rate-limit/fixed-window.ts";

// Each test sends a limit's worth of requests over real sockets (up to 300).
setDefaultTimeout(60_000);

// The loopback peer of these tests is not a trusted proxy: it is a client connecting directly.
const direct = useTestApp({ env: { TRUSTED_PROXIES: "10.0.0.0/8" } });
let base: string;
beforeAll(() => {
  base = direct.listen();
});

let rotation = 0;
/** A different spoofed X-Forwarded-For / X-Real-IP on every call. */
const spoofed = () => {
  rotation++;
  return { "x-forwarded-for": `203.0.${(rotation >> 8) & 255}.${rotation & 255}`, "x-real-ip": `198.51.${(rotation >> 8) & 255}.${rotation & 255}` };
};
const origin = { origin: "http://finder.test" };

describe("a direct client rotating X-Forwarded-For stays one client", () => {
  test("admin login: 10 wrong keys, then 429 for every further attempt, right key included", async () => {
    const attempt = (key: string) => fetch(`${base}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json", ...spoofed() }, body: JSON.stringify({ key }) });
    for (let i = 0; i < RATE_LIMITS.adminLoginIp.limit; i++) expect((await attempt(`guess-${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-more-${i}`)).status).toBe(429);
    expect((await attempt(TEST_ADMIN_KEY)).status).toBe(429);
  });

  test("tracking: at most 240 clicks recorded per minute whatever the headers say", async () => {
    const sends = Array.from({ length: 300 }, () =>
      fetch(`${base}/api/track`, { method: "POST", headers: { "content-type": "application/json", ...spoofed() }, body: JSON.stringify({ eventKey: "evt_fixture000001", actionType: "click" }) }),
    );
    for (const res of await Promise.all(sends)) expect(res.status).toBe(202);
    await direct.deps.tracking.flush();
    const [row] = await direct.deps.database.query<{ n: number }>(sql`select count(*)::int as n from engagement_interactions`);
    expect(row.n).toBe(RATE_LIMITS.trackEventIp.limit);
  });

  test("sign-in: the 61st verify within a minute is 429", async () => {
    const verify = (i: number) =>
      fetch(`${base}/api/auth/verify`, { method: "POST", headers: { "content-type": "application/json", ...origin, ...spoofed() }, body: JSON.stringify({ email: `visitor${i}@example.com`, consent: true }) });
    for (let i = 0; i < RATE_LIMITS.authVerifyIp.limit; i++) expect((await verify(i)).status).toBe(200);
    expect((await verify(999)).status).toBe(429);
  });

  test("submissions: the 21st within ten minutes is 429", async () => {
    const submit = () => fetch(`${base}/api/event-submissions`, { method: "POST", headers: { "content-type": "application/json", ...origin, ...spoofed() }, body: "{}" });
    for (let i = 0; i < RATE_LIMITS.eventSubmitIp.limit; i++) expect((await submit()).status).toBe(400);
    expect((await submit()).status).toBe(429);
  });

  test("link-preview images: the 121st within an hour is 429", async () => {
    for (let i = 0; i < RATE_LIMITS.ogImageIp.limit; i++) expect((await fetch(`${base}/api/og?title=same`, { headers: spoofed() })).status).toBe(200);
    expect((await fetch(`${base}/api/og?title=same`, { headers: spoofed() })).status).toBe(429);
  });
});

describe("behind a trusted proxy", () => {
  test("the proxy's X-Forwarded-For names the client: one locked-out client does not lock out another", async () => {
    await withTestApp({ env: { TRUSTED_PROXIES: "loopback" } }, async (proxied) => {
      const url = proxied.listen();
      const attempt = (key: string, client: string) => fetch(`${url}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client }, body: JSON.stringify({ key }) });
      for (let i = 0; i < RATE_LIMITS.adminLoginIp.limit; i++) expect((await attempt(`guess-${i}`, "192.0.2.66")).status).toBe(401);
      expect((await attempt(TEST_ADMIN_KEY, "192.0.2.66")).status).toBe(429);
      expect((await attempt(TEST_ADMIN_KEY, "192.0.2.77")).status).toBe(200);
      const [session] = await proxied.deps.database.query<{ ip: string }>(sql`select ip from admin_sessions`);
      expect(session.ip).toBe("192.0.2.77");
    });
  });
});

describe("admin login backstop across all IPs", () => {
  test("past 20 wrong keys a minute from many IPs a warning is logged, attempts are slowed, and the real admin still gets in", async () => {
    await withTestApp({}, async (ctx) => {
      const attempt = (key: string, client: string) => ctx.request("/api/admin/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client }, body: JSON.stringify({ key }) });
      // Three IPs, none over its own limit of 10.
      for (let i = 0; i < RATE_LIMITS.adminLoginFailures.limit; i++) expect((await attempt(`guess-${i}`, `192.0.2.${i % 3}`)).status).toBe(401);
      expect(ctx.logs.some((l) => l.level === "warn" && l.line.includes("over the backstop"))).toBe(false);
      expect((await attempt("one-more", "192.0.2.9")).status).toBe(401);
      const warnings = ctx.logs.filter((l) => l.level === "warn" && l.line.includes("over the backstop"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0].line).not.toContain("192.0.2.");
      // Not locked out: the right key from an admin's own IP still logs in (after the delay).
      expect((await attempt(TEST_ADMIN_KEY, "198.51.100.20")).status).toBe(200);
      expect((await attempt("again", "192.0.2.10")).status).toBe(401);
      expect(ctx.logs.filter((l) => l.level === "warn" && l.line.includes("over the backstop"))).toHaveLength(1);
    });
  });
});
