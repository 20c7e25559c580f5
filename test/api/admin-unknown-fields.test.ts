// Unknown fields in admin JSON bodies are refused with 400 naming them, before the route acts: the
// misnamed `backupId` of a restore restores nothing, and every admin write of the app is covered.

import { describe, expect, test } from "bun:test";
import { TEST_ADMIN_KEY, postJson, useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { findStoreMeta, readStoreSheet, saveStoreSheet } from "../../src/lib/store/store.ts";
import { listBackups } from "../../src/lib/store/backups.ts";
import { ADMIN_BODY_FIELDS } from "../../src/lib/auth/admin-body-fields.ts";

const ctx = useTestApp();
const JSON_KEY = { ...ADMIN_KEY_HEADER, "content-type": "application/json" };
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function adminWrites(): string[] {
  const routes = (ctx.app as unknown as { routes: { method: string; path: string }[] }).routes;
  return [...new Set(routes.filter((r) => STATE_CHANGING.has(r.method) && r.path.startsWith("/api/admin/")).map((r) => `${r.method} ${r.path}`))].sort();
}

/** A concrete address for a registered route: every parameter filled in. */
function addressOf(path: string): string {
  return path.replace(":tier", "spotlight").replace(/:[^/]+|\*/g, "00000000-0000-4000-8000-000000000000");
}

describe("unknown fields in admin JSON bodies", () => {
  test("a restore naming backupId is refused with 400 naming it, and restores nothing", async () => {
    await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
    const created = await ctx.request("/api/admin/backups", { method: "POST", headers: ADMIN_KEY_HEADER });
    const { backup } = await created.json();
    await postJson(ctx, "/api/admin/recovery/clear-store", { confirm: "CLEAR STORE" }, ADMIN_KEY_HEADER);
    const before = await findStoreMeta(ctx.deps.db);
    expect(before?.rowCount).toBe(0);
    const backups = (await listBackups(ctx.deps.db)).length;

    const res = await postJson(ctx, "/api/admin/backups/restore", { backupId: backup.id }, ADMIN_KEY_HEADER);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, error: "Unknown field: backupId", issues: [{ field: "backupId", message: "Unknown field" }] });
    expect(await findStoreMeta(ctx.deps.db)).toEqual(before);
    expect((await readStoreSheet(ctx.deps.db))?.rows ?? []).toHaveLength(0);
    expect(await listBackups(ctx.deps.db)).toHaveLength(backups);
    // The right field still restores.
    const restored = await postJson(ctx, "/api/admin/backups/restore", { id: backup.id }, ADMIN_KEY_HEADER);
    expect(restored.status).toBe(200);
  });

  test("every admin write route is listed with the fields it takes", () => {
    expect(Object.keys(ADMIN_BODY_FIELDS).sort()).toEqual(adminWrites());
  });

  for (const [route, fields] of Object.entries(ADMIN_BODY_FIELDS)) {
    if (fields === null) continue;
    test(`${route}: an extra field answers 400 naming it`, async () => {
      const [method, path] = route.split(" ") as [string, string];
      const body = { ...Object.fromEntries(fields.slice(0, 1).map((f) => [f, null])), zzUnknown: 1, "other field": true };
      const headers = route === "POST /api/admin/login" ? { "content-type": "application/json", "x-forwarded-for": "198.18.200.1" } : JSON_KEY;
      const res = await ctx.request(addressOf(path), { method, headers, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        success: false,
        error: "Unknown fields: zzUnknown, other field",
        issues: [
          { field: "zzUnknown", message: "Unknown field" },
          { field: "other field", message: "Unknown field" },
        ],
      });
    });
  }

  test("without a credential the answer stays 401 (the fields are not told to strangers)", async () => {
    const res = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: { "content-type": "application/json" }, body: '{"backupId":"x"}' });
    expect(res.status).toBe(401);
  });

  test("the login form-encoded and JSON with only its field still work", async () => {
    const res = await postJson(ctx, "/api/admin/login", { key: TEST_ADMIN_KEY }, { "x-forwarded-for": "198.18.200.2" });
    expect(res.status).toBe(200);
  });
});
