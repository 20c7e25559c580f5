import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../helpers/app.ts";
import { findStoreMeta, readStoreSheet, saveStoreSheet, storedSheetCsv } from "../../../src/lib/store/store.ts";
import { listRevisions } from "../../../src/lib/store/revisions.ts";
import { storedTable } from "../../helpers/store.ts";
import { createEventReader } from "../../../src/lib/events/pipeline.ts";
import { parseEventSheet } from "../../../src/lib/sheet/sheet.ts";
import { patchStoreSheet } from "../../../src/lib/store/patch.ts";
import { CANONICAL_HEADERS } from "../../../src/lib/sheet/columns.ts";

const ctx = useTestApp();

const OLD_LAYOUT = [
  "Picks,Name,GB/FR,Date,Start time,End time,Location,Arr.,Genre,Price,Ticket link,Age,Indoor/Outdoor,Notes,Featured,Dress code",
  'Yes,Sunset Set,FR,2026-06-21,18:00,22:00,Quai de Valmy,10,House,Free,https://a.example,All ages,Outdoor,"Notes, with comma",yes,White',
  ",Late Club,UK,2026-06-21,23:00,05:00,Club X,11,Techno,€10,,18+,Indoor,,,Black",
].join("\n");

describe("event store", () => {
  test("saves an old-layout sheet as canonical columns + custom columns, drops Featured, persists generated keys", async () => {
    const now = new Date("2026-06-01T10:00:00Z");
    const saved = await saveStoreSheet(ctx.deps.db, OLD_LAYOUT, { updatedBy: "admin-upload", origin: "manual", trigger: "upload", now });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.rowCount).toBe(2);
    expect(saved.generatedEventKeyCount).toBe(2);
    expect(saved.keys.every((k) => /^evt_[0-9a-f]{16}$/.test(k))).toBe(true);
    const stored = await readStoreSheet(ctx.deps.db);
    expect(storedTable(stored!).headers).toEqual([...CANONICAL_HEADERS, "Dress code"]);
    expect(storedTable(stored!).headers).not.toContain("Featured");
    const keyIndex = storedTable(stored!).headers.indexOf("Event Key");
    expect(storedTable(stored!).rows.map((r) => r[keyIndex])).toEqual(saved.keys);
    expect(storedTable(stored!).rows[0][storedTable(stored!).headers.indexOf("Notes")]).toBe("Notes, with comma");
    expect(stored!.meta).toMatchObject({ rowCount: 2, updatedBy: "admin-upload", origin: "manual", revision: 1 });
    expect(stored!.meta.checksum).toMatch(/^[0-9a-f]{16}$/);
  });

  test("keys are stable: a second save of the exported CSV keeps every key and the checksum", async () => {
    const first = await readStoreSheet(ctx.deps.db);
    const csv = storedSheetCsv(first!);
    const again = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "admin-sheet-editor", origin: "manual", trigger: "publish", now: new Date("2026-06-01T11:00:00Z") });
    expect(again.ok && again.generatedEventKeyCount).toBe(0);
    const meta = await findStoreMeta(ctx.deps.db);
    expect(meta!.checksum).toBe(first!.meta.checksum);
    expect(meta!.revision).toBe(2);
  });

  test("editing a title keeps the stored key; revisions count changed rows and columns", async () => {
    const before = await readStoreSheet(ctx.deps.db);
    const rows = storedTable(before!).rows.map((r) => [...r]);
    rows[0][0] = "Sunset Set (renamed)";
    const saved = await saveStoreSheet(ctx.deps.db, { headers: storedTable(before!).headers, rows }, { updatedBy: "admin-sheet-editor", origin: "manual", trigger: "publish", actor: "jti-1", now: new Date("2026-06-01T12:00:00Z") });
    expect(saved.ok && saved.keys[0]).toBe(storedTable(before!).rows[0][19]);
    const [latest] = await listRevisions(ctx.deps.db, 1);
    expect(latest).toMatchObject({ trigger: "publish", actor: "jti-1", rowsAdded: 0, rowsDeleted: 0, rowsChanged: 1, changedColumns: ["title"] });
  });

  test("autosaves by one session within 10 minutes merge into one revision", async () => {
    const base = await readStoreSheet(ctx.deps.db);
    const countBefore = (await listRevisions(ctx.deps.db)).length;
    for (const [i, minute] of [0, 4, 9].entries()) {
      const rows = storedTable(base!).rows.map((r) => [...r]);
      rows[1][0] = `Late Club v${i}`;
      await saveStoreSheet(ctx.deps.db, { headers: storedTable(base!).headers, rows }, { updatedBy: "admin-sheet-editor", origin: "manual", trigger: "autosave", actor: "jti-2", now: new Date(Date.UTC(2026, 5, 1, 13, minute)) });
    }
    expect((await listRevisions(ctx.deps.db)).length).toBe(countBefore + 1);
    await saveStoreSheet(ctx.deps.db, { headers: storedTable(base!).headers, rows: storedTable(base!).rows }, { updatedBy: "admin-sheet-editor", origin: "manual", trigger: "autosave", actor: "jti-2", now: new Date(Date.UTC(2026, 5, 1, 13, 25)) });
    expect((await listRevisions(ctx.deps.db)).length).toBe(countBefore + 2);
  });

  test("a sheet with blocking issues changes nothing and names the rows", async () => {
    const meta = await findStoreMeta(ctx.deps.db);
    const broken = "Title,Date\nA,2026-06-21\nB,2026-06-21,extra,cells\n";
    const result = await saveStoreSheet(ctx.deps.db, broken, { updatedBy: "admin-upload", origin: "manual", trigger: "upload", now: new Date() });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe("CSV row structure mismatch in 1 row(s): 3");
    const noTitle = await saveStoreSheet(ctx.deps.db, "Name2,When\nx,y\n", { updatedBy: "admin-upload", origin: "manual", trigger: "upload", now: new Date() });
    expect(noTitle.ok).toBe(false);
    expect((await findStoreMeta(ctx.deps.db))!.checksum).toBe(meta!.checksum);
  });

  test("hostile cells are stored verbatim as text", async () => {
    const csv = 'Title,Date,Notes\n"<script>alert(1)</script>",2026-06-21,"=HYPERLINK(""http://x"")"\n"Robert\'); DROP TABLE event_store_rows;--",2026-06-21,🎶 Fête\n';
    const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "admin-upload", origin: "manual", trigger: "upload", now: new Date() });
    expect(saved.ok).toBe(true);
    const stored = await readStoreSheet(ctx.deps.db);
    expect(storedTable(stored!).rows[0][0]).toBe("<script>alert(1)</script>");
    expect(storedTable(stored!).rows[0][16]).toBe('=HYPERLINK("http://x")');
    expect(storedTable(stored!).rows[1][0]).toBe("Robert'); DROP TABLE event_store_rows;--");
    const [{ n }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_rows`);
    expect(n).toBe(2);
  });
});

describe("the store read as rows", () => {
  const CSV = [
    "Title,Date,Start Time,Location,Area,Event Key,Dress code",
    "Alpha,2026-06-21,18:00,Quai,10,evt_aaaaaaaaaaaaaaaa,White",
    ",,,,,,only a custom cell",
    "Beta,2026-06-20,,Club,11,,",
  ].join("\n");

  test("rows carry stable ids and every column's value by key; keys were written at save", async () => {
    const saved = await saveStoreSheet(ctx.deps.db, CSV, { updatedBy: "admin-upload", origin: "manual", now: new Date("2026-06-01T10:00:00Z") });
    expect(saved.ok).toBe(true);
    const stored = (await readStoreSheet(ctx.deps.db))!;
    expect(stored.columns.map((c) => c.key).slice(-1)).toEqual(["custom_dress_code"]);
    expect(stored.rows.map((r) => r.id)).toEqual(saved.ok ? saved.ids : []);
    expect(stored.rows[0].values).toMatchObject({ title: "Alpha", eventKey: "evt_aaaaaaaaaaaaaaaa", custom_dress_code: "White", notes: "" });
    // A CSV line with only custom cells is a blank line: not stored.
    expect(stored.rows.map((r) => r.values.title)).toEqual(["Alpha", "Beta"]);
    expect(stored.rows[1].values.eventKey).toMatch(/^evt_[0-9a-f]{16}$/);
    // Saving the same sheet again keeps the ids (matched by Event Key).
    const again = await saveStoreSheet(ctx.deps.db, storedSheetCsv(stored), { updatedBy: "admin-upload", origin: "manual", now: new Date("2026-06-01T11:00:00Z") });
    expect(again.ok && again.ids).toEqual(stored.rows.map((r) => r.id));
  });

  test("the live read of the store gives the same events as parsing its CSV; a blank row added in the editor carries no event and no key", async () => {
    const blankId = crypto.randomUUID();
    const added = await patchStoreSheet(ctx.deps.db, { addRows: [{ id: blankId, values: {} }] }, { updatedBy: "admin-sheet-editor", trigger: "autosave", now: new Date("2026-06-01T11:30:00Z") });
    expect(added.ok && added.assignedKeys).toEqual([]);
    const reader = createEventReader({ ...ctx.deps, config: { ...ctx.deps.config, dataMode: "remote" } });
    const live = await reader.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
    expect(live.source).toBe("store");
    const stored = (await readStoreSheet(ctx.deps.db))!;
    expect(stored.rows.at(-1)).toMatchObject({ id: blankId });
    const parsed = parseEventSheet(storedSheetCsv(stored), { now: ctx.deps.now() });
    if (!parsed.ok) throw new Error(parsed.error);
    // Publishing dates are kept by the store, not the CSV.
    const strip = (e: Record<string, unknown>) => ({ ...e, lat: undefined, lng: undefined, coordinates: undefined, coordinateSource: undefined, firstPublishedAt: undefined });
    expect(live.events.map((e) => strip(e as never))).toEqual(parsed.events.map((e) => strip(e as never)));
    expect(live.events.map((e) => e.eventName)).toEqual(["Alpha", "Beta"]);
    expect(live.keyStats).toEqual({ missingEventKeyCount: 0, generatedEventKeyCount: 0 });
  });

  test("an autosave stays a draft; a publish is seen by the very next read", async () => {
    const reader = createEventReader({ ...ctx.deps, config: { ...ctx.deps.config, dataMode: "remote" } });
    await reader.load();
    const stored = (await readStoreSheet(ctx.deps.db))!;
    const edited = await patchStoreSheet(ctx.deps.db, { cells: [{ rowId: stored.rows[0].id, key: "title", value: "Alpha renamed" }] }, { updatedBy: "admin-sheet-editor", trigger: "autosave", now: new Date("2026-06-01T12:00:00Z") });
    expect(edited.ok).toBe(true);
    expect((await reader.load()).events.map((e) => e.eventName)).not.toContain("Alpha renamed");
    const published = await patchStoreSheet(ctx.deps.db, {}, { updatedBy: "admin-sheet-editor", trigger: "publish", publish: "sheet", now: new Date("2026-06-01T12:01:00Z") });
    expect(published.ok).toBe(true);
    expect((await reader.load()).events.map((e) => e.eventName)).toContain("Alpha renamed");
  });
});
