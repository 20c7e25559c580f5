// The editor's drafts through HTTP: every window and every save carries the draft marks of its
// rows (the cells that differ from the published revision, with the published value, and the rows
// visitors do not have yet); GET /api/admin/sheet/drafts counts every change and lists deleted
// rows; a publish clears the marks and an edit after it marks again; the count follows writes made
// through another instance; the console page does not wait for the count, and the Publishing card's
// actions tell the editor.

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { HTMX_HEADERS, postJson, type TestContext, useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const SHEET = [
  "Title,Date,Start Time,Location,Area,Categories,Event Key",
  "Sunset Set,2026-06-21,18:00,Quai de Valmy,10,House,evt_aaaaaaaaaaaaaaaa",
  "Late Club,2026-06-21,23:00,Club X,11,Techno,evt_bbbbbbbbbbbbbbbb",
  "Morning Choir,2026-06-21,09:00,Parvis,4,Classical,evt_cccccccccccccccc",
].join("\n");

const ctx = useTestApp({ env: { DATA_MODE: "remote" } });
// Another instance over the same database.
const other = useTestApp({ env: { DATA_MODE: "remote" }, keepData: true });
beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups, event_store_published`);
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
});

type Window = { rows: { id: string; values: Record<string, string> }[]; meta: { revision: number }; drafts: Record<string, unknown> };
const call = (app: TestContext, method: string, path: string, body?: unknown) => postJson(app, path, body, ADMIN_KEY_HEADER, method);
const admin = (method: string, path: string, body?: unknown) => call(ctx, method, path, body);
const windowOf = async (): Promise<Window> => (await admin("GET", "/api/admin/sheet?offset=0&limit=50")).json();
const idOf = (w: Window, title: string) => w.rows.find((r) => r.values.title === title)!.id;
/** An attribute's text, its character references decoded. */
const attribute = (text: string) =>
  text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(quot|amp|lt|gt|apos));/gi, (_, dec, hex, name) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ({ quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" } as Record<string, string>)[name.toLowerCase()],
  );
const summary = async (app = ctx) => (await call(app, "GET", "/api/admin/sheet/drafts")).json();

describe("draft marks and the drafts summary", () => {
  test("a save and the next window mark the changed cells with their published values; a row added is marked whole; putting a value back unmarks it", async () => {
    let w = await windowOf();
    expect(w.drafts).toEqual({});
    const late = idOf(w, "Late Club");
    const added = crypto.randomUUID();
    const saved = await admin("PATCH", "/api/admin/sheet", {
      baseRevision: w.meta.revision,
      cells: [{ rowId: late, key: "location", value: "Club Y" }, { rowId: late, key: "notes", value: "Doors 22:30" }],
      addRows: [{ id: added, values: { title: "Brand new", date: "2026-06-21" } }],
    });
    expect(saved.status).toBe(200);
    const body = await saved.json();
    expect(body.drafts).toEqual({ [late]: { cells: { location: "Club X", notes: "" } }, [added]: { added: true } });

    w = await windowOf();
    expect(w.drafts).toEqual({ [late]: { cells: { location: "Club X", notes: "" } }, [added]: { added: true } });
    expect(await summary()).toEqual({ success: true, publishedAt: expect.any(String), publishedBy: "system", rowsAdded: 1, rowsChanged: 1, rowsDeleted: 0, total: 2, deleted: [] });

    // Typing the published value back: the cell is no longer a draft; the other one still is.
    const back = await (await admin("PATCH", "/api/admin/sheet", { baseRevision: w.meta.revision, cells: [{ rowId: late, key: "location", value: "Club X" }] })).json();
    expect(back.drafts).toEqual({ [late]: { cells: { notes: "" } } });
    const again = await (await admin("PATCH", "/api/admin/sheet", { baseRevision: back.meta.revision, cells: [{ rowId: late, key: "notes", value: "" }] })).json();
    expect(again.drafts).toEqual({});
    expect((await summary()).total).toBe(1);
  });

  test("deleted rows are counted and listed; publishing clears every mark and an edit after it marks again", async () => {
    let w = await windowOf();
    const choir = idOf(w, "Morning Choir");
    const sunset = idOf(w, "Sunset Set");
    await admin("PATCH", "/api/admin/sheet", { baseRevision: w.meta.revision, deleteRowIds: [choir], cells: [{ rowId: sunset, key: "startTime", value: "18:30" }] });
    expect(await summary()).toMatchObject({ total: 2, rowsDeleted: 1, rowsChanged: 1, deleted: [{ id: choir, title: "Morning Choir", eventKey: "evt_cccccccccccccccc" }] });
    expect((await windowOf()).drafts).toEqual({ [sunset]: { cells: { startTime: "18:00" } } });

    // A removal is published only with the second confirmation.
    expect((await admin("POST", "/api/admin/sheet/publish", { confirm: true })).status).toBe(200);
    w = await windowOf();
    expect(w.drafts).toEqual({});
    expect(await summary()).toMatchObject({ total: 0, rowsDeleted: 0, deleted: [] });

    const edited = await (await admin("PATCH", "/api/admin/sheet", { baseRevision: w.meta.revision, cells: [{ rowId: sunset, key: "startTime", value: "19:00" }] })).json();
    expect(edited.drafts).toEqual({ [sunset]: { cells: { startTime: "18:30" } } });
    expect((await summary()).total).toBe(1);
  });

  test("the count follows writes made through another instance, and a discard", async () => {
    const w = await windowOf();
    const late = idOf(w, "Late Club");
    await admin("PATCH", "/api/admin/sheet", { baseRevision: w.meta.revision, cells: [{ rowId: late, key: "area", value: "12" }] });
    expect((await summary()).total).toBe(1);
    expect((await summary(other)).total).toBe(1);
    const fresh = (await (await call(other, "GET", "/api/admin/sheet?offset=0&limit=50")).json()) as Window;
    await call(other, "PATCH", "/api/admin/sheet", { baseRevision: fresh.meta.revision, cells: [{ rowId: idOf(fresh, "Sunset Set"), key: "area", value: "3" }] });
    expect((await summary()).total).toBe(2);
    // Another instance publishes: this one's marks and count clear on the next read.
    expect((await call(other, "POST", "/api/admin/sheet/publish")).status).toBe(200);
    expect((await summary()).total).toBe(0);
    expect((await windowOf()).drafts).toEqual({});
    const next = await windowOf();
    await admin("PATCH", "/api/admin/sheet", { baseRevision: next.meta.revision, cells: [{ rowId: late, key: "area", value: "13" }] });
    expect((await summary()).total).toBe(1);
    expect(await (await admin("POST", "/api/admin/sheet/discard")).json()).toEqual({ success: true, discarded: 1 });
    expect((await summary()).total).toBe(0);
    expect((await windowOf()).drafts).toEqual({});
  });

  test("the page embeds the first window's marks and leaves the count to the card, which tells the editor when it publishes or discards", async () => {
    const w = await windowOf();
    const late = idOf(w, "Late Club");
    await admin("PATCH", "/api/admin/sheet", { baseRevision: w.meta.revision, cells: [{ rowId: late, key: "location", value: "Club Y" }] });
    const page = await (await ctx.request("/admin/content", { headers: ADMIN_KEY_HEADER })).text();
    const embedded = JSON.parse(attribute(/data-sheet="([^"]*)"/.exec(page)![1]));
    expect(embedded.drafts).toEqual({ [late]: { cells: { location: "Club X" } } });
    expect(page).toContain("Counting unpublished changes");
    expect(page).not.toContain("1 unpublished change");

    const card = await (await ctx.request("/admin/content/publishing", { headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS } })).text();
    expect(card).toContain("1 unpublished change");
    const discard = await ctx.request("/admin/content/publishing/discard", { method: "POST", headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS } });
    expect(discard.status).toBe(200);
    expect(discard.headers.get("hx-trigger")).toBe("sheet-discarded");
    expect(await discard.text()).toContain("Everything is published");
    // Nothing left to discard: nothing to tell.
    expect((await ctx.request("/admin/content/publishing/discard", { method: "POST", headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS } })).headers.get("hx-trigger")).toBeNull();
    const publish = await ctx.request("/admin/content/publishing/publish", { method: "POST", headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS } });
    expect(publish.status).toBe(200);
    expect(publish.headers.get("hx-trigger")).toBe("sheet-published");
  });

  test("a 200 × 10 paste over stored rows is one PATCH, one store revision and one revision entry, and its answer marks all 200 rows", async () => {
    const lines = ["Title,Date,Start Time,Location,Area,Event Key"];
    for (let i = 1; i <= 200; i++) lines.push(`Row ${i},2026-06-21,18:00,Place ${i},${(i % 20) + 1},evt_${String(i).padStart(16, "0")}`);
    const seeded = await saveStoreSheet(ctx.deps.db, lines.join("\n"), { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
    if (!seeded.ok) throw new Error(seeded.error);
    const w = (await (await admin("GET", "/api/admin/sheet?offset=0&limit=200")).json()) as Window;
    const [{ n: before }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_revisions`);
    const keys = ["title", "date", "startTime", "endTime", "location", "area", "price", "categories", "notes", "tags"];
    const cells = w.rows.flatMap((row, i) => keys.map((key) => ({ rowId: row.id, key, value: `${key} ${i}` })));
    expect(cells).toHaveLength(2000);
    const res = await admin("PATCH", "/api/admin/sheet", { baseRevision: w.meta.revision, cells });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.meta.revision).toBe(w.meta.revision + 1);
    expect(Object.keys(body.drafts)).toHaveLength(200);
    expect(body.drafts[w.rows[0].id]).toEqual({ cells: { title: "Row 1", date: "2026-06-21", startTime: "18:00", endTime: "", location: "Place 1", area: "2", price: "", categories: "", notes: "", tags: "" } });
    const [{ n: after }] = await ctx.deps.database.query<{ n: number }>(sql`select count(*)::int as n from event_store_revisions`);
    expect(after - before).toBe(1);
    expect(await summary()).toMatchObject({ total: 200, rowsChanged: 200 });
  });
});

describe("a publish that renames or removes events asks for a second confirmation", () => {
  /** Renames two events under their kept keys, removes one, and moves a start time (an ordinary edit). */
  async function renameAndRemove(): Promise<Window> {
    const w = await windowOf();
    const res = await admin("PATCH", "/api/admin/sheet", {
      baseRevision: w.meta.revision,
      cells: [
        { rowId: idOf(w, "Sunset Set"), key: "title", value: "Chorale de la Butte" },
        { rowId: idOf(w, "Late Club"), key: "title", value: "Brass Band Canal" },
        { rowId: idOf(w, "Late Club"), key: "startTime", value: "23:30" },
      ],
      deleteRowIds: [idOf(w, "Morning Choir")],
    });
    expect(res.status).toBe(200);
    return w;
  }
  const publishedTitles = async () => (await (await ctx.request("/api/events")).json()).events.map((e: { eventName: string }) => e.eventName).sort();
  const REVIEW = {
    rowsRenamed: 2,
    rowsRemoved: 1,
    renamed: [
      { id: expect.any(String), eventKey: "evt_aaaaaaaaaaaaaaaa", before: "Sunset Set", after: "Chorale de la Butte" },
      { id: expect.any(String), eventKey: "evt_bbbbbbbbbbbbbbbb", before: "Late Club", after: "Brass Band Canal" },
    ],
    removed: [{ id: expect.any(String), title: "Morning Choir", eventKey: "evt_cccccccccccccccc" }],
  };

  test("POST …/publish without confirm: 409 with the counts and the list, nothing published; with {confirm: true} it is", async () => {
    await renameAndRemove();
    const before = await publishedTitles();
    const revision = (await windowOf()).meta.revision;
    const held = await admin("POST", "/api/admin/sheet/publish");
    expect(held.status).toBe(409);
    expect(await held.json()).toEqual({ success: false, error: "2 events renamed, 1 removed: review", needsConfirmation: true, review: REVIEW });
    expect(await publishedTitles()).toEqual(before);
    expect((await windowOf()).meta.revision).toBe(revision);
    expect((await summary()).total).toBe(3);
    expect((await admin("GET", "/api/admin/sheet/unpublished").then((r) => r.json())).review).toEqual(REVIEW);

    expect((await admin("POST", "/api/admin/sheet/publish", { confirm: false })).status).toBe(409);
    // A misspelt confirmation is refused, naming the field; nothing is published.
    const misspelt = await admin("POST", "/api/admin/sheet/publish", { confirmed: true });
    expect(misspelt.status).toBe(400);
    expect((await misspelt.json()).issues).toEqual([{ field: "confirmed", message: "Unknown field" }]);
    expect(await publishedTitles()).toEqual(before);

    const confirmed = await admin("POST", "/api/admin/sheet/publish", { confirm: true });
    expect(confirmed.status).toBe(200);
    expect(await publishedTitles()).toEqual(["Brass Band Canal", "Chorale de la Butte"]);
    expect((await summary()).total).toBe(0);
  });

  test("the editor's PATCH with publish: a rename in the same write is held (409, nothing written); with confirm it is saved and published", async () => {
    const w = await windowOf();
    const sunset = idOf(w, "Sunset Set");
    const edit = { baseRevision: w.meta.revision, publish: true, cells: [{ rowId: sunset, key: "title", value: "Chorale de la Butte" }] };
    const held = await admin("PATCH", "/api/admin/sheet", edit);
    expect(held.status).toBe(409);
    const body = await held.json();
    expect(body).toMatchObject({ error: "1 event renamed: review", needsConfirmation: true, review: { rowsRenamed: 1, rowsRemoved: 0 } });
    const after = await windowOf();
    expect(after.meta.revision).toBe(w.meta.revision);
    expect(idOf(after, "Sunset Set")).toBe(sunset);
    const ok = await admin("PATCH", "/api/admin/sheet", { ...edit, confirm: true });
    expect(ok.status).toBe(200);
    expect(await publishedTitles()).toContain("Chorale de la Butte");
  });

  test("ordinary edits (times, venues) and added rows publish with one click, as before", async () => {
    const w = await windowOf();
    await admin("PATCH", "/api/admin/sheet", {
      baseRevision: w.meta.revision,
      cells: [{ rowId: idOf(w, "Late Club"), key: "location", value: "Club Y" }],
      addRows: [{ values: { title: "Brand new", date: "2026-06-21" } }],
    });
    expect((await admin("POST", "/api/admin/sheet/publish")).status).toBe(200);
    expect(await publishedTitles()).toContain("Brand new");
  });

  test("the Publishing card states the renames and removals, and publishes them only with the box ticked (409 without)", async () => {
    await renameAndRemove();
    const before = await publishedTitles();
    const card = await (await ctx.request("/admin/content/publishing", { headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS } })).text();
    expect(card).toContain("2 events renamed, 1 removed: review");
    expect(card).toContain("<del>Sunset Set</del> → <ins>Chorale de la Butte</ins> <code>evt_aaaaaaaaaaaaaaaa</code>");
    expect(card).toContain("Morning Choir");
    expect(card).toMatch(/<input type="checkbox" name="confirm" value="1" required/);
    const form = (body: string) => ctx.request("/admin/content/publishing/publish", { method: "POST", headers: { ...ADMIN_KEY_HEADER, ...HTMX_HEADERS, "content-type": "application/x-www-form-urlencoded" }, body });
    const held = await form("");
    expect(held.status).toBe(409);
    expect(held.headers.get("hx-trigger")).toBeNull();
    expect(await held.text()).toContain("Nothing was published: 2 events renamed, 1 removed.");
    expect(await publishedTitles()).toEqual(before);
    const confirmed = await form("confirm=1");
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("hx-trigger")).toBe("sheet-published");
    expect(await publishedTitles()).toEqual(["Brass Band Canal", "Chorale de la Butte"]);
  });
});
