import { afterAll, describe, expect, test } from "bun:test";
import { useTestApp, withTestApp } from "../../helpers/app.ts";
import { storedTable } from "../../helpers/store.ts";
import { importSpreadsheet, previewSpreadsheet } from "../../../src/lib/spreadsheet-import/import.ts";
import { findStoreMeta, readStoreSheet } from "../../../src/lib/store/store.ts";

// A loopback server speaking the public CSV export format.
let csvBody = "";
let csvStatus = 200;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => new Response(csvBody, { status: csvStatus, headers: { "content-type": "text/csv; charset=utf-8" } }),
});
const csvUrl = `http://127.0.0.1:${server.port}/export.csv`;

afterAll(() => server.stop(true));
const ctx = useTestApp({ env: { DATA_MODE: "remote", REMOTE_CSV_URL: csvUrl } });

const GOOD = [
  "Title,Date,Start Time,Location,Area,Categories",
  "Imported One,2026-06-21,20:00,Le Bar,11,House",
  "Imported Two,21/06/2026,21:00,La Scène,18,Rap",
  "Imported Three,06/07/2026,22:00,Club,3,Disco",
  "Imported Four,2026-06-22,19:00,Le Bar,11,Funk",
  "Imported Five,2026-06-20,18:00,Club,3,Pop",
].join("\n");

describe("spreadsheet preview and import", () => {
  test("preview is read-only and reports warnings, the window and the missing Event Key column", async () => {
    csvBody = GOOD;
    const preview = await previewSpreadsheet(ctx.deps, { limit: 2, offset: 0, random: false });
    if (!preview.ok) throw new Error(preview.error);
    expect(preview).toMatchObject({ source: "public-csv", totalRows: 5, canImport: true, importBlockedReason: null, blockingCount: 0, missingEventKeyColumn: true });
    expect(preview.rows.map((r) => r[0])).toEqual(["Imported One", "Imported Two"]);
    expect(preview.issues.some((i) => i.type === "ambiguous" && i.rows[0] === 4)).toBe(true);
    expect(preview.issues.filter((i) => i.type === "no_event_key_column")).toHaveLength(1);
    expect(preview.issues.some((i) => i.type === "missing_event_key")).toBe(false);
    expect(await findStoreMeta(ctx.deps.db)).toBeUndefined();
  });

  test("a blocked sheet cannot be imported and the store stays as it was", async () => {
    csvBody = "Name2,When\nx,y\nz,w\n";
    const preview = await previewSpreadsheet(ctx.deps);
    if (!preview.ok) throw new Error(preview.error);
    expect(preview.canImport).toBe(false);
    expect(preview.importBlockedReason).toBe("Missing essential CSV columns: title, date; CSV contains no non-empty data rows");
    const result = await importSpreadsheet(ctx.deps);
    expect(result).toEqual({ ok: false, error: "Import blocked: Missing essential CSV columns: title, date; CSV contains no non-empty data rows" });
    expect(await findStoreMeta(ctx.deps.db)).toBeUndefined();
  });

  test("import replaces the store, keys rows, warms coordinates and revalidates the homepage", async () => {
    csvBody = GOOD;
    const invalidations: unknown[] = [];
    const unsubscribe = ctx.deps.invalidation.subscribe((i) => {
      invalidations.push(i);
    });
    const result = await importSpreadsheet(ctx.deps, { actor: "jti-x" });
    unsubscribe();
    expect(result).toEqual({ ok: true, message: "Imported 5 rows from the spreadsheet into the managed store", rowCount: 5, strategy: "public-csv" });
    const stored = await readStoreSheet(ctx.deps.db);
    expect(stored!.meta).toMatchObject({ origin: "sheet-import", updatedBy: "sheet-import", rowCount: 5 });
    expect(storedTable(stored!).rows.every((r) => /^evt_[0-9a-f]{16}$/.test(r[19]))).toBe(true);
    expect(invalidations).toEqual([{ paths: ["/"], tags: ["live-events"] }]);
    const cache = await ctx.deps.kv.get<{ locations: Record<string, unknown> }>("maps:locations:v1");
    expect(Object.keys(cache!.locations).sort()).toEqual(["club_3", "la_scène_18", "le_bar_11"]);
  });

  test("a failing provider is reported and never falls back to the local CSV", async () => {
    csvStatus = 500;
    const result = await importSpreadsheet(ctx.deps);
    csvStatus = 200;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toStartWith("All spreadsheet strategies failed: public-csv:");
    expect((await findStoreMeta(ctx.deps.db))!.rowCount).toBe(5);
  });

  test("not configured → a clear error", async () => {
    await withTestApp({ env: { DATA_MODE: "remote" }, keepData: true }, async (bare) => {
      expect(await importSpreadsheet(bare.deps)).toEqual({ ok: false, error: "Spreadsheet source is not configured" });
    });
  });
});
