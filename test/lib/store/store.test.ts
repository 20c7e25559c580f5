import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../helpers/app.ts";
import { findStoreMeta, readStoreSheet, saveStoreSheet, storedSheetCsv } from "../../../src/lib/store/store.ts";
import { listRevisions } from "../../../src/lib/store/revisions.ts";
import { storedTable } from "../../helpers/store.ts";
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
