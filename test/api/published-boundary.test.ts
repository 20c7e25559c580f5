// The published boundary through HTTP: an autosave stays a draft on every public read (a new
// filter query, the modal and its preview image, /api/events, the .ics, another instance's reads),
// a publish shows it on all of them, a publish the schema gate refuses changes nothing, discarding
// puts the drafts back, and accepting a submission or setting a status publishes only itself.
// The other instance is not told of this one's invalidations: its misses show a publish once its
// last read is READ_REUSE_MS old (docs/live-events.md, "What a read costs").

import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import ICAL from "ical.js";
import { HTMX_HEADERS, postJson, type TestContext, useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { submitEvent } from "../../src/lib/submissions/submit.ts";
import { READ_REUSE_MS } from "../../src/lib/events/pipeline.ts";

const SHEET = [
  "Title,Date,Start Time,End Time,Location,Area,Categories,Event Key",
  "Sunset Set,2026-06-21,18:00,22:00,Quai de Valmy,10,House,evt_aaaaaaaaaaaaaaaa",
  "Late Club,2026-06-21,23:00,03:00,Club X,11,Techno,evt_bbbbbbbbbbbbbbbb",
  "Morning Choir,2026-06-21,09:00,10:00,Parvis,4,Classical,evt_cccccccccccccccc",
].join("\n");

const ctx = useTestApp({ env: { DATA_MODE: "remote" } });
// A second instance over the same database: its own reader and render cache.
const other = useTestApp({ env: { DATA_MODE: "remote" }, keepData: true });

beforeEach(async () => {
  await ctx.deps.database.query(sql`truncate event_store_rows, event_store_columns, event_store_meta, event_store_revisions, event_store_backups, event_store_published, event_submissions cascade`);
  ctx.clock.set("2026-06-18T10:00:00Z");
  other.clock.set("2026-06-18T10:00:00Z");
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "system", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
  await ctx.deps.invalidation.invalidate({ paths: ["/"], tags: ["live-events"] });
});

const admin = (method: string, path: string, body?: unknown) => postJson(ctx, path, body, ADMIN_KEY_HEADER, method);
/** A homepage results fragment for a search (each test names searches no cache holds yet). */
const freshSearch = async (app: TestContext, q: string) => {
  const res = await app.request(`/?q=${encodeURIComponent(q)}`, { headers: HTMX_HEADERS });
  expect(res.status).toBe(200);
  return res.text();
};
const apiEvent = async (app: TestContext, key: string) => {
  const body = (await (await app.request("/api/events")).json()) as { events: { eventKey: string; eventName: string; time?: string; status: string }[] };
  return body.events.find((e) => e.eventKey === key);
};
const rowId = async (title: string): Promise<{ id: string; revision: number }> => {
  const sheet = await (await admin("GET", "/api/admin/sheet")).json();
  return { id: sheet.rows.find((r: { values: Record<string, string> }) => r.values.title === title).id, revision: sheet.meta.revision };
};
const calendar = async (app: TestContext, key: string) => {
  const res = await app.request(`/api/events/${key}/calendar.ics`);
  expect(res.status).toBe(200);
  return new ICAL.Component(ICAL.parse(await res.text())).getFirstSubcomponent("vevent")!;
};

describe("the published boundary", () => {
  test("an autosave stays a draft on every public read; publishing shows it on all of them", async () => {
    const { id, revision } = await rowId("Sunset Set");
    const saved = await admin("PATCH", "/api/admin/sheet", { baseRevision: revision, cells: [{ rowId: id, key: "title", value: "Sunset Draft" }, { rowId: id, key: "startTime", value: "19:30" }] });
    expect(saved.status).toBe(200);

    // Every public read still shows the published row.
    expect((await apiEvent(ctx, "evt_aaaaaaaaaaaaaaaa"))?.eventName).toBe("Sunset Set");
    expect(await freshSearch(ctx, "draft")).not.toContain("Sunset Draft");
    expect(await freshSearch(ctx, "sunset")).toContain("Sunset Set");
    const modal = await (await ctx.request("/?event=evt_aaaaaaaaaaaaaaaa")).text();
    expect(modal).toContain("Sunset Set");
    expect(modal).not.toContain("Sunset Draft");
    const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(modal)?.[1] ?? "";
    expect(new URL(ogImage.replaceAll("&amp;", "&")).searchParams.get("title")).toBe("Sunset Set");
    const draftCalendar = await calendar(ctx, "evt_aaaaaaaaaaaaaaaa");
    expect(draftCalendar.getFirstPropertyValue("summary")).toBe("Sunset Set");
    const sequenceBefore = Number(draftCalendar.getFirstPropertyValue("sequence"));
    expect(await freshSearch(other, "raft")).not.toContain("Sunset Draft");
    expect((await apiEvent(other, "evt_aaaaaaaaaaaaaaaa"))?.eventName).toBe("Sunset Set");

    // The console counts the draft and shows what it changes.
    const unpublished = await (await admin("GET", "/api/admin/sheet/unpublished")).json();
    expect(unpublished).toMatchObject({ success: true, total: 1, rowsChanged: 1, rowsAdded: 0, rowsDeleted: 0 });
    expect(unpublished.rows[0].cells.map((c: { key: string; before: string; after: string }) => [c.key, c.before, c.after])).toEqual([
      ["title", "Sunset Set", "Sunset Draft"],
      ["startTime", "18:00", "19:30"],
    ]);

    ctx.clock.set("2026-06-18T12:05:00Z");
    // The title changed under its kept key: publishing it needs the second confirmation.
    expect((await admin("POST", "/api/admin/sheet/publish")).status).toBe(409);
    expect((await apiEvent(ctx, "evt_aaaaaaaaaaaaaaaa"))?.eventName).toBe("Sunset Set");
    const published = await admin("POST", "/api/admin/sheet/publish", { confirm: true });
    expect(published.status).toBe(200);
    expect((await apiEvent(ctx, "evt_aaaaaaaaaaaaaaaa"))?.eventName).toBe("Sunset Draft");
    expect(await freshSearch(ctx, "draft")).toContain("Sunset Draft");
    expect(await (await ctx.request("/?event=evt_aaaaaaaaaaaaaaaa")).text()).toContain("Sunset Draft");
    const after = await calendar(ctx, "evt_aaaaaaaaaaaaaaaa");
    expect(after.getFirstPropertyValue("summary")).toBe("Sunset Draft");
    expect(Number(after.getFirstPropertyValue("sequence"))).toBeGreaterThan(sequenceBefore);
    // The other instance (its own render cache, not told of this one's invalidations) may serve
    // its misses from the read it made just now for READ_REUSE_MS; from then on they read the store.
    other.clock.advance(READ_REUSE_MS);
    expect(await freshSearch(other, "draf")).toContain("Sunset Draft");
    // The time moved after the first publish: the row is marked updated (Paris time of the publish).
    const fragment = await freshSearch(ctx, "draft");
    expect(fragment).toContain("Updated 14:05");
    expect((await (await admin("GET", "/api/admin/sheet/unpublished")).json()).total).toBe(0);
  });

  test("a publish the schema gate refuses changes nothing and says why", async () => {
    const sheet = await (await admin("GET", "/api/admin/sheet")).json();
    const emptied = await admin("PATCH", "/api/admin/sheet", { baseRevision: sheet.meta.revision, deleteRowIds: sheet.rows.map((r: { id: string }) => r.id) });
    expect(emptied.status).toBe(200);
    const refused = await admin("POST", "/api/admin/sheet/publish");
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/row/i);
    expect((await apiEvent(ctx, "evt_bbbbbbbbbbbbbbbb"))?.eventName).toBe("Late Club");
    expect((await (await admin("GET", "/api/admin/sheet/unpublished")).json()).rowsDeleted).toBe(3);
  });

  test("discarding puts the working sheet back to the published one", async () => {
    const { id, revision } = await rowId("Late Club");
    await admin("PATCH", "/api/admin/sheet", { baseRevision: revision, cells: [{ rowId: id, key: "location", value: "Nowhere" }], addRows: [{ values: { title: "Half typed", date: "2026-06-2" } }] });
    expect((await (await admin("GET", "/api/admin/sheet/unpublished")).json()).total).toBe(2);
    const discarded = await (await admin("POST", "/api/admin/sheet/discard")).json();
    expect(discarded).toEqual({ success: true, discarded: 2 });
    const sheet = await (await admin("GET", "/api/admin/sheet")).json();
    expect(sheet.rows.map((r: { values: Record<string, string> }) => r.values.title)).toEqual(["Sunset Set", "Late Club", "Morning Choir"]);
    expect(sheet.rows.find((r: { id: string }) => r.id === id).values.location).toBe("Club X");
    expect((await (await admin("GET", "/api/admin/sheet/unpublished")).json()).total).toBe(0);
  });

  test("accepting a submission while drafts are pending publishes the submission only", async () => {
    const { id, revision } = await rowId("Morning Choir");
    await admin("PATCH", "/api/admin/sheet", { baseRevision: revision, cells: [{ rowId: id, key: "title", value: "Choir (draft)" }] });
    const outcome = await submitEvent(
      ctx.deps,
      { eventName: "Rooftop Session", date: "2026-06-21", startTime: "19:00", endTime: "23:30", location: "Le Toit", hostEmail: "host@example.com", proofLink: "rooftop.example/1", genre: "House", price: "10", age: "18+", indoorOutdoor: "Outdoor", arrondissement: "20", notes: "" },
      "192.0.2.10",
    );
    if (outcome.kind !== "received") throw new Error(outcome.kind);
    const accepted = await admin("POST", `/api/admin/submissions/${outcome.id}/accept`, {});
    expect(accepted.status).toBe(200);
    const { eventKey } = await accepted.json();
    const names = ((await (await ctx.request("/api/events")).json()) as { events: { eventName: string; eventKey: string }[] }).events.map((e) => e.eventName);
    expect(names).toContain("Rooftop Session");
    expect(names).toContain("Morning Choir");
    expect(names).not.toContain("Choir (draft)");
    expect((await apiEvent(ctx, eventKey))?.eventName).toBe("Rooftop Session");
    // The draft is still a draft, and only it.
    expect((await (await admin("GET", "/api/admin/sheet/unpublished")).json()).total).toBe(1);
  });

  test("a status set from the console is public at once, alone; the calendar entry is cancelled with a higher SEQUENCE", async () => {
    const { id, revision } = await rowId("Late Club");
    await admin("PATCH", "/api/admin/sheet", { baseRevision: revision, cells: [{ rowId: id, key: "startTime", value: "23:45" }] });
    const before = Number((await calendar(ctx, "evt_bbbbbbbbbbbbbbbb")).getFirstPropertyValue("sequence"));
    const set = await admin("POST", "/api/admin/events/status", { event: "Late Club", status: "cancelled", note: "Power cut at the venue" });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ success: true, eventKey: "evt_bbbbbbbbbbbbbbbb", status: "cancelled", note: "Power cut at the venue" });
    const event = await apiEvent(ctx, "evt_bbbbbbbbbbbbbbbb");
    expect(event).toMatchObject({ status: "cancelled", statusNote: "Power cut at the venue", time: "23:00" });
    const vevent = await calendar(ctx, "evt_bbbbbbbbbbbbbbbb");
    expect(vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(Number(vevent.getFirstPropertyValue("sequence"))).toBeGreaterThan(before);
    expect(String(vevent.getFirstPropertyValue("description"))).toStartWith("Cancelled: Power cut at the venue");
    // The feed carries it too, and the cancelled event is listed last, struck through.
    const feed = new ICAL.Component(ICAL.parse(await (await ctx.request("/calendar.ics")).text()));
    const cancelled = feed.getAllSubcomponents("vevent").find((v) => String(v.getFirstPropertyValue("uid")).startsWith("evt_bbbbbbbbbbbbbbbb@"));
    expect(cancelled?.getFirstPropertyValue("status")).toBe("CANCELLED");
    const list = (await freshSearch(ctx, "")).split('id="result-count"')[0];
    const keys = [...list.matchAll(/<article[^>]*data-event-key="(evt_[a-z0-9]+)"/g)].map((m) => m[1]);
    expect(keys.at(-1)).toBe("evt_bbbbbbbbbbbbbbbb");
    expect(list).toMatch(/class="card [^"]*card-status-cancelled[^"]*"/);
    // The start-time draft stays a draft.
    expect((await (await admin("GET", "/api/admin/sheet/unpublished")).json()).total).toBe(1);

    const bad = await admin("POST", "/api/admin/events/status", { event: "Late Club", status: "postponed", note: 3 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).issues.map((i: { field: string }) => i.field)).toEqual(["status", "note"]);
    expect((await admin("POST", "/api/admin/events/status", { event: "evt_ffffffffffffffff", status: "full" })).status).toBe(404);
    expect((await ctx.request("/api/admin/events/status", { method: "POST", body: "{}" })).status).toBe(401);
  });
});
