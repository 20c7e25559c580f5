import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { useTestApp, withTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { createBackup } from "../../src/lib/store/backups.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate kv_store`);
});

const get = (path: string) => ctx.request(path, { headers: ADMIN_KEY_HEADER });

describe("GET /api/admin/health", () => {
  test("status, database engine, data mode and the live event count", async () => {
    const res = await get("/api/admin/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["dataMode", "database", "eventCount", "status"]);
    expect(body.status).toBe("ok");
    expect(body.database).toBe(ctx.deps.database.engine);
    expect(body.dataMode).toBe("test");
    expect(body.eventCount).toBeGreaterThan(0);
  });

  test("remote mode with an empty store falls back: degraded, the fallback still counted", async () => {
    await withTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "data/events.csv" } }, async (remote) => {
      const body = await (await remote.request("/api/admin/health", { headers: ADMIN_KEY_HEADER })).json();
      expect(body).toMatchObject({ status: "degraded", dataMode: "remote", database: remote.deps.database.engine });
      expect(body.eventCount).toBeGreaterThan(0);
      await saveStoreSheet(remote.deps.db, readFileSync("data/events.csv", "utf8"), { updatedBy: "system", origin: "local-file-import", now: remote.clock.now() });
      const stored = await (await remote.request("/api/admin/health", { headers: ADMIN_KEY_HEADER })).json();
      expect(stored.status).toBe("ok");
      expect(stored.eventCount).toBe(body.eventCount);
    });
  });
});

describe("GET /api/admin/data-store/status", () => {
  test("an empty store", async () => {
    await ctx.deps.database.query(sql`truncate event_store_meta, event_store_rows, event_store_columns, event_store_backups, event_store_published`);
    const res = await get("/api/admin/data-store/status");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      timestamp: ctx.clock.now().toISOString(),
      store: { hasStoreData: false, rowCount: 0, columnCount: 0, revision: 0, checksum: null, updatedAt: null, updatedBy: null, origin: null, provider: ctx.deps.database.engine },
      backups: { count: 0, newestAt: null },
      kv: { entryCount: 0 },
      config: { dataMode: "test", remoteConfigured: false, hasServiceAccount: false },
      runtime: { lastFetchTime: null, lastErrorMessage: null, source: null, eventCount: 0 },
    });
  });

  test("a saved store, a backup, KV entries and a live read", async () => {
    const saved = await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "admin-upload", origin: "manual", trigger: "upload", now: ctx.clock.now() });
    if (!saved.ok) throw new Error("save failed");
    const backup = await createBackup(ctx.deps.db, { createdBy: "admin-panel", trigger: "manual", now: ctx.clock.now() });
    await ctx.deps.kv.set("a", 1);
    await ctx.deps.kv.set("b", 2);
    await ctx.deps.events.load();
    const body = await (await get("/api/admin/data-store/status")).json();
    expect(body.store).toMatchObject({ hasStoreData: true, rowCount: saved.rowCount, columnCount: saved.columnCount, revision: saved.revision, checksum: saved.checksum, updatedBy: "admin-upload", origin: "manual" });
    expect(body.backups.count).toBe(1);
    expect(body.backups.newestAt).toBe(backup.ok && !backup.skipped ? backup.backup.createdAt.toISOString() : "");
    expect(body.kv.entryCount).toBeGreaterThanOrEqual(2);
    expect(body.runtime).toMatchObject({ source: "test", lastErrorMessage: null });
    expect(body.runtime.eventCount).toBeGreaterThan(0);
  });
});

describe("GET /api/admin/postgres/kv", () => {
  beforeEach(async () => {
    await ctx.deps.kv.set("maps:locations:v1", { "Le Bar_11": { name: "Le Bar", coordinates: { lat: 48.86, lng: 2.37 } } });
    await ctx.deps.kv.set("ui:sliding-banner:v1", { enabled: true, messages: ["Hello"] });
    await ctx.deps.kv.set("events:submissions:settings:v1", { open: true, webhookSecret: "shh", nested: [{ apiKey: "k" }] });
    await ctx.deps.kv.set("provider:token", "abc");
    await ctx.deps.kv.set("maps_x", 1);
  });

  test("list mode: keys without values by default, limit and prefix (LIKE characters are literal)", async () => {
    const body = await (await get("/api/admin/postgres/kv")).json();
    expect(body).toMatchObject({ success: true, query: { prefix: "", limit: 100, includeValues: false }, totalKeyCount: 5, returnedCount: 5 });
    expect(body.records[0]).toEqual({ key: "events:submissions:settings:v1", updatedAt: expect.any(String) });
    const limited = await (await get("/api/admin/postgres/kv?prefix=maps&limit=1")).json();
    expect(limited).toMatchObject({ totalKeyCount: 2, returnedCount: 1 });
    const literal = await (await get("/api/admin/postgres/kv?prefix=maps_")).json();
    expect(literal.records.map((r: { key: string }) => r.key)).toEqual(["maps_x"]);
  });

  test("values only when asked, secrets redacted", async () => {
    const body = await (await get("/api/admin/postgres/kv?includeValues=1&prefix=events")).json();
    expect(body.records[0].value).toEqual({ open: true, webhookSecret: "[redacted]", nested: [{ apiKey: "[redacted]" }] });
    const token = await (await get("/api/admin/postgres/kv?key=provider:token&includeValues=1")).json();
    expect(token.record.value).toBe("[redacted]");
  });

  test("key mode: found with or without value, and not found", async () => {
    expect(await (await get("/api/admin/postgres/kv?key=ui:sliding-banner:v1")).json()).toEqual({
      success: true,
      key: "ui:sliding-banner:v1",
      found: true,
      record: { key: "ui:sliding-banner:v1", updatedAt: expect.any(String) },
    });
    const withValue = await (await get("/api/admin/postgres/kv?key=ui:sliding-banner:v1&includeValues=1")).json();
    expect(withValue.record.value).toEqual({ enabled: true, messages: ["Hello"] });
    expect(await (await get("/api/admin/postgres/kv?key=nope")).json()).toEqual({ success: true, key: "nope", found: false });
  });

  test("bad limits and over-long keys → 400", async () => {
    for (const q of ["limit=0", "limit=501", "limit=abc", "limit=1.5", "limit=-1", `prefix=${"p".repeat(600)}`, `key=${"k".repeat(600)}`]) {
      const res = await get(`/api/admin/postgres/kv?${q}`);
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    }
    expect((await get("/api/admin/postgres/kv?limit=500")).status).toBe(200);
    expect((await get("/api/admin/postgres/kv?limit=1")).status).toBe(200);
  });

  test("SQL-looking input is just a key", async () => {
    const body = await (await get(`/api/admin/postgres/kv?key=${encodeURIComponent("x' or '1'='1")}`)).json();
    expect(body).toEqual({ success: true, key: "x' or '1'='1", found: false });
  });
});
