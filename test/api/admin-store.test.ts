// Admin API of the store tools: upload (with every bad file the checks know), export with formula
// neutralisation, spreadsheet preview and import from a loopback fake of the Sheets API, backups
// and restore, revalidation, recovery, jobs; 401 without a credential and 403 for a cookie caller
// from another origin on every state change.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { useTestApp, withTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin } from "../helpers/auth.ts";
import { resetDatabase } from "../helpers/database.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { findStoreMeta, readStoreSheet, saveStoreSheet } from "../../src/lib/store/store.ts";
import { listBackups } from "../../src/lib/store/backups.ts";
import { LOCATIONS_KV_KEY } from "../../src/lib/geocoding/location-cache.ts";
import { createTestServiceAccount, startFakeGoogle, type FakeGoogle } from "../lib/spreadsheet-import/fake-google.ts";
import { parseCsvRecords } from "../../src/lib/sheet/csv.ts";

let fake: FakeGoogle;
let account: Awaited<ReturnType<typeof createTestServiceAccount>>;
const SAMPLE = await Bun.file("data/events.csv").text();
const sampleValues = parseCsvRecords(SAMPLE);
const keyColumn = sampleValues[0].indexOf("Event Key");
const withoutKeyColumn = sampleValues.map((r) => r.filter((_, i) => i !== keyColumn));
// Cells the sheet editor flags: a start time that is no clock time and a country that is none.
const RULES_CSV = [
  "Title,Date,Start Time,Location,Area,Host Country,Event Key",
  "Late Gig,2026-06-21,late,Le Bar,11,Narnia,evt_rules00000000001",
  "Early Gig,2026-06-21,18:00,Le Bar,11,France,evt_rules00000000002",
].join("\n");

beforeAll(async () => {
  account = await createTestServiceAccount();
  fake = startFakeGoogle([account], {
    "sheet-events": { values: sampleValues },
    "sheet-duplicate": { values: [["Title", "Date", "Title"], ["A", "2026-06-21", "B"]] },
    "sheet-rules": { values: parseCsvRecords(RULES_CSV) },
    "sheet-no-key-column": { values: withoutKeyColumn },
    "sheet-formula": { values: [["Title", "Date", "Notes"], ["A", "2026-06-21", "=HYPERLINK(\"x\")"]] },
  });
});
afterAll(() => fake.stop());
const ctx = useTestApp(() => ({ env: { SHEET_ID: "sheet-events", ...ctxEnv() } }));
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = ADMIN_KEY_HEADER;
const JSON_KEY = { ...KEY, "content-type": "application/json" };
const seed = () => saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
const revision = async () => (await findStoreMeta(ctx.deps.db))?.revision ?? 0;
const upload = (body: string, query = "") => ctx.request(`/api/admin/sheet/upload${query}`, { method: "POST", headers: { ...KEY, "content-type": "text/csv" }, body });

const WRITES: [string, string, string?][] = [
  ["POST", "/api/admin/sheet/upload", FIXTURE_SHEET_CSV],
  ["POST", "/api/admin/sheet/import/preview"],
  ["POST", "/api/admin/sheet/import"],
  ["POST", "/api/admin/backups"],
  ["POST", "/api/admin/backups/restore", "{}"],
  ["POST", "/api/admin/revalidate"],
  ["POST", "/api/admin/recovery/rebuild-coordinates"],
  ["POST", "/api/admin/recovery/reset-coordinates"],
  ["POST", "/api/admin/recovery/load-local-csv"],
  ["POST", "/api/admin/recovery/clear-store", '{"confirm":"CLEAR STORE"}'],
];
const READS = ["/api/admin/sheet/export", "/api/admin/backups", "/api/admin/jobs/00000000-0000-4000-8000-000000000000"];

describe("guard", () => {
  test("401 without a credential on every endpoint, nothing written", async () => {
    await seed();
    const before = await revision();
    for (const [method, path, body] of WRITES) {
      const res = await ctx.request(path, { method, body, headers: { "content-type": "application/json" } });
      expect([path, res.status]).toEqual([path, 401]);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(await res.json()).toEqual({ success: false, error: "Unauthorized" });
    }
    for (const path of READS) expect([path, (await ctx.request(path)).status]).toEqual([path, 401]);
    expect(await revision()).toBe(before);
    expect(await listBackups(ctx.deps.db)).toHaveLength(0);
  });

  test("403 for a cookie session without the site's origin on every state change; 200 with it", async () => {
    await seed();
    const { token } = await loginAsAdmin(ctx);
    const before = await revision();
    for (const [method, path, body] of WRITES) {
      for (const origin of [undefined, "http://evil.example"]) {
        const headers: Record<string, string> = { cookie: `finder_admin_session=${token}`, "content-type": "application/json" };
        if (origin) headers.origin = origin;
        const res = await ctx.request(path, { method, body, headers });
        expect([path, origin, res.status]).toEqual([path, origin, 403]);
      }
    }
    expect(await revision()).toBe(before);
    expect(await listBackups(ctx.deps.db)).toHaveLength(0);
    const ok = await ctx.request("/api/admin/backups", { method: "POST", headers: { cookie: `finder_admin_session=${token}`, origin: "http://finder.test" } });
    expect(ok.status).toBe(201);
  });
});

describe("POST /api/admin/sheet/upload", () => {
  test("dry run reports and writes nothing; the real upload replaces the store after a pre-restore snapshot", async () => {
    await seed();
    const before = await revision();
    const dry = await upload(SAMPLE, "?dryRun=1");
    expect(dry.status).toBe(200);
    const dryBody = await dry.json();
    expect(dryBody).toMatchObject({ success: true, dryRun: true, report: { errors: [], rowCount: 81 } });
    expect(await revision()).toBe(before);

    const res = await upload(SAMPLE);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.meta).toMatchObject({ rowCount: 81, revision: before + 1, updatedBy: "admin-upload", origin: "manual" });
    expect((await readStoreSheet(ctx.deps.db))?.rows).toHaveLength(81);
    const backups = await listBackups(ctx.deps.db);
    expect(backups.map((b) => [b.trigger, b.rowCount])).toEqual([["pre-restore", 12]]);
  });

  const header = "Title,Date,Location,Area";
  const BAD: [string, string, string][] = [
    ["formula cells", `${header}\n"=HYPERLINK(""http://x"")",2026-06-21,Bar,11\nOk,2026-06-21,@SUM(A1),11\n`, "formula_cells"],
    ["minus formula", `${header}\nGig,2026-06-21,-cmd|' /C calc'!A0,11\n`, "formula_cells"],
    ["duplicate headers", "Title,Date,Title\nA,2026-06-21,B\n", "duplicate_columns"],
    ["an empty file", "", "empty"],
    ["only a BOM and blank lines", "\ufeff\r\n\r\n", "empty"],
    ["a wrong delimiter", "Title;Date;Location\nGig;2026-06-21;Bar\n", "wrong_delimiter"],
    ["header only", `${header}\n`, "no_rows"],
    ["ragged rows", `${header}\nGig,2026-06-21,Bar,11,extra,cells\n`, "structure_mismatch"],
  ];
  for (const [name, csv, type] of BAD) {
    test(`${name}: 400 with a report naming the problem, nothing written`, async () => {
      await seed();
      const before = await revision();
      for (const query of ["", "?dryRun=1"]) {
        const res = await upload(csv, query);
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.success).toBe(false);
        expect(body.error).toContain("not written");
        expect(body.report.errors.map((e: { type: string }) => e.type)).toContain(type);
        for (const e of body.report.errors) expect(e.message.length).toBeGreaterThan(10);
      }
      expect(await revision()).toBe(before);
      expect(await listBackups(ctx.deps.db)).toHaveLength(0);
    });
  }

  test("the sheet rules' row warnings are in the report before anything is written (the ones the editor shows in place)", async () => {
    // Eight clean rows keep the sheet above the 80 % rule, so the two doubtful ones only warn.
    const clean = Array.from({ length: 8 }, (_, i) => `Clean ${i},2026-06-21,20:00,Bar,11,evt_clean0000000${i}`).join("\n");
    const csv = `Title,Date,Start Time,Location,Area,Event Key\nGig,06/07/2026,20h30,Bar,11,evt_aaaaaaaaaaaaaaaa\nOther,2026-02-31,21:00,Bar,11,\n${clean}\n`;
    const res = await upload(csv, "?dryRun=1");
    expect(res.status).toBe(200);
    const { report } = await res.json();
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([
      { type: "ambiguous", message: 'Row 2: Date "06/07/2026" is ambiguous (day-first or month-first)', rows: [2] },
      { type: "invalid", message: 'Row 3: Date "2026-02-31" is not a real calendar date', rows: [3] },
      { type: "missing_event_key", message: expect.stringMatching(/^Row 3: Event Key is missing; generated evt_/), rows: [3] },
    ]);
  });

  test("plain text that merely starts with + or - is not a formula", async () => {
    const res = await upload("Title,Date,Notes\n-20% Night,2026-06-21,+33 1 23 45 67 89\n", "?dryRun=1");
    expect(res.status).toBe(200);
  });

  test("5 MB of rows: 413 when declared, a too_large report when streamed; nothing written", async () => {
    await seed();
    const before = await revision();
    const row = "Gig,2026-06-21,Somewhere in Paris,11\n";
    const big = `Title,Date,Location,Area\n${row.repeat(Math.ceil((5 * 1024 * 1024) / row.length))}`;
    const declared = await ctx.request("/api/admin/sheet/upload", { method: "POST", headers: { ...KEY, "content-type": "text/csv", "content-length": String(big.length) }, body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toBe("Request body too large");
    const streamed = await upload(big);
    expect(streamed.status).toBe(400);
    const { report } = await streamed.json();
    expect(report.errors).toEqual([{ type: "too_large", message: "The file is 5.0 MB; the largest accepted upload is 1.0 MB. Split it or remove unused columns.", rows: [] }]);
    expect(await revision()).toBe(before);
  });

  test("a BOM and Windows line endings are read correctly and reported as warnings", async () => {
    const csv = "\ufeff" + FIXTURE_SHEET_CSV.replace(/\n/g, "\r\n");
    const res = await upload(csv, "?dryRun=1");
    expect(res.status).toBe(200);
    const { report } = await res.json();
    expect(report.errors).toEqual([]);
    expect(report.warnings.map((w: { type: string }) => w.type).slice(0, 2)).toEqual(["bom", "crlf"]);
    expect(report.rowCount).toBe(12);
    const written = await upload(csv);
    expect(written.status).toBe(200);
    expect((await readStoreSheet(ctx.deps.db))?.columns[0].label).toBe("Title");
  });
});

describe("GET /api/admin/sheet/export", () => {
  test("a CSV attachment whose formula-like cells are neutralised", async () => {
    const csv = `Title,Date,Location,Area,Notes\n=1+1,2026-06-21,+Bar,11,@me\n-Minus,2026-06-21,Place,11,"\ttab"\nPlain,2026-06-21,Club,11,fine\n`;
    const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "system", origin: "manual", now: ctx.deps.now() });
    expect(saved.ok).toBe(true);
    const res = await ctx.request("/api/admin/sheet/export", { headers: KEY });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="finder-events-2026-06-18.csv"');
    expect(res.headers.get("cache-control")).toContain("no-store");
    const parsed = Papa.parse<Record<string, string>>(await res.text(), { header: true, skipEmptyLines: true });
    expect(parsed.data.map((r) => r.Title)).toEqual(["'=1+1", "'-Minus", "Plain"]);
    expect(parsed.data[0].Location).toBe("'+Bar");
    expect(parsed.data[0].Notes).toBe("'@me");
    for (const row of parsed.data) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  test("404 when the store was never written", async () => {
    const res = await ctx.request("/api/admin/sheet/export", { headers: KEY });
    expect(res.status).toBe(404);
  });
});

describe("spreadsheet preview and import (loopback Sheets API)", () => {
  test("preview reads and writes nothing; import replaces the store", async () => {
    await seed();
    const before = await revision();
    const preview = await ctx.request("/api/admin/sheet/import/preview", { method: "POST", headers: KEY });
    expect(preview.status).toBe(200);
    const p = await preview.json();
    expect(p).toMatchObject({ success: true, rowCount: 81, source: "service-account", canImport: true, report: { errors: [] } });
    expect(p.rows).toHaveLength(5);
    expect(await revision()).toBe(before);

    const res = await ctx.request("/api/admin/sheet/import", { method: "POST", headers: KEY });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, rowCount: 81, source: "service-account", meta: { updatedBy: "sheet-import", origin: "sheet-import" } });
    expect((await listBackups(ctx.deps.db))[0].trigger).toBe("pre-restore");
  });

  test("a sheet with blocking issues: the preview says so and the import answers 400 with the report", async () => {
    await withTestApp({ keepData: true, env: { ...ctxEnv(), SHEET_ID: "sheet-duplicate" } }, async (other) => {
      await seed();
      const before = await revision();
      const preview = await (await other.request("/api/admin/sheet/import/preview", { method: "POST", headers: KEY })).json();
      expect(preview.canImport).toBe(false);
      expect(preview.report.errors.map((e: { type: string }) => e.type)).toContain("duplicate_columns");
      const res = await other.request("/api/admin/sheet/import", { method: "POST", headers: KEY });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toStartWith("Import blocked");
      expect(body.report.errors.length).toBeGreaterThan(0);
      expect(await revision()).toBe(before);
    });
  });
});

describe("import preview: the domain's fields, the editor's row rules, the window", () => {
  const preview = (app: typeof ctx, query = "") => app.request(`/api/admin/sheet/import/preview${query}`, { method: "POST", headers: KEY });
  const dataRows = sampleValues.slice(1).filter((r) => r.some((c) => c !== ""));

  test("a file without keys gets one warning line, not one per row, and the counts add up", async () => {
    // The sample sheet has an Event Key column with no key in it: 81 rows without a key.
    const res = await preview(ctx);
    expect(res.status).toBe(200);
    const p = await res.json();
    expect(p).toMatchObject({
      success: true,
      totalRows: 81,
      rowCount: 81,
      fetchedAt: "2026-06-18T10:00:00.000Z",
      canImport: true,
      importBlockedReason: null,
      blockingCount: 0,
      missingEventKeyColumn: false,
      missingEventKeys: true,
      limit: 5,
      offset: 0,
    });
    const keyLines = p.issues.filter((i: { message: string }) => i.message.includes("Event Key"));
    expect(keyLines).toEqual([{ type: "no_event_keys", message: expect.stringMatching(/^No row of the file has an Event Key: .*breaks the shared links/), rows: [], blocking: false }]);
    expect(p.issues.length).toBeLessThanOrEqual(50);
    expect(p.warningCount).toBe(p.issues.filter((i: { blocking: boolean }) => !i.blocking).length);
    expect(p.warningCount).toBe(p.report.warnings.length);

    // The upload check of the same file says it the same way.
    const checked = await (await upload(SAMPLE, "?dryRun=1")).json();
    expect(checked.report.warnings.filter((w: { message: string }) => w.message.includes("Event Key"))).toEqual([keyLines[0]].map(({ blocking: _, ...w }) => w));
    expect(checked.report).toMatchObject({ missingEventKeys: true, blockingCount: 0, warningCount: p.warningCount });

    // Without the column at all, the line says so.
    await withTestApp({ keepData: true, env: { ...ctxEnv(), SHEET_ID: "sheet-no-key-column" } }, async (other) => {
      const bare = await (await preview(other)).json();
      expect(bare).toMatchObject({ totalRows: 81, missingEventKeyColumn: true, missingEventKeys: true, warningCount: p.warningCount, blockingCount: 0 });
      expect(bare.issues.filter((i: { message: string }) => i.message.includes("Event Key"))).toEqual([
        { type: "no_event_key_column", message: expect.stringMatching(/^The file has no Event Key column: .*breaks the shared links/), rows: [], blocking: false },
      ]);
    });
  });

  test('"late" as a time and "Narnia" as a country: the upload check and the preview flag them with the editor\'s words', async () => {
    await withTestApp({ keepData: true, env: { ...ctxEnv(), SHEET_ID: "sheet-rules" } }, async (other) => {
      const send = (body: string, query: string) => other.request(`/api/admin/sheet/upload${query}`, { method: "POST", headers: { ...KEY, "content-type": "text/csv" }, body });
      const checked = await send(RULES_CSV, "?dryRun=1");
      expect(checked.status).toBe(200);
      const checkedWarnings = (await checked.json()).report.warnings.map((w: { message: string }) => w.message);

      const p = await (await preview(other)).json();
      expect(p).toMatchObject({ success: true, totalRows: 2, canImport: true, blockingCount: 0, warningCount: 2, missingEventKeyColumn: false });
      const previewWarnings = p.issues.map((i: { message: string }) => i.message);

      // The editor's warnings for the same rows, once they are in the store.
      expect((await send(RULES_CSV, "")).status).toBe(200);
      const editor = (await (await other.request("/api/admin/sheet/warnings", { headers: KEY })).json()).warnings as { position: number; key: string; message: string }[];
      expect(editor.map((w) => [w.position, w.key])).toEqual([
        [1, "startTime"],
        [1, "hostCountry"],
      ]);
      expect(editor[0].message).toContain('"late"');
      expect(editor[1].message).toContain('"Narnia"');
      // The editor counts data rows from 1, the spreadsheet from its header: row 2.
      const expected = editor.map((w) => `Row ${w.position + 1}: ${w.message}`);
      expect(checkedWarnings).toEqual(expected);
      expect(previewWarnings).toEqual(expected);
    });
  });

  test("the window: limit 1–50 (default 5), offset or random=1; bad values answer 400", async () => {
    const window = async (query: string) => {
      const res = await preview(ctx, query);
      expect(res.status).toBe(200);
      return res.json();
    };
    const two = await window("?limit=2&offset=3");
    expect(two).toMatchObject({ limit: 2, offset: 3, random: false, totalRows: 81 });
    expect(two.rows).toEqual(dataRows.slice(3, 5));
    expect((await window("?limit=50")).rows).toEqual(dataRows.slice(0, 50));
    expect((await window("?offset=79")).rows).toEqual(dataRows.slice(79, 81));
    expect((await window("?offset=500")).rows).toEqual([]);
    const random = await window("?random=1&limit=10");
    expect(random.random).toBe(true);
    expect(random.offset).toBeGreaterThanOrEqual(0);
    expect(random.offset).toBeLessThanOrEqual(71);
    expect(random.rows).toEqual(dataRows.slice(random.offset, random.offset + 10));

    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=51", "limit"],
      ["?limit=abc", "limit"],
      ["?limit=2.5", "limit"],
      ["?offset=-1", "offset"],
      ["?random=maybe", "random"],
      ["?random=1&offset=2", "offset"],
    ]) {
      const res = await preview(ctx, query);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.success).toBe(false);
      expect(body.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
  });

  test("the console's preview shows the counts and warnings, and keeps Import disabled while something blocks", async () => {
    const card = async (sheet: string) =>
      withTestApp({ keepData: true, env: { ...ctxEnv(), SHEET_ID: sheet } }, async (other) => {
        const res = await other.request("/admin/operations/store/import/preview", { method: "POST", headers: { ...KEY, "hx-request": "true" } });
        expect(res.status).toBe(200);
        return res.text();
      });
    const rules = await card("sheet-rules");
    expect(rules).toContain("2 rows from the spreadsheet (service-account).");
    expect(rules).toContain("0 blocking problems, 2 warnings.");
    expect(rules).toContain("Row 2: &quot;late&quot; is not a recognised time; shown as written");
    expect(rules).toContain("Row 2: &quot;Narnia&quot; names no supported country (UK, FR, CA, NL); ignored");
    expect(rules).toMatch(/<button type="submit" class="button button-danger">\s*Import Spreadsheet/);
    const blocked = await card("sheet-formula");
    expect(blocked).toContain("1 blocking problem, 1 warning.");
    expect(blocked).toMatch(/<button type="submit" class="button button-danger" disabled title="Fix the blocking issues of the preview first: 1 row\(s\) hold cells that look like spreadsheet formulas[^"]*">\s*Import Spreadsheet/);
  });

  test("blocking issues: the preview says why, and the import is refused with 400 and changes nothing", async () => {
    await withTestApp({ keepData: true, env: { ...ctxEnv(), SHEET_ID: "sheet-formula" } }, async (other) => {
      await seed();
      const before = { revision: await revision(), backups: (await listBackups(ctx.deps.db)).length, rows: (await readStoreSheet(ctx.deps.db))!.rows };
      const p = await (await preview(other)).json();
      expect(p).toMatchObject({ success: true, canImport: false, blockingCount: 1, totalRows: 1 });
      expect(p.issues[0]).toMatchObject({ type: "formula_cells", blocking: true });
      expect(p.importBlockedReason).toBe(p.issues[0].message);

      const res = await other.request("/api/admin/sheet/import", { method: "POST", headers: KEY });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toBe(`Import blocked: ${p.importBlockedReason}`);
      expect(await revision()).toBe(before.revision);
      expect(await listBackups(ctx.deps.db)).toHaveLength(before.backups);
      expect((await readStoreSheet(ctx.deps.db))!.rows).toEqual(before.rows);
    });
  });
});

/** The environment that points an app at the fake Sheets API with the test service account. */
function ctxEnv(): Record<string, string> {
  return { SHEET_SERVICE_ACCOUNT_KEY: account.json, SHEETS_TOKEN_URL: fake.tokenUrl, SHEETS_API_URL: fake.apiUrl };
}

describe("backups", () => {
  test("create (201), list, restore by id (store back), restore latest, unknown id 404, bad id 400", async () => {
    const empty = await ctx.request("/api/admin/backups", { method: "POST", headers: KEY });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toMatchObject({ success: true, skipped: true, message: "Managed store and featured schedule are both empty; nothing to back up." });

    await seed();
    const created = await ctx.request("/api/admin/backups", { method: "POST", headers: KEY });
    expect(created.status).toBe(201);
    const { backup, message, prunedCount } = await created.json();
    expect(message).toBe("Backup created (12 rows, 0 featured entries)");
    expect(prunedCount).toBe(0);

    const list = await (await ctx.request("/api/admin/backups", { headers: KEY })).json();
    expect(list.backups.map((b: { id: string }) => b.id)).toEqual([backup.id]);

    await ctx.request("/api/admin/recovery/clear-store", { method: "POST", headers: JSON_KEY, body: '{"confirm":"CLEAR STORE"}' });
    expect((await findStoreMeta(ctx.deps.db))?.rowCount).toBe(0);

    const restored = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: JSON_KEY, body: JSON.stringify({ id: backup.id }) });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ success: true, message: "Snapshot restored and homepage revalidated", backupId: backup.id, meta: { rowCount: 12 } });
    expect((await readStoreSheet(ctx.deps.db))?.rows).toHaveLength(12);

    const latest = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: KEY });
    expect(latest.status).toBe(200);

    const unknown = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: JSON_KEY, body: JSON.stringify({ id: "00000000-0000-4000-8000-000000000000" }) });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("No matching event store backup exists.");

    const bad = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: JSON_KEY, body: JSON.stringify({ id: 7 }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues).toEqual([{ field: "id", message: "The backup id must be a string" }]);

    const notJson = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: JSON_KEY, body: "{nope" });
    expect(notJson.status).toBe(400);
  });

  test("restore without any backup: 404 with the domain text", async () => {
    const res = await ctx.request("/api/admin/backups/restore", { method: "POST", headers: KEY });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: "No matching event store backup exists." });
  });
});

describe("revalidate and recovery", () => {
  test("revalidate answers durationMs and the message", async () => {
    const res = await ctx.request("/api/admin/revalidate", { method: "POST", headers: KEY });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(typeof body.durationMs).toBe("number");
    expect(body.message).toBe(`Revalidated in ${body.durationMs} ms`);
  });

  test("clear-store needs the typed confirmation; it snapshots first", async () => {
    await seed();
    for (const body of [undefined, "{}", '{"confirm":"clear store"}']) {
      const res = await ctx.request("/api/admin/recovery/clear-store", { method: "POST", headers: JSON_KEY, body });
      expect(res.status).toBe(400);
      expect((await res.json()).issues).toEqual([{ field: "confirm", message: "Type CLEAR STORE to confirm" }]);
    }
    expect((await findStoreMeta(ctx.deps.db))?.rowCount).toBe(12);
    const res = await ctx.request("/api/admin/recovery/clear-store", { method: "POST", headers: JSON_KEY, body: '{"confirm":"CLEAR STORE"}' });
    expect(res.status).toBe(200);
    expect((await res.json()).meta.rowCount).toBe(0);
    expect((await listBackups(ctx.deps.db)).map((b) => [b.trigger, b.rowCount])).toEqual([["pre-restore", 12]]);
  });

  test("load-local-csv loads the sample sheet; reset and rebuild coordinates", async () => {
    await seed();
    const loaded = await ctx.request("/api/admin/recovery/load-local-csv", { method: "POST", headers: KEY });
    expect(loaded.status).toBe(200);
    expect(await loaded.json()).toMatchObject({ success: true, rowCount: 81, meta: { origin: "local-file-import" } });
    expect((await listBackups(ctx.deps.db))[0].trigger).toBe("pre-restore");

    await ctx.deps.kv.set(LOCATIONS_KV_KEY, { version: "1.0.0", lastUpdated: "x", locations: {} });
    const reset = await ctx.request("/api/admin/recovery/reset-coordinates", { method: "POST", headers: KEY });
    expect(await reset.json()).toEqual({ success: true, message: "Coordinate cache reset", deleted: true });
    expect(await ctx.deps.kv.get(LOCATIONS_KV_KEY)).toBeUndefined();

    const rebuilt = await ctx.request("/api/admin/recovery/rebuild-coordinates", { method: "POST", headers: KEY });
    expect(rebuilt.status).toBe(200);
    const body = await rebuilt.json();
    expect(body.message).toStartWith("Coordinates rebuilt for");
    expect(body.counts.arrondissementFallback).toBeGreaterThan(0);

    expect((await ctx.request("/api/admin/recovery/nothing", { method: "POST", headers: KEY })).status).toBe(404);
  });

  test("jobs: unknown or malformed ids are 404", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      const res = await ctx.request(`/api/admin/jobs/${id}`, { headers: KEY });
      expect(res.status).toBe(404);
    }
  });
});
