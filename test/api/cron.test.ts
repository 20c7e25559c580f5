import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp, withTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { SCHEDULE, runScheduledTask } from "../../src/tasks/schedule.ts";

const CRON_SECRET = "cron-secret-0123456789";
const DEPLOY_SECRET = "deploy-secret-0123456789";
const ctx = useTestApp({ env: { CRON_SECRET, DEPLOY_REVALIDATE_SECRET: DEPLOY_SECRET } });

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe("cron endpoints", () => {
  test("missing or wrong secret → 401 and the task does not run", async () => {
    await saveStoreSheet(ctx.deps.db, "Title,Date\nA,2026-06-21\n", { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
    for (const headers of [{}, bearer("wrong"), { authorization: CRON_SECRET }, bearer(`${CRON_SECRET}x`)]) {
      const res = await ctx.request("/api/cron/backup-event-store", { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Unauthorized" });
      expect(res.headers.get("cache-control")).toContain("no-store");
    }
    const [{ n }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_backups`);
    expect(n).toBe(0);
  });

  test("CRON_SECRET unset → 401", async () => {
    await withTestApp({ keepData: true }, async (bare) => {
      expect((await bare.request("/api/cron/cleanup-rate-limits", { headers: bearer("") })).status).toBe(401);
    });
  });

  test("backup-event-store answers the backup summary", async () => {
    const res = await ctx.request("/api/cron/backup-event-store", { headers: bearer(CRON_SECRET) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, message: "Backup created (1 rows, 0 featured entries)", prunedCount: 0, backup: { createdBy: "cron", trigger: "cron", rowCount: 1, featuredEntryCount: 0, promotedEntryCount: 0 } });
    expect(body.backup.storeChecksum).toMatch(/^[0-9a-f]{16}$/);
  });

  test("cleanup endpoints report how many rows they deleted", async () => {
    await ctx.deps.limiter.check({ scope: "old", limit: 1, windowSeconds: 1 }, ["x"], { failOpen: false });
    ctx.clock.advance(2 * 86400_000);
    const res = await ctx.request("/api/cron/cleanup-rate-limits", { headers: bearer(CRON_SECRET) });
    expect(await res.json()).toEqual({ ok: true, deleted: 1 });
    const sessions = await ctx.request("/api/cron/cleanup-admin-sessions", { headers: bearer(CRON_SECRET) });
    expect(await sessions.json()).toEqual({ ok: true, deleted: 0 });
  });

  test("prune-tracking-markers deletes write-batch markers applied more than an hour ago", async () => {
    await ctx.deps.database.query(sql`insert into write_batches (id, applied_at) values ('00000000-0000-4000-8000-000000000001', now() - interval '2 hours'), ('00000000-0000-4000-8000-000000000002', now())`);
    const res = await ctx.request("/api/cron/prune-tracking-markers", { headers: bearer(CRON_SECRET) });
    expect(await res.json()).toEqual({ ok: true, deleted: 1 });
    const left = await ctx.deps.database.query<{ id: string }>(sql`select id from write_batches`);
    expect(left.map((r) => r.id)).toEqual(["00000000-0000-4000-8000-000000000002"]);
  });

  test("every scheduled task runs through the exclusive runner", async () => {
    expect(SCHEDULE.map((j) => [j.name, j.pattern])).toEqual([
      ["cleanup-admin-sessions", "0 4 * * *"],
      ["cleanup-rate-limits", "10 4 * * *"],
      ["backup-event-store", "20 4 * * *"],
      ["prune-tracking-markers", "*/10 * * * *"],
      ["warm-coordinates", "30 * * * *"],
      ["tracking-retention", "30 4 * * *"],
      ["purge-submissions", "40 4 * * *"],
      ["send-outbox", "*/5 * * * * *"],
    ]);
    const outcome = await runScheduledTask(ctx.deps, SCHEDULE[1]);
    expect(outcome).toEqual({ ran: true, result: { deleted: 0 } });
  });

  test("an unknown task → 404 and nothing runs", async () => {
    const res = await ctx.request("/api/cron/drop-everything", { headers: bearer(CRON_SECRET) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error: "Unknown task" });
  });

  test("five parallel calls of one task make one run; the others answer skipped", async () => {
    await saveStoreSheet(ctx.deps.db, "Title,Date\nParallel,2026-06-21\n", { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
    const [{ before }] = await ctx.deps.database.query<{ before: number }>(sql`select count(*)::int as before from event_store_backups`);
    const bodies = await Promise.all(
      Array.from({ length: 5 }, () => ctx.request("/api/cron/backup-event-store", { headers: bearer(CRON_SECRET) }).then((r) => r.json())),
    );
    const [{ after }] = await ctx.deps.database.query<{ after: number }>(sql`select count(*)::int as after from event_store_backups`);
    expect(after - before).toBe(1);
    expect(bodies.filter((b) => b.backup).length).toBe(1);
    expect(bodies.filter((b) => b.skipped).length).toBe(4);
    for (const body of bodies) expect(body.ok).toBe(true);
  });
});

describe("deploy revalidation", () => {
  test("unset secret → 503 with the exact message", async () => {
    await withTestApp({ keepData: true }, async (bare) => {
      const res = await bare.request("/api/revalidate/deploy", { method: "POST", headers: bearer("x") });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ success: false, error: "DEPLOY_REVALIDATE_SECRET is not configured" });
    });
  });

  test("wrong secret → 401; Bearer or x-revalidate-secret accepted; homepage invalidated", async () => {
    expect((await ctx.request("/api/revalidate/deploy", { headers: bearer("nope") })).status).toBe(401);
    const seen: unknown[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => {
      seen.push(i);
    });
    const viaBearer = await ctx.request("/api/revalidate/deploy", { method: "POST", headers: bearer(DEPLOY_SECRET) });
    expect(await viaBearer.json()).toEqual({ success: true, message: "Loaded 14 events from test and revalidated homepage", count: 14, source: "test" });
    const viaHeader = await ctx.request("/api/revalidate/deploy", { headers: { "x-revalidate-secret": DEPLOY_SECRET } });
    expect(viaHeader.status).toBe(200);
    stop();
    expect(seen[0]).toEqual({ paths: ["/", "/feature-event"], tags: ["live-events"] });
  });

  test("a failed live read → 500 \"Homepage revalidation failed\" with the reason", async () => {
    await withTestApp({ env: { DATA_MODE: "local", LOCAL_EVENTS_CSV: "/nonexistent.csv", DEPLOY_REVALIDATE_SECRET: DEPLOY_SECRET }, keepData: true }, async (broken) => {
      const res = await broken.request("/api/revalidate/deploy", { headers: bearer(DEPLOY_SECRET) });
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.message).toBe("Homepage revalidation failed");
    });
  });
});
