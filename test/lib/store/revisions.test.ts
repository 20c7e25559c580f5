// Revisions of partial writes keep only their step; any kept revision is rebuilt exactly (its
// snapshot plus the steps after it), through merges, unrecorded writes, long chains and pruning.
// Partial writes never change the key of a row they do not touch.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../helpers/app.ts";
import { clearStore, readStoreSheet, saveStoreSheet, type StoredSheet } from "../../../src/lib/store/store.ts";
import { listRevisions, readRevisionSheet, revisionRecords, type RevisionSheet } from "../../../src/lib/store/revisions.ts";
import { patchStoreSheet, type StorePatch } from "../../../src/lib/store/patch.ts";
import { eventStoreRevisions } from "../../../src/lib/db/schema/index.ts";
import { storedTable } from "../../helpers/store.ts";

const ctx = useTestApp();

const SHEET = [
  "Title,Date,Start Time,Location,Area,Event Key",
  "Sunset Set,2026-06-21,18:00,Quai de Valmy,10,evt_aaaaaaaaaaaaaaaa",
  "Late Club,2026-06-21,23:00,Club X,11,evt_bbbbbbbbbbbbbbbb",
  "Morning Choir,2026-06-21,09:00,Parvis,4,evt_cccccccccccccccc",
].join("\n");

let clock = Date.UTC(2026, 5, 1, 12);
const now = (minutes = 1) => new Date((clock += minutes * 60_000));

beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups, event_store_published`);
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "system", origin: "manual", trigger: "upload", now: now() });
  if (!saved.ok) throw new Error(saved.error);
});

async function autosave(patch: Omit<StorePatch, "baseRevision">, actor = "jti-1", minutes = 1) {
  const result = await patchStoreSheet(ctx.deps.db, patch, { updatedBy: "admin-sheet-editor", trigger: "autosave", actor, now: now(minutes) });
  if (!result.ok) throw new Error(result.error);
  return result;
}

const current = async () => (await readStoreSheet(ctx.deps.db))!;
/** A sheet as comparable rows: ids and non-empty cells, in order. */
const shape = (sheet: Pick<StoredSheet, "rows"> | RevisionSheet) => sheet.rows.map((r) => ({ id: r.id, values: Object.fromEntries(Object.entries(r.values).filter(([, v]) => v !== "")) }));
const rebuilt = async (id: string) => {
  const sheet = await readRevisionSheet(ctx.deps.db, id);
  if (!sheet || sheet === "unavailable") throw new Error(`revision ${id}: ${sheet}`);
  return sheet;
};
const stored = () => ctx.deps.db.select().from(eventStoreRevisions);

describe("revisions of partial writes", () => {
  test("a one-cell autosave records its step, not the sheet; the revision rebuilds the sheet exactly", async () => {
    const sheet = await current();
    await autosave({ cells: [{ rowId: sheet.rows[1].id, key: "location", value: " Club Y " }] });
    const [latest] = await listRevisions(ctx.deps.db, 1);
    const [row] = (await stored()).filter((r) => r.id === latest.id);
    expect(row.sheet).toBeNull();
    expect(row.csv).toBeNull();
    expect(row.changes).toEqual([{ cells: [[sheet.rows[1].id, "location", "Club Y"]] }]);
    expect(latest).toMatchObject({ trigger: "autosave", rowsChanged: 1, changedColumns: ["location"], rowCount: 3 });
    expect(shape(await rebuilt(latest.id))).toEqual(shape(await current()));
    // The checksum is left for the next full write; meta still counts the rows.
    const meta = (await current()).meta;
    expect(meta).toMatchObject({ checksum: "", rowCount: 3 });
  });

  test("every kept revision rebuilds the state it left: merged autosaves, added and deleted rows and columns, other sessions, publishes", async () => {
    const states = new Map<string, ReturnType<typeof shape>>();
    const remember = async () => {
      const [latest] = await listRevisions(ctx.deps.db, 1);
      states.set(latest.id, shape(await current()));
    };
    const sheet = await current();
    await remember();
    await autosave({ cells: [{ rowId: sheet.rows[0].id, key: "title", value: "Sunset Set Live" }] });
    const added = crypto.randomUUID();
    await autosave({ addRows: [{ id: added, values: { title: "Brand new", date: "2026-06-21" } }], addColumns: [{ key: "custom_dress", label: "Dress" }] });
    await autosave({ cells: [{ rowId: added, key: "custom_dress", value: "White" }], deleteRowIds: [sheet.rows[2].id] });
    await remember(); // one merged autosave revision for all three
    await autosave({ cells: [{ rowId: sheet.rows[1].id, key: "notes", value: "Other admin" }] }, "jti-2");
    await remember();
    const publish = await patchStoreSheet(ctx.deps.db, { cells: [{ rowId: sheet.rows[1].id, key: "area", value: "12" }] }, { updatedBy: "admin-sheet-editor", trigger: "publish", actor: "jti-1", now: now(), gate: () => ({ ok: true }) as never });
    expect(publish.ok).toBe(true);
    await remember();
    await autosave({ cells: [{ rowId: added, key: "location", value: "Canal" }] });
    await remember();
    await autosave({ cells: [{ rowId: added, key: "location", value: "Bridge" }] }, "jti-1", 11);
    await remember();

    const revisions = await listRevisions(ctx.deps.db);
    expect(revisions.map((r) => r.trigger)).toEqual(["autosave", "autosave", "publish", "autosave", "autosave", "upload"]);
    expect(revisions[4]).toMatchObject({ rowsAdded: 1, rowsDeleted: 1, rowsChanged: 2, changedColumns: ["custom_dress", "title"] });
    for (const [id, state] of states) expect(shape(await rebuilt(id))).toEqual(state);
    // Only the upload and the publish hold the whole sheet.
    expect((await stored()).filter((r) => r.sheet !== null).length).toBe(2);
    // The new row got its key once, at its first save, and the publish kept it.
    expect((await current()).rows.find((r) => r.id === added)!.values.eventKey).toMatch(/^evt_[0-9a-f]{16}$/);
  });

  test("after a write no revision recorded (a cleared store) the next autosave keeps a snapshot, so the chain never skips a write", async () => {
    await clearStore(ctx.deps.db, { updatedBy: "admin-sheet-editor", now: now() });
    const row = crypto.randomUUID();
    await autosave({ addRows: [{ id: row, values: { title: "Only one", date: "2026-06-22" } }] });
    const [latest] = await listRevisions(ctx.deps.db, 1);
    expect((await stored()).find((r) => r.id === latest.id)!.sheet).not.toBeNull();
    expect(shape(await rebuilt(latest.id))).toEqual(shape(await current()));
  });

  test("a long chain takes a snapshot; pruning keeps the newest 100 and the revisions they are rebuilt from", async () => {
    const sheet = await current();
    for (let i = 0; i < 130; i++) await autosave({ cells: [{ rowId: sheet.rows[i % 3].id, key: "notes", value: `Edit ${i}` }] }, `jti-${i}`);
    const all = await stored();
    const revisions = await listRevisions(ctx.deps.db, 200);
    expect(revisions.length).toBeGreaterThanOrEqual(100);
    expect(revisions.length).toBeLessThan(100 + 21);
    // Snapshots every 20 revisions at most.
    expect(all.filter((r) => r.sheet !== null).length).toBeGreaterThanOrEqual(6);
    const oldest = revisions[revisions.length - 1];
    expect(all.find((r) => r.id === oldest.id)!.sheet).not.toBeNull();
    const newest = await rebuilt(revisions[0].id);
    expect(shape(newest)).toEqual(shape(await current()));
    expect((await rebuilt(revisions[99].id)).rows.some((r) => r.values.notes?.startsWith("Edit "))).toBe(true);
  });

  test("restoring an autosave revision brings back that state; rows still stored keep their ids, a row deleted since comes back under a new one", async () => {
    const sheet = await current();
    await autosave({ cells: [{ rowId: sheet.rows[0].id, key: "location", value: "Canal" }] });
    const [target] = await listRevisions(ctx.deps.db, 1);
    const expected = shape(await current());
    await autosave({ cells: [{ rowId: sheet.rows[0].id, key: "location", value: "Bridge" }], deleteRowIds: [sheet.rows[1].id] }, "jti-2");
    const saved = await saveStoreSheet(ctx.deps.db, revisionRecords(await rebuilt(target.id)), { updatedBy: "restore", origin: "restore", trigger: "restore", actor: "jti-1", now: now() });
    expect(saved.ok).toBe(true);
    const after = shape(await current());
    expect(after.map((r) => r.values)).toEqual(expected.map((r) => r.values));
    expect(after[0].id).toBe(sheet.rows[0].id);
    expect(after[2].id).toBe(sheet.rows[2].id);
    expect(after[1].id).not.toBe(sheet.rows[1].id);
  });

  test("a whole-sheet autosave (the JSON API's PUT) merging into an autosave group rebases it on a snapshot; later steps build on it", async () => {
    const sheet = await current();
    await autosave({ cells: [{ rowId: sheet.rows[0].id, key: "notes", value: "step" }] });
    const [group] = await listRevisions(ctx.deps.db, 1);
    const table = storedTable(await current());
    const rows = table.rows.map((r) => [...r]);
    rows[1][table.headers.indexOf("Location")] = "Club Whole";
    const saved = await saveStoreSheet(ctx.deps.db, { headers: table.headers, rows, ids: sheet.rows.map((r) => r.id) }, { updatedBy: "admin-sheet-editor", origin: "manual", trigger: "autosave", actor: "jti-1", now: now() });
    expect(saved.ok).toBe(true);
    await autosave({ cells: [{ rowId: sheet.rows[2].id, key: "notes", value: "after" }] });
    const revisions = await listRevisions(ctx.deps.db);
    expect(revisions[0].id).toBe(group.id);
    expect(revisions).toHaveLength(2);
    const row = (await stored()).find((r) => r.id === group.id)!;
    expect(row.sheet).not.toBeNull();
    expect(row.changes).toHaveLength(1);
    expect(shape(await rebuilt(group.id))).toEqual(shape(await current()));
    expect((await current()).rows[1].values.location).toBe("Club Whole");
  });

  test("unknown ids: undefined; a revision whose base was deleted by hand: unavailable", async () => {
    expect(await readRevisionSheet(ctx.deps.db, crypto.randomUUID())).toBeUndefined();
    expect(await readRevisionSheet(ctx.deps.db, "nope")).toBeUndefined();
    const sheet = await current();
    await autosave({ cells: [{ rowId: sheet.rows[0].id, key: "notes", value: "x" }] });
    await ctx.deps.database.query(sql`delete from event_store_revisions where trigger = 'upload'`);
    const [latest] = await listRevisions(ctx.deps.db, 1);
    expect(await readRevisionSheet(ctx.deps.db, latest.id)).toBe("unavailable");
  });
});

describe("keys in partial writes", () => {
  test("an added row proposing a key another row holds gets a generated one; untouched rows never change key", async () => {
    const before = await current();
    const result = await autosave({ addRows: [{ values: { title: "Copy", date: "2026-06-21", eventKey: "evt_bbbbbbbbbbbbbbbb" } }, { values: { title: "Own key", date: "2026-06-21", eventKey: "evt_dddddddddddddddd" } }] });
    const keys = result.assignedKeys.map((k) => k.eventKey);
    expect(keys[0]).toMatch(/^evt_[0-9a-f]{16}$/);
    expect(keys[0]).not.toBe("evt_bbbbbbbbbbbbbbbb");
    const after = await current();
    expect(after.rows.slice(0, 3).map((r) => r.values.eventKey)).toEqual(before.rows.map((r) => r.values.eventKey));
    expect(after.rows[4].values.eventKey).toBe("evt_dddddddddddddddd");
    expect(new Set(after.rows.map((r) => r.values.eventKey)).size).toBe(5);
  });

  test("a blank row gets its key when it first has content, salted past every key in the sheet", async () => {
    const blank = crypto.randomUUID();
    await autosave({ addRows: [{ id: blank, values: {} }] });
    expect((await current()).rows.find((r) => r.id === blank)!.values.eventKey).toBe("");
    // Same fingerprint as Late Club: the generated key must differ from every stored key.
    await autosave({ cells: ["Late Club", "2026-06-21", "23:00", "Club X", "11"].map((value, i) => ({ rowId: blank, key: ["title", "date", "startTime", "location", "area"][i], value })) });
    const rows = (await current()).rows;
    const key = rows.find((r) => r.id === blank)!.values.eventKey;
    expect(key).toMatch(/^evt_[0-9a-f]{16}$/);
    expect(rows.filter((r) => r.values.eventKey === key)).toHaveLength(1);
  });
});
