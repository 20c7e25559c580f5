// The low findings of the outside audit, each at the HTTP boundary: control characters refused
// with 400 and never logged (sign-in), refused by tracking without a 500 (tracking answers 202 by
// design), one sign-in answer for a known and an unknown address, and the admin login backstop
// taking one attempt at a time.

import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { postJson, TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { RATE_LIMITS } from "../../src/lib/rate-limit/fixed-window.ts";

const ctx = useTestApp();

const origin = { origin: "http://finder.test" };
const CONTROL = ["\u0000", "\u0001", "\u001b[31m", "\n", "\u007f"];

describe("sign-in", () => {
  test("a control character (NUL included) in a name or the source is 400, nothing stored, never logged raw", async () => {
    const marker = "hostile-marker";
    for (const bad of CONTROL) {
      for (const field of ["firstName", "lastName", "source"]) {
        const before = ctx.logs.length;
        const res = await postJson(ctx, "/api/auth/verify", { email: `c${CONTROL.indexOf(bad)}@example.com`, consent: true, [field]: `${marker}${bad}x` }, origin);
        expect([field, bad, res.status]).toEqual([field, bad, 400]);
        const body = (await res.json()) as { issues: { field: string }[] };
        expect(body.issues[0]!.field).toBe(field);
        for (const line of ctx.logs.slice(before)) expect(line.line).not.toContain(marker);
      }
    }
    expect(await ctx.deps.database.query(sql`select 1 from users`)).toHaveLength(0);
  });

  test("a known and an unknown address get the same answer", async () => {
    const first = await postJson(ctx, "/api/auth/verify", { email: "known@example.com", consent: true }, origin);
    const again = await postJson(ctx, "/api/auth/verify", { email: "known@example.com", consent: true }, origin);
    const fresh = await postJson(ctx, "/api/auth/verify", { email: "fresh@example.com", consent: true }, origin);
    const strip = async (res: Response) => ({ status: res.status, ...((await res.json()) as Record<string, unknown>), email: undefined });
    const answer = await strip(first);
    expect(await strip(again)).toEqual(answer);
    expect(await strip(fresh)).toEqual(answer);
  });
});

describe("tracking", () => {
  test("a control character in the source, path or session is refused: 202, nothing recorded, no 500", async () => {
    for (const bad of CONTROL) {
      for (const field of ["source", "path", "sessionId"]) {
        const res = await postJson(ctx, "/api/track", { eventKey: "evt_fixture000001", actionType: "click", [field]: `x${bad}y` }, { "x-forwarded-for": "192.0.2.1" });
        expect(res.status).toBe(202);
      }
    }
    await ctx.deps.tracking.flush();
    expect(await ctx.deps.database.query(sql`select 1 from engagement_interactions`)).toHaveLength(0);
    expect(ctx.logs.filter((l) => l.level === "error")).toEqual([]);
  });
});

describe("admin login backstop", () => {
  test("past the backstop, parallel guesses get one key compared at a time; the real admin still gets in", async () => {
    const attempt = (key: string, client: string) => postJson(ctx, "/api/admin/login", { key }, { "x-forwarded-for": client });
    // Set the backstop off: more wrong keys in a minute than it allows, from IPs under their own limit.
    for (let i = 0; i <= RATE_LIMITS.adminLoginFailures.limit; i++) expect((await attempt(`guess-${i}`, `198.51.100.${i % 5}`)).status).toBe(401);
    const parallel = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(`parallel-${i}`, `203.0.113.${i}`)));
    const statuses = parallel.map((r) => r.status).sort();
    expect(statuses).toEqual([401, 429, 429, 429, 429, 429, 429, 429]);
    expect(parallel.find((r) => r.status === 429)!.headers.get("retry-after")).toBe("1");
    expect((await attempt(TEST_ADMIN_KEY, "192.0.2.200")).status).toBe(200);
  });
});
