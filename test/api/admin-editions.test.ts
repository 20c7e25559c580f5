// Admin API of the edition windows (docs/editions.md, "The window setting"): read the windows and
// the current edition, set one year's window (the submission check follows at once, the homepage
// render is dropped), reset it, and refuse bad input without storing anything; 401 without a key.

import { beforeEach, describe, expect, test } from "bun:test";
import { useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { EDITIONS_KV_KEY } from "../../src/lib/site/edition-settings.ts";

const ctx = useTestApp();
const JSON_KEY = { ...ADMIN_KEY_HEADER, "content-type": "application/json" };

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.deps.editions.windows = {};
  ctx.clock.set("2026-12-07T12:00:00Z");
});

const put = (body: unknown) => ctx.request("/api/admin/editions", { method: "PUT", headers: JSON_KEY, body: typeof body === "string" ? body : JSON.stringify(body) });
const submission = (date: string) =>
  ctx.request("/api/event-submissions?lang=en", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ eventName: `Canal Session ${date}`, date, startTime: "20:00", location: "Quai de Valmy", hostEmail: "host@example.com", proofLink: "https://example.com/e", formStartedAt: "2026-12-07T11:55:00.000Z" }),
  });

describe("edition windows", () => {
  test("on 7 December the current edition is next June's, upcoming, with the default window", async () => {
    const res = await ctx.request("/api/admin/editions", { headers: ADMIN_KEY_HEADER });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      settings: { version: 1, windows: {}, updatedAt: null, updatedBy: null },
      current: { year: 2027, from: "2027-06-15", to: "2027-06-22", night: "2027-06-21", state: "upcoming" },
      archives: [],
    });
  });

  test("a window set for 2027 moves the submission check and the countdown; 2026's stays; reset goes back", async () => {
    expect((await submission("2027-06-16")).status).toBe(200);
    const saved = await put({ year: 2027, from: "2027-06-18", to: "2027-06-23", night: "2027-06-22" });
    expect(saved.status).toBe(200);
    const body = await saved.json();
    expect(body.current).toEqual({ year: 2027, from: "2027-06-18", to: "2027-06-23", night: "2027-06-22", state: "upcoming" });
    expect((await put({ year: 2026, from: "2026-06-19", to: "2026-06-22", night: "2026-06-21" })).status).toBe(200);
    const stored = (await ctx.deps.kv.get(EDITIONS_KV_KEY)) as { windows: Record<string, unknown> };
    expect(Object.keys(stored.windows).sort()).toEqual(["2026", "2027"]);
    expect(stored.windows["2027"]).toEqual({ from: "2027-06-18", to: "2027-06-23", night: "2027-06-22" });

    const refused = await submission("2027-06-16");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("2027-06-18 to 2027-06-23");
    expect((await submission("2027-06-23")).status).toBe(200);
    expect(await (await ctx.request("/fr/?dn=night")).text()).toContain('data-countdown="2027-06-22"');

    const reset = await put({ year: 2027, reset: true });
    expect((await reset.json()).current).toEqual({ year: 2027, from: "2027-06-15", to: "2027-06-22", night: "2027-06-21", state: "upcoming" });
    const after = (await ctx.deps.kv.get(EDITIONS_KV_KEY)) as { windows: Record<string, unknown> };
    expect(Object.keys(after.windows)).toEqual(["2026"]);
  });

  test.each([
    [{ year: 2027, from: "2027-06-23", to: "2027-06-18", night: "2027-06-21" }, "from"],
    [{ year: 2027, from: "2027-06-15", to: "2027-06-22", night: "2027-07-01" }, "night"],
    [{ year: 2027, from: "2026-06-15", to: "2027-06-22", night: "2027-06-21" }, "from"],
    [{ year: 2027, from: "2027-02-30", to: "2027-06-22", night: "2027-06-21" }, "from"],
    [{ year: 2027, from: "2027-05-01", to: "2027-06-22", night: "2027-06-21" }, "from"],
    [{ year: 20227, from: "2027-06-15", to: "2027-06-22", night: "2027-06-21" }, "year"],
    [{ year: "next", reset: true }, "year"],
    [{ year: 2027, from: "<b>x</b>", to: "2027-06-22", night: "2027-06-21" }, "from"],
    [{ year: 2027, from: "2027-06-15", to: "2027-06-22", night: "2027-06-21", backupId: "x" }, "backupId"],
  ])("%j is refused naming %s, and nothing is stored", async (body, field) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.issues.map((issue: { field: string }) => issue.field)).toContain(field);
    expect(JSON.stringify(answer)).not.toContain("<b>");
    expect(await ctx.deps.kv.get(EDITIONS_KV_KEY)).toBeUndefined();
  });

  test("malformed JSON is a 400; without the key, 401", async () => {
    expect((await put("{not json")).status).toBe(400);
    expect((await ctx.request("/api/admin/editions")).status).toBe(401);
    expect((await ctx.request("/api/admin/editions", { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
  });
});
