import { describe, expect, test } from "bun:test";
import { useTestApp } from "../../helpers/app.ts";
import { storedTable } from "../../helpers/store.ts";
import { createBackup, listBackups, restoreBackup } from "../../../src/lib/store/backups.ts";
import { readStoreSheet, saveStoreSheet } from "../../../src/lib/store/store.ts";
import { spotlightSchedule } from "../../../src/lib/db/schema/index.ts";

const ctx = useTestApp();

const SHEET_A = "Title,Date\nAlpha,2026-06-21\nBeta,2026-06-21\n";
const SHEET_B = "Title,Date\nGamma,2026-06-22\n";

describe("backups", () => {
  test("nothing to back up when the store and both schedules are empty", async () => {
    const result = await createBackup(ctx.deps.db, { createdBy: "cron", trigger: "cron", now: new Date() });
    expect(result).toEqual({ ok: true, skipped: true, message: "Managed store and featured schedule are both empty; nothing to back up." });
  });

  test("a backup snapshots rows and the spotlight schedule; restore brings both back after a pre-restore snapshot", async () => {
    const t0 = new Date("2026-06-10T00:00:00Z");
    await saveStoreSheet(ctx.deps.db, SHEET_A, { updatedBy: "admin-upload", origin: "manual", now: t0 });
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "evt_aaaaaaaaaaaaaaaa", requestedStartAt: t0, effectiveStartAt: t0, effectiveEndAt: new Date(t0.getTime() + 48 * 3600e3), slot: 1 });
    const created = await createBackup(ctx.deps.db, { createdBy: "admin-panel", trigger: "manual", now: t0 });
    expect(created.skipped).toBe(false);
    if (created.skipped) return;
    expect(created.message).toBe("Backup created (2 rows, 1 featured entries)");
    expect(created.backup).toMatchObject({ rowCount: 2, featuredEntryCount: 1, promotedEntryCount: 0, trigger: "manual" });

    await saveStoreSheet(ctx.deps.db, SHEET_B, { updatedBy: "admin-upload", origin: "manual", now: new Date("2026-06-11T00:00:00Z") });
    await ctx.deps.db.delete(spotlightSchedule);
    const restored = await restoreBackup(ctx.deps.db, { id: created.backup.id, now: new Date("2026-06-12T00:00:00Z") });
    expect(restored.ok).toBe(true);
    const sheet = await readStoreSheet(ctx.deps.db);
    expect(storedTable(sheet!).rows.map((r) => r[0])).toEqual(["Alpha", "Beta"]);
    expect(sheet!.meta.origin).toBe("restore");
    const schedule = await ctx.deps.db.select().from(spotlightSchedule);
    expect(schedule.map((s) => s.eventKey)).toEqual(["evt_aaaaaaaaaaaaaaaa"]);
    const backups = await listBackups(ctx.deps.db);
    expect(backups[0].trigger).toBe("pre-restore");
    expect(backups[0].rowCount).toBe(1);
  });

  test("unknown or malformed backup ids change nothing", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "'; drop table x;--"]) {
      expect(await restoreBackup(ctx.deps.db, { id, now: new Date() })).toEqual({ ok: false, error: "No matching event store backup exists." });
    }
  });

  test("only the newest 30 backups are kept", async () => {
    let last;
    for (let i = 0; i < 32; i++) last = await createBackup(ctx.deps.db, { createdBy: "cron", trigger: "cron", now: new Date(Date.UTC(2026, 5, 13, 0, i)) });
    expect((await listBackups(ctx.deps.db, 100)).length).toBe(30);
    expect(last && !last.skipped && last.prunedCount).toBe(1);
    expect(last && !last.skipped && last.message).toBe("Backup created (2 rows, 1 featured entries) (pruned 1 old backups)");
  });
});
