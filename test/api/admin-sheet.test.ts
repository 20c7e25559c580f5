// The admin sheet API through the app: read, autosave (PATCH), replace and publish (PUT), revisions,
// diff and restore; every endpoint's 401, CSRF 403, 400 with issues and 409 on a stale base.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { useTestApp, postJson } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER, loginAsAdmin } from "../helpers/auth.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { appendStoreRows } from "../../src/lib/store/patch.ts";
import type { Invalidation } from "../../src/lib/serving/invalidation.ts";

const ctx = useTestApp({ env: { DATA_MODE: "remote" } });

const SHEET = [
  "Title,Date,Start Time,Location,Area,Categories,Event Key",
  "Sunset Set,2026-06-21,18:00,Quai de Valmy,10,House,evt_aaaaaaaaaaaaaaaa",
  "Late Club,2026-06-21,23:00,Club X,11,Techno,evt_bbbbbbbbbbbbbbbb",
  "Morning Choir,2026-06-21,09:00,Parvis,4,Classical,",
].join("\n");

beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups, event_store_published`);
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
});

type Sheet = { columns: { key: string; label: string; isCore: boolean; isRequired: boolean }[]; rows: { id: string; values: Record<string, string> }[]; meta: { revision: number; rowCount: number } };

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN_KEY_HEADER) =>
  postJson(ctx, path, body, headers, method);
const readSheet = async (): Promise<Sheet> => {
  const res = await send("GET", "/api/admin/sheet");
  expect(res.status).toBe(200);
  return res.json();
};
const rowByTitle = (sheet: Sheet, title: string) => sheet.rows.find((r) => r.values.title === title)!;

describe("GET /api/admin/sheet", () => {
  test("columns, rows with stable ids and values by key, meta; keys assigned at save", async () => {
    const res = await send("GET", "/api/admin/sheet");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.columns[0]).toEqual({ key: "title", label: "Title", isCore: true, isRequired: true });
    expect(body.columns.map((c: { key: string }) => c.key)).toContain("eventKey");
    expect(body.rows).toHaveLength(3);
    expect(body.rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.rows[2].values.eventKey).toMatch(/^evt_[0-9a-f]{16}$/);
    expect(body.meta).toMatchObject({ rowCount: 3, revision: 1, updatedBy: "system", origin: "manual" });
    expect((await readSheet()).rows.map((r) => r.id)).toEqual(body.rows.map((r: { id: string }) => r.id));
  });

  test("a window: a page of rows by position with their non-empty cells, the rows matching a search (wildcards literal), the count they are a page of", async () => {
    const page = await (await send("GET", "/api/admin/sheet?offset=1&limit=1")).json();
    expect(page).toMatchObject({ success: true, matching: 3, offset: 1, search: "", meta: { rowCount: 3, revision: 1 } });
    expect(page.rows).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), position: 2, values: { title: "Late Club", date: "2026-06-21", startTime: "23:00", location: "Club X", area: "11", categories: "Techno", eventKey: "evt_bbbbbbbbbbbbbbbb" } }]);
    expect(page.columns).toHaveLength(22);
    const found = await (await send("GET", "/api/admin/sheet?search=CHOIR")).json();
    expect(found).toMatchObject({ matching: 1, search: "CHOIR" });
    expect(found.rows.map((r: { position: number; values: Record<string, string> }) => [r.position, r.values.title])).toEqual([[3, "Morning Choir"]]);
    expect((await (await send("GET", `/api/admin/sheet?search=${encodeURIComponent("%")}`)).json()).matching).toBe(0);
    // As a LIKE wildcard "_" would match "Club"; taken literally it matches nothing.
    expect((await (await send("GET", `/api/admin/sheet?search=${encodeURIComponent("l_b")}`)).json()).matching).toBe(0);
    expect((await (await send("GET", "/api/admin/sheet?search=2026-06-21&offset=2")).json()).rows.map((r: { position: number }) => r.position)).toEqual([3]);
  });

  test("readings and warnings: each shown cell as the sheet's rules read it, in the window and in each autosave answer; the warnings of the whole sheet", async () => {
    // In the language the console asks for (`?lang=`; the site's root language without it).
    const page = await (await send("GET", "/api/admin/sheet?offset=0&limit=3&lang=fr")).json();
    const sunset = page.rows[0].id;
    expect(page.notes[sunset]).toMatchObject({ date: { reading: "dim. 21 juin 2026" }, startTime: { reading: "18:00" } });
    const english = await (await send("GET", "/api/admin/sheet?offset=0&limit=3&lang=en")).json();
    expect(english.notes[sunset].date).toEqual({ reading: "Sun, 21 June 2026" });
    const late = page.rows[1].id;
    const res = await send("PATCH", "/api/admin/sheet?lang=fr", {
      baseRevision: 1,
      cells: [
        { rowId: late, key: "startTime", value: "20h30" },
        { rowId: late, key: "price", value: "€10" },
        { rowId: late, key: "date", value: "31/02/2026" },
        { rowId: sunset, key: "price", value: "soon" },
      ],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.notes[late].startTime).toEqual({ reading: "20:30" });
    expect(body.notes[late].price).toEqual({ reading: "10\u00a0€" });
    expect(body.notes[late].date.warning).toBe('Date "31/02/2026" is not a real calendar date');
    expect(body.notes[sunset].price.warning).toContain("soon");
    const warnings = await (await send("GET", "/api/admin/sheet/warnings")).json();
    expect(warnings.warnings).toEqual([
      { rowId: sunset, position: 1, key: "price", message: expect.stringContaining("soon") },
      { rowId: late, position: 2, key: "date", message: 'Date "31/02/2026" is not a real calendar date' },
    ]);
    expect((await ctx.request("/api/admin/sheet/warnings")).status).toBe(401);
  });

  test("a window with bad parameters: 400 with issues", async () => {
    for (const [query, field] of [["offset=-1", "offset"], ["limit=0", "limit"], ["limit=501", "limit"], ["limit=1.5", "limit"], [`search=${"x".repeat(201)}`, "search"]]) {
      const res = await send("GET", `/api/admin/sheet?${query}`);
      expect(res.status).toBe(400);
      expect((await res.json()).issues).toEqual([expect.objectContaining({ field })]);
    }
  });

  test("401 without a credential", async () => {
    const res = await ctx.request("/api/admin/sheet");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: "Unauthorized" });
  });
});

describe("PATCH /api/admin/sheet (autosave)", () => {
  test("writes only the changed cells, bumps the revision, keeps ids and keys; the homepage is not revalidated", async () => {
    const before = await readSheet();
    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    const row = rowByTitle(before, "Late Club");
    const res = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: row.id, key: "title", value: "Late Club (renamed)" }] });
    stop();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, meta: { revision: 2, rowCount: 3, updatedBy: "admin-sheet-editor" }, behind: false });
    expect(seen).toEqual([]);
    const after = await readSheet();
    expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
    expect(rowByTitle(after, "Late Club (renamed)").values.eventKey).toBe("evt_bbbbbbbbbbbbbbbb");
  });

  test("adds a row (its key is assigned once, by this save) and a column; deletes a row", async () => {
    const before = await readSheet();
    const newId = crypto.randomUUID();
    const res = await send("PATCH", "/api/admin/sheet", {
      baseRevision: 1,
      addColumns: [{ key: "custom_dress_code", label: "Dress code" }],
      addRows: [{ id: newId, values: { title: "New one", date: "2026-06-21" } }],
      cells: [{ rowId: newId, key: "custom_dress_code", value: "White" }],
      deleteRowIds: [rowByTitle(before, "Morning Choir").id],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.addedRowIds).toEqual([newId]);
    const assigned = body.assignedKeys.find((k: { rowId: string }) => k.rowId === newId);
    expect(assigned.eventKey).toMatch(/^evt_[0-9a-f]{16}$/);
    const after = await readSheet();
    expect(after.rows.map((r) => r.values.title)).toEqual(["Sunset Set", "Late Club", "New one"]);
    expect(after.rows[2].id).toBe(newId);
    expect([after.rows[2].values.eventKey, after.rows[2].values.custom_dress_code]).toEqual([assigned.eventKey, "White"]);
    expect(after.columns.at(-1)).toEqual({ key: "custom_dress_code", label: "Dress code", isCore: false, isRequired: false });
    // The key stays when the title changes later.
    await send("PATCH", "/api/admin/sheet", { baseRevision: 2, cells: [{ rowId: newId, key: "title", value: "New one, renamed" }] });
    expect(rowByTitle(await readSheet(), "New one, renamed").values.eventKey).toBe(assigned.eventKey);
  });

  test("a stale base whose cells were not changed since is merged (200, behind); one that touches changed cells is 409 with those cells and writes nothing", async () => {
    const sheet = await readSheet();
    const sunset = rowByTitle(sheet, "Sunset Set");
    const late = rowByTitle(sheet, "Late Club");
    // Admin A (base 1) edits Sunset's location.
    expect((await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: sunset.id, key: "location", value: "Canal" }] })).status).toBe(200);
    // Admin B, still on base 1, edits another cell: merged.
    const merged = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: late.id, key: "location", value: "Club Y" }] });
    expect(merged.status).toBe(200);
    expect((await merged.json()).behind).toBe(true);
    // Admin B, still on base 1, edits Sunset's location too: conflict, nothing written.
    const stale = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: sunset.id, key: "location", value: "Bridge" }, { rowId: late.id, key: "area", value: "12" }] });
    expect(stale.status).toBe(409);
    const body = await stale.json();
    expect(body).toEqual({ success: false, error: "The sheet changed since these edits were based on it", meta: expect.objectContaining({ revision: 3 }), conflicts: [{ rowId: sunset.id, key: "location", value: "Canal" }] });
    const now = await readSheet();
    expect(rowByTitle(now, "Late Club").values.area).toBe("11");
    expect(now.meta.revision).toBe(3);
    // Re-applied on the current revision, the edit goes through.
    expect((await send("PATCH", "/api/admin/sheet", { baseRevision: 3, cells: [{ rowId: sunset.id, key: "location", value: "Bridge" }] })).status).toBe(200);
  });

  test("a cell's own baseRevision decides its conflict: the cell seen after another admin's write goes through, the one seen before is a 409", async () => {
    const sheet = await readSheet();
    const sunset = rowByTitle(sheet, "Sunset Set");
    const late = rowByTitle(sheet, "Late Club");
    expect((await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: sunset.id, key: "location", value: "Canal" }] })).status).toBe(200);
    // Seen at revision 2 (after the write): no conflict, though the patch's base is 1.
    const seen = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: sunset.id, key: "location", value: "Bridge", baseRevision: 2 }, { rowId: late.id, key: "notes", value: "x" }] });
    expect(seen.status).toBe(200);
    // Seen at revision 1: a conflict with the current value.
    const stale = await send("PATCH", "/api/admin/sheet", { baseRevision: 3, cells: [{ rowId: sunset.id, key: "location", value: "Quai", baseRevision: 1 }] });
    expect(stale.status).toBe(409);
    expect((await stale.json()).conflicts).toEqual([{ rowId: sunset.id, key: "location", value: "Bridge" }]);
    // A cell base newer than the store, or not a whole number: 400.
    for (const baseRevision of [99, -1, "3"]) {
      const bad = await send("PATCH", "/api/admin/sheet", { baseRevision: 3, cells: [{ rowId: sunset.id, key: "location", value: "Quai", baseRevision }] });
      expect(bad.status).toBe(400);
      expect((await bad.json()).issues[0].field).toBe("cells.0.baseRevision");
    }
  });

  test("an edit to a row deleted since its base is a conflict with value null", async () => {
    const sheet = await readSheet();
    const late = rowByTitle(sheet, "Late Club");
    await send("PATCH", "/api/admin/sheet", { baseRevision: 1, deleteRowIds: [late.id] });
    const res = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: late.id, key: "title", value: "x" }] });
    expect(res.status).toBe(409);
    expect((await res.json()).conflicts).toEqual([{ rowId: late.id, key: "title", value: null }]);
  });

  test("an accepted submission appended meanwhile does not conflict with an editor's autosave", async () => {
    const sheet = await readSheet();
    const appended = await appendStoreRows(ctx.deps.db, [{ title: "From a host", date: "2026-06-21" }], { updatedBy: "submission-accept", actor: "admin-2", now: ctx.clock.now() });
    expect(appended.ok).toBe(true);
    const res = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: sheet.rows[0].id, key: "notes", value: "Bring water" }] });
    expect(res.status).toBe(200);
    const after = await readSheet();
    expect(after.rows.map((r) => r.values.title)).toEqual(["Sunset Set", "Late Club", "Morning Choir", "From a host"]);
    expect(after.rows[0].values.notes).toBe("Bring water");
  });

  test("an upload or import landing between autosaves: an edit of a cell it changed is a 409, other edits merge; rows it kept keep their ids", async () => {
    const sheet = await readSheet();
    const late = rowByTitle(sheet, "Late Club");
    const sunset = rowByTitle(sheet, "Sunset Set");
    // The full save the upload and the import make: Late Club moves venue, the rest is the same.
    const uploaded = await saveStoreSheet(ctx.deps.db, SHEET.replace("Club X", "Club Z"), { updatedBy: "admin-upload", origin: "manual", trigger: "upload", now: ctx.clock.now() });
    expect(uploaded.ok).toBe(true);
    const stale = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: late.id, key: "location", value: "Club Y" }] });
    expect(stale.status).toBe(409);
    expect((await stale.json()).conflicts).toEqual([{ rowId: late.id, key: "location", value: "Club Z" }]);
    const merged = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: sunset.id, key: "notes", value: "Kept" }] });
    expect(merged.status).toBe(200);
    expect((await merged.json()).behind).toBe(true);
    const after = await readSheet();
    expect(rowByTitle(after, "Late Club")).toMatchObject({ id: late.id, values: expect.objectContaining({ location: "Club Z" }) });
    expect(rowByTitle(after, "Sunset Set").values.notes).toBe("Kept");
  });

  test("400 with issues for bad bodies; nothing written", async () => {
    const cases: [unknown, string][] = [
      ["{not json", "body"],
      [{ cells: [] }, "baseRevision"],
      [{ baseRevision: -1 }, "baseRevision"],
      [{ baseRevision: 1, cells: [{ rowId: "nope", key: "title", value: "x" }] }, "cells.0"],
      [{ baseRevision: 1, cells: "x" }, "cells"],
      [{ baseRevision: 1, addColumns: [{ label: "Venue" }] }, "addColumns.0.label"],
      [{ baseRevision: 1, addRows: [{ values: { title: 3 } }] }, "addRows.0.values.title"],
      [{ baseRevision: 1, publish: "yes" }, "publish"],
    ];
    for (const [body, field] of cases) {
      const res = await send("PATCH", "/api/admin/sheet", body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.success).toBe(false);
      expect(json.issues.map((i: { field: string }) => i.field)).toContain(field);
    }
    const unknownColumn = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: crypto.randomUUID(), key: "nope", value: "x" }] });
    expect(unknownColumn.status).toBe(400);
    expect((await readSheet()).meta.revision).toBe(1);
  });

  test("401 without a credential; 403 for a cookie from another origin; the same origin passes", async () => {
    expect((await ctx.request("/api/admin/sheet", { method: "PATCH", body: "{}" })).status).toBe(401);
    const { token } = await loginAsAdmin(ctx);
    const cookie = { cookie: `finder_admin_session=${token}` };
    const foreign = await send("PATCH", "/api/admin/sheet", { baseRevision: 1 }, { ...cookie, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await readSheet()).meta.revision).toBe(1);
    expect((await send("PATCH", "/api/admin/sheet", { baseRevision: 1 }, { ...cookie, origin: "http://finder.test" })).status).toBe(200);
  });

  test("publish: schema gate, a publish revision, warm-up and homepage revalidation", async () => {
    const sheet = await readSheet();
    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    // A title changed under its kept key is published with the second confirmation.
    const res = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, publish: true, confirm: true, cells: [{ rowId: sheet.rows[0].id, key: "title", value: "Sunset Set, published" }] });
    stop();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.report).toMatchObject({ ok: true, blockingCount: 0 });
    expect(body.revalidation).toMatchObject({ source: "store", count: 3 });
    expect(seen.some((i) => i.paths?.includes("/"))).toBe(true);
    const events = await (await ctx.request("/api/events")).json();
    expect(events.events.map((e: { eventName: string }) => e.eventName)).toContain("Sunset Set, published");
    const revisions = await (await send("GET", "/api/admin/sheet/revisions")).json();
    expect(revisions.revisions[0]).toMatchObject({ trigger: "publish", rowsChanged: 1, changedColumns: ["title"], actor: "admin-key" });
  });

  test("publish refused by the schema gate (no rows left): 400 with the report, nothing written", async () => {
    const sheet = await readSheet();
    const res = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, publish: true, deleteRowIds: sheet.rows.map((r) => r.id) });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.report.blocking.map((b: { type: string }) => b.type)).toContain("no_rows");
    expect((await readSheet()).rows).toHaveLength(3);
  });

  test("publish refused when the site could not use the sheet (fewer than 80 % of rows with a name and a valid date): 400, nothing published", async () => {
    const sheet = await readSheet();
    const res = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, publish: true, cells: sheet.rows.map((r) => ({ rowId: r.id, key: "date", value: "bientôt" })) });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.report.blocking.map((b: { type: string }) => b.type)).toEqual(["too_few_usable"]);
    expect(body.report.blocking[0].message).toContain("80 %");
    expect((await readSheet()).meta.revision).toBe(1);
    const events = await (await ctx.request("/api/events")).json();
    expect(events.events.length).toBe(3);
  });
});

describe("PUT /api/admin/sheet", () => {
  test("replaces the sheet; rows keep their ids; publish revalidates", async () => {
    const sheet = await readSheet();
    const rows = sheet.rows.slice(0, 2).map((r) => ({ id: r.id, values: { ...r.values, price: "Free" } }));
    const put = { baseRevision: 1, publish: true, columns: sheet.columns.map(({ key, label }) => ({ key, label })), rows };
    // The third row is removed: publishing it needs the second confirmation (409, nothing written).
    const held = await send("PUT", "/api/admin/sheet", put);
    expect(held.status).toBe(409);
    expect(await held.json()).toMatchObject({ error: "1 event removed: review", needsConfirmation: true, review: { rowsRenamed: 0, rowsRemoved: 1, removed: [{ title: "Morning Choir" }] } });
    expect(await readSheet()).toEqual(sheet);
    const res = await send("PUT", "/api/admin/sheet", { ...put, confirm: true });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, meta: { revision: 2, rowCount: 2 }, report: { ok: true } });
    expect(body.revalidation.count).toBe(2);
    const after = await readSheet();
    expect(after.rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(after.rows.every((r) => r.values.price === "Free")).toBe(true);
  });

  test("a stale base answers 409 with the cells changed since it (their current values) and writes nothing", async () => {
    const sheet = await readSheet();
    const late = rowByTitle(sheet, "Late Club");
    const patched = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: late.id, key: "price", value: "12 €" }] });
    expect(patched.status).toBe(200);
    const columns = sheet.columns.map(({ key, label }) => ({ key, label }));
    const stale = await send("PUT", "/api/admin/sheet", { baseRevision: 1, columns, rows: sheet.rows.map((r) => ({ id: r.id, values: { ...r.values, price: "Free" } })) });
    expect(stale.status).toBe(409);
    const body = await stale.json();
    expect(body).toMatchObject({ success: false, meta: { revision: 2 } });
    expect(body.conflicts).toEqual([{ rowId: late.id, key: "price", value: "12 €" }]);
    expect(rowByTitle(await readSheet(), "Sunset Set").values.price).toBe("");
  });

  test("409 with the current meta on a stale base; 400 with the report for a blocked sheet; 400 issues for a bad body", async () => {
    const sheet = await readSheet();
    const columns = sheet.columns.map(({ key, label }) => ({ key, label }));
    const stale = await send("PUT", "/api/admin/sheet", { baseRevision: 0, columns, rows: sheet.rows });
    expect(stale.status).toBe(409);
    const staleBody = await stale.json();
    expect(staleBody).toMatchObject({ success: false, meta: { revision: 1 } });
    // Every cell was written after revision 0: all of them are listed.
    expect(staleBody.conflicts).toContainEqual({ rowId: rowByTitle(sheet, "Late Club").id, key: "title", value: "Late Club" });
    const blocked = await send("PUT", "/api/admin/sheet", { baseRevision: 1, columns: [{ label: "Name2" }], rows: [{ values: { Name2: "x" } }] });
    expect(blocked.status).toBe(400);
    expect((await blocked.json()).report.blocking[0].type).toBe("missing_columns");
    const bad = await send("PUT", "/api/admin/sheet", { baseRevision: 1, columns: "x" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues.map((i: { field: string }) => i.field)).toContain("columns");
    expect((await readSheet()).meta.revision).toBe(1);
  });

  test("401 and CSRF 403", async () => {
    expect((await ctx.request("/api/admin/sheet", { method: "PUT", body: "{}" })).status).toBe(401);
    const { token } = await loginAsAdmin(ctx);
    expect((await send("PUT", "/api/admin/sheet", {}, { cookie: `finder_admin_session=${token}`, origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("revisions", () => {
  test("list, readable diff against the current sheet, restore with a pre-restore backup and revalidation", async () => {
    const sheet = await readSheet();
    await send("PATCH", "/api/admin/sheet", { baseRevision: 1, publish: true, cells: [{ rowId: sheet.rows[0].id, key: "location", value: "Canal" }] });
    const [published] = (await (await send("GET", "/api/admin/sheet/revisions")).json()).revisions;
    ctx.clock.advance(60_000);
    // A removal is published with the second confirmation.
    await send("PATCH", "/api/admin/sheet", { baseRevision: 2, publish: true, confirm: true, cells: [{ rowId: sheet.rows[0].id, key: "location", value: "Bridge" }], deleteRowIds: [sheet.rows[1].id] });
    const list = await (await send("GET", "/api/admin/sheet/revisions")).json();
    expect(list.revisions.map((r: { trigger: string }) => r.trigger)).toEqual(["publish", "publish"]);
    expect(list.revisions[0]).toMatchObject({ rowsDeleted: 1, rowsChanged: 1, changedColumns: ["location"], rowCount: 2 });
    expect(typeof list.revisions[0].createdAt).toBe("string");

    const diff = await (await send("GET", `/api/admin/sheet/revisions/${published.id}`)).json();
    expect(diff.diff).toMatchObject({ rowsAdded: 0, rowsDeleted: 1, rowsChanged: 1 });
    expect(diff.diff.rows).toContainEqual({ eventKey: "evt_aaaaaaaaaaaaaaaa", title: "Sunset Set", change: "changed", cells: [{ column: "Location", before: "Canal", after: "Bridge" }] });
    expect(diff.diff.rows).toContainEqual({ eventKey: "evt_bbbbbbbbbbbbbbbb", title: "Late Club", change: "deleted" });

    const seen: Invalidation[] = [];
    const stop = ctx.deps.invalidation.subscribe((i) => void seen.push(i));
    const restored = await send("POST", `/api/admin/sheet/revisions/${published.id}/restore`);
    stop();
    expect(restored.status).toBe(200);
    const body = await restored.json();
    expect(body.preRestoreBackupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.meta).toMatchObject({ rowCount: 3, origin: "restore", updatedBy: "restore" });
    expect(seen.some((i) => i.paths?.includes("/"))).toBe(true);
    const after = await readSheet();
    expect(after.rows[0].id).toBe(sheet.rows[0].id);
    expect(after.rows[0].values.location).toBe("Canal");
    expect(after.rows.map((r) => r.values.title)).toEqual(["Sunset Set", "Late Club", "Morning Choir"]);
  });

  test("unknown or malformed ids: 404; 401 without a credential; CSRF 403 on restore", async () => {
    expect((await send("GET", "/api/admin/sheet/revisions/nope")).status).toBe(404);
    expect((await send("GET", `/api/admin/sheet/revisions/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await send("POST", `/api/admin/sheet/revisions/${crypto.randomUUID()}/restore`)).status).toBe(404);
    expect((await ctx.request("/api/admin/sheet/revisions")).status).toBe(401);
    expect((await ctx.request(`/api/admin/sheet/revisions/${crypto.randomUUID()}/restore`, { method: "POST" })).status).toBe(401);
    const { token } = await loginAsAdmin(ctx);
    expect((await send("POST", `/api/admin/sheet/revisions/${crypto.randomUUID()}/restore`, undefined, { cookie: `finder_admin_session=${token}`, origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("writes name the rows they mean, by id (docs/console.md, JSON API)", () => {
  test("PATCH: a cell of a row the same write deletes, or one cell set twice to different values, is a 400 naming it; nothing is written", async () => {
    const sheet = await readSheet();
    const late = rowByTitle(sheet, "Late Club");
    const sunset = rowByTitle(sheet, "Sunset Set");
    const deleting = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, deleteRowIds: [late.id], cells: [{ rowId: sunset.id, key: "notes", value: "ok" }, { rowId: late.id, key: "title", value: "Brass Band Canal" }] });
    expect(deleting.status).toBe(400);
    expect((await deleting.json()).issues).toEqual([{ field: "cells.1.rowId", message: "This write deletes the row the cell names" }]);
    const twice = await send("PATCH", "/api/admin/sheet", { baseRevision: 1, cells: [{ rowId: late.id, key: "title", value: "A" }, { rowId: late.id, key: "title", value: "B" }] });
    expect(twice.status).toBe(400);
    expect((await twice.json()).issues).toEqual([{ field: "cells.1", message: "Another cell of this write sets the same row and column to another value" }]);
    const after = await readSheet();
    expect(after.meta.revision).toBe(1);
    expect(after.rows).toEqual(sheet.rows);
  });

  test("PUT: a row naming an id the sheet does not hold, or an id another row names, is a 400 naming it; nothing is written", async () => {
    const sheet = await readSheet();
    const columns = sheet.columns.map(({ key, label }) => ({ key, label }));
    const [sunset, late] = sheet.rows;
    const unknown = await send("PUT", "/api/admin/sheet", {
      baseRevision: 1,
      columns,
      rows: [sunset, { id: crypto.randomUUID(), values: { ...late.values, title: "Brass Band Canal" } }],
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).issues).toEqual([{ field: "rows.1.id", message: "No row of the sheet has this id (leave id out for a new row)" }]);
    const twice = await send("PUT", "/api/admin/sheet", { baseRevision: 1, columns, rows: [sunset, { id: sunset.id, values: { ...late.values } }] });
    expect(twice.status).toBe(400);
    expect((await twice.json()).issues).toEqual([{ field: "rows.1.id", message: "Another row of this write names the same id" }]);
    expect(await readSheet()).toEqual(sheet);
    // A stale base is still the conflict it was, whatever ids it names.
    expect((await send("PUT", "/api/admin/sheet", { baseRevision: 0, columns, rows: [{ id: crypto.randomUUID(), values: sunset.values }] })).status).toBe(409);
  });
});
