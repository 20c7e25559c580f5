// Starting the next edition (docs/editions.md, "Rollover"), through the admin API on 7 December
// 2026: the published 2026 sheet is archived as it was, the working sheet holds only the rows
// carried over (re-dated by a year's distance between the nights, new keys, drafts), the public
// site lists 2027 only, /2026/ lists exactly what was published, share links to 2026 events open
// over the archive, a 2026 partner link still answers, a second start is refused and writes
// nothing, and the pre-rollover backup restores 2026.

import { beforeEach, describe, expect, test } from "bun:test";
import { createClock, TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { FIXTURE_SHEET_CSV } from "../../src/lib/events/fixtures.ts";
import { editionArchives, eventStoreRows } from "../../src/lib/db/schema/index.ts";

const clock = createClock("2026-06-18T10:00:00Z");
const ctx = useTestApp({ clock, env: { DATA_MODE: "remote" } });
const KEY = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };

const keysOn = (html: string) => [...new Set([...html.matchAll(/data-event-key="(evt_[a-z0-9]+)"/g)].map((m) => m[1]!))].sort();
const api = async (path: string, body?: unknown) => {
  const res = await ctx.request(path, body === undefined ? { headers: KEY } : { method: "POST", headers: KEY, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  clock.set("2026-06-18T10:00:00Z");
  const saved = await saveStoreSheet(ctx.deps.db, FIXTURE_SHEET_CSV, { updatedBy: "admin-upload", origin: "manual", now: clock.now(), trigger: "upload" });
  if (!saved.ok) throw new Error(saved.error);
  ctx.deps.renderCache.invalidate({ paths: ["/"], tags: ["live-events", "editions"] });
});

describe("starting the 2027 edition", () => {
  test("archives 2026 as published, opens 2027 with the carried rows as drafts, and keeps 2026 reachable", async () => {
    // A partner link of a 2026 activation, made during the festival.
    const order = await api("/api/admin/orders/test", { eventKey: "evt_fixture000001", tier: "spotlight", startAt: "2026-06-18T12:00", durationHours: 24 });
    expect(order.status).toBe(201);
    const statsUrl = new URL(order.body.statsUrl as string);

    clock.set("2026-12-07T12:00:00Z");
    const published = keysOn(await (await ctx.request("/2026/")).text());
    expect(published.length).toBeGreaterThan(5);
    const sheet = await api("/api/admin/sheet?offset=0&limit=200");
    const rows = sheet.body.rows as { id: string; cells?: Record<string, string>; values?: Record<string, string> }[];
    const carry = rows.slice(0, 2).map((row) => row.id);

    const started = await api("/api/admin/editions/start", { year: 2027, carryOver: carry });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ success: true, year: 2027, archived: { year: 2026, rowCount: rows.length }, carried: 2 });

    // Once only: a second start answers 409 and writes nothing.
    const again = await api("/api/admin/editions/start", { year: 2027, carryOver: [] });
    expect(again.status).toBe(409);
    expect(await ctx.deps.db.select().from(eventStoreRows)).toHaveLength(2);
    expect(await ctx.deps.db.select({ year: editionArchives.year }).from(editionArchives)).toEqual([{ year: 2026 }]);

    // The carried rows: dated in June 2027, with new keys, not published.
    const working = (await ctx.deps.db.select().from(eventStoreRows)).map((row) => row.rowData);
    for (const values of working) {
      expect(values.date).toMatch(/^2027-06-/);
      expect(published).not.toContain(values.eventKey);
    }
    const home = await (await ctx.request("/fr/?dn=day")).text();
    expect(keysOn(home)).toEqual([]);
    expect(home).toContain("Prochaine édition : lundi 21 juin 2027");

    // The archive lists exactly what was published; a share link to a 2026 event opens over it.
    expect(keysOn(await (await ctx.request("/2026/?q=")).text())).toEqual(published);
    const share = await ctx.request(`/event/${published[0]}/x`, { redirect: "manual" });
    expect(share.status).toBe(307);
    expect(share.headers.get("location")).toBe(`/2026/?event=${published[0]}`);
    const opened = await (await ctx.request(share.headers.get("location")!)).text();
    expect(opened).toContain('<dialog id="event-modal"');
    expect(opened).toContain("Finished");
    expect(opened).not.toContain("Add to Calendar");

    // The partner link of 2026 still answers.
    expect((await ctx.request(`${statsUrl.pathname}${statsUrl.search}`)).status).toBe(200);

    // The snapshot taken first restores 2026 (store and published sheet).
    const backups = await api("/api/admin/backups");
    const pre = (backups.body.backups as { id: string; trigger: string; rowCount: number }[]).find((b) => b.trigger === "pre-rollover") ?? backups.body.backups[0];
    expect(pre.rowCount).toBe(rows.length);
    const restored = await api("/api/admin/backups/restore", { id: pre.id });
    expect(restored.status).toBe(200);
    expect(await ctx.deps.db.select().from(eventStoreRows)).toHaveLength(rows.length);
  });

  test("an accepted 2027 submission lands in the new edition's sheet and is the only event on /", async () => {
    clock.set("2026-12-07T12:00:00Z");
    expect((await api("/api/admin/editions/start", { year: 2027 })).status).toBe(200);
    const submitted = await ctx.request("/api/event-submissions?lang=en", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ eventName: "Canal Opening Night", date: "2027-06-21", startTime: "20:00", location: "Quai de Valmy", hostEmail: "host@example.com", proofLink: "https://example.com/e", formStartedAt: "2026-12-07T11:55:00.000Z" }),
    });
    expect(submitted.status).toBe(200);
    const list = await api("/api/admin/submissions?status=pending");
    const id = list.body.submissions[0].id as string;
    const accepted = await api(`/api/admin/submissions/${id}/accept`, {});
    expect(accepted.status).toBe(200);
    const home = await (await ctx.request("/?dn=night")).text();
    expect(home).toContain("Canal Opening Night");
    expect(keysOn(home)).toHaveLength(1);
  });

  test.each([
    [{ year: 2026 }, 400],
    [{ year: 2028 }, 400],
    [{ year: "soon" }, 400],
    [{ year: 2027, carryOver: ["not-a-row"] }, 400],
    [{ year: 2027, carryOver: "x".repeat(10) }, 400],
    [{ year: 2027, wipe: true }, 400],
  ])("%j is refused with %d and archives nothing", async (body, status) => {
    clock.set("2026-12-07T12:00:00Z");
    expect((await api("/api/admin/editions/start", body)).status).toBe(status);
    expect(await ctx.deps.db.select().from(editionArchives)).toEqual([]);
  });

  test("during the edition's window it cannot be started", async () => {
    clock.set("2026-06-20T12:00:00Z");
    expect((await api("/api/admin/editions/start", { year: 2026 })).status).toBe(400);
    expect(await ctx.deps.db.select().from(editionArchives)).toEqual([]);
  });
});
