// The venue pins API (docs/live-events.md, "Pins in the console"), over HTTP on the embedded
// database (or TEST_DATABASE_URL): the list carries each venue's source, confidence and the
// outside-its-arrondissement flag; a pasted pin becomes `manual`, survives the warm-up, and the
// public map follows at once; bad input is a 4xx that changes nothing.

import { beforeAll, describe, expect, test } from "bun:test";
import { createClock, postJson, useTestApp } from "../helpers/app.ts";
import { ADMIN_KEY_HEADER } from "../helpers/auth.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { LOCATIONS_CACHE_VERSION, LOCATIONS_KV_KEY, type StoredLocation } from "../../src/lib/geocoding/location-cache.ts";

const AT = "2026-06-21T15:00:00Z";
const SHEET = [
  "Title,Date,Start Time,End Time,Location,Area,Categories,Price,Event Key",
  "Soirée Comptoir,2026-06-21,20:00,23:30,Le Comptoir Général,10,Jazz,Gratuit,evt_pin0000000000001",
  "Encore Comptoir,2026-06-22,20:00,23:30,Le Comptoir Général,10,Jazz,Gratuit,evt_pin0000000000002",
  "Bal égaré,2026-06-21,20:00,23:30,Bal Égaré,11,Pop,Gratuit,evt_pin0000000000003",
  "Chorale,2026-06-21,20:30,22:30,Square Charlemagne,4,Classique,Gratuit,evt_pin0000000000004",
].join("\n");

const ctx = useTestApp({ clock: createClock(AT), env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } });
const admin = (method: string, path: string, body?: unknown) => postJson(ctx, path, body ?? "", ADMIN_KEY_HEADER, method);
const venues = async () => (await (await admin("GET", "/api/admin/venues")).json()).venues as Array<Record<string, unknown>>;
const mapData = async (query: string) => (await (await ctx.request(`/?${query}&map=data`)).json()) as { venues: Array<{ venue: string; lat: number; lng: number; est: boolean }> };
const stored = async () => ((await ctx.deps.kv.get<{ locations: Record<string, StoredLocation> }>(LOCATIONS_KV_KEY))?.locations ?? {}) as Record<string, StoredLocation>;

beforeAll(async () => {
  const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "admin-upload", origin: "manual", now: ctx.clock.now() });
  if (!saved.ok) throw new Error(saved.error);
  const entry = (id: string, name: string, arrondissement: number, lat: number, lng: number): StoredLocation => ({ id, name, arrondissement, coordinates: { lat, lng }, confidence: 0.9, source: "geocoded", lastUpdated: AT });
  await ctx.deps.kv.set(LOCATIONS_KV_KEY, {
    version: LOCATIONS_CACHE_VERSION,
    lastUpdated: AT,
    locations: {
      "le_comptoir_général_10": entry("le_comptoir_général_10", "Le Comptoir Général", 10, 48.87165, 2.36535),
      // Geocoded to the Eiffel Tower: not in the 11th.
      "bal_égaré_11": entry("bal_égaré_11", "Bal Égaré", 11, 48.8584, 2.2945),
    },
  });
}, 60_000);

describe("GET /api/admin/venues", () => {
  test("needs an admin", async () => {
    expect((await ctx.request("/api/admin/venues")).status).toBe(401);
  });

  test("lists each venue once with source, confidence, event count and the outside flag (flagged first)", async () => {
    const list = await venues();
    expect(list.map((v) => [v.name, v.arrondissement, v.source, v.confidence, v.eventCount, v.outside])).toEqual([
      ["Bal Égaré", 11, "geocoded", 0.9, 1, true],
      ["Square Charlemagne", 4, "estimated", 0.5, 1, false],
      ["Le Comptoir Général", 10, "geocoded", 0.9, 2, false],
    ]);
  });
});

describe("PUT /api/admin/venues/:id/pin", () => {
  test("a pasted pin becomes manual, clears the flag, survives the warm-up, and the public map follows", async () => {
    const before = await mapData("arr=11");
    expect(before.venues[0]).toMatchObject({ venue: "Bal Égaré", lat: 48.8584, lng: 2.2945 });

    const res = await admin("PUT", `/api/admin/venues/${encodeURIComponent("bal_égaré_11")}/pin`, { coordinates: "48.86402, 2.37064" });
    expect(res.status).toBe(200);
    expect((await res.json()).venue).toMatchObject({ id: "bal_égaré_11", source: "manual", confidence: 1, outside: false, lat: 48.86402, lng: 2.37064 });

    // The homepage was dropped from the render cache: the map's JSON has the new pin.
    expect((await mapData("arr=11")).venues[0]).toMatchObject({ venue: "Bal Égaré", lat: 48.86402, lng: 2.37064, est: false });

    // A warm-up (as on publish) keeps the manual pin.
    await ctx.deps.events.warm({ retryFailed: true });
    expect((await stored())["bal_égaré_11"]).toMatchObject({ source: "manual", confidence: 1, coordinates: { lat: 48.86402, lng: 2.37064 } });
    expect((await venues()).find((v) => v.id === "bal_égaré_11")).toMatchObject({ source: "manual", outside: false });
  });

  test("an estimated venue can be pinned with numbers; its map marker stops being an estimate", async () => {
    const res = await admin("PUT", "/api/admin/venues/square_charlemagne_4/pin", { lat: 48.85395, lng: 2.36011 });
    expect(res.status).toBe(200);
    expect((await mapData("arr=4")).venues[0]).toMatchObject({ venue: "Square Charlemagne", est: false, lat: 48.85395 });
  });

  test("bad input is a 4xx and changes nothing", async () => {
    const before = await stored();
    const cases: Array<[string, unknown, number]> = [
      ["le_comptoir_général_10", { coordinates: "somewhere near the canal" }, 400],
      ["le_comptoir_général_10", { coordinates: "2.36535, 48.87165" }, 400], // swapped: not in Paris
      ["le_comptoir_général_10", { lat: "48.8", lng: 2.3 }, 400],
      ["le_comptoir_général_10", "not json", 400],
      ["le_comptoir_général_10", {}, 400],
      ["no_such_venue_10", { coordinates: "48.87, 2.36" }, 404],
    ];
    for (const [id, body, status] of cases) {
      const res = await admin("PUT", `/api/admin/venues/${encodeURIComponent(id)}/pin`, body);
      expect(res.status).toBe(status);
      const text = await res.text();
      expect(text).not.toContain("    at ");
    }
    expect(await stored()).toEqual(before);
    expect((await ctx.request("/api/admin/venues/le_comptoir_général_10/pin", { method: "PUT", body: JSON.stringify({ coordinates: "48.87, 2.36" }) })).status).toBe(401);
  });
});

describe("the Venue pins card of /admin/operations", () => {
  const form = (id: string, coordinates: string, htmx: boolean) =>
    ctx.request(`/admin/operations/venues/${encodeURIComponent(id)}/pin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...ADMIN_KEY_HEADER, ...(htmx ? { "HX-Request": "true" } : {}) },
      body: new URLSearchParams({ coordinates }).toString(),
    });

  test("lists the venues with source, confidence and the outside flag", async () => {
    const html = await (await ctx.request("/admin/operations", { headers: ADMIN_KEY_HEADER })).text();
    expect(html).toContain('id="venue-pins"');
    expect(html).toContain('data-venue-id="le_comptoir_général_10"');
    expect(html).toContain("48.87165, 2.36535");
  });

  test("a pasted pin from the card sets a manual pin (htmx answers the refreshed card; a plain post goes back to the page)", async () => {
    const htmx = await form("le_comptoir_général_10", "48.87172, 2.36541", true);
    expect(htmx.status).toBe(200);
    const card = await htmx.text();
    expect(card).toContain("Pin of Le Comptoir Général set to 48.87172, 2.36541 (manual)");
    expect((await stored())["le_comptoir_général_10"]).toMatchObject({ source: "manual", coordinates: { lat: 48.87172, lng: 2.36541 } });

    const plain = await form("le_comptoir_général_10", "48.8717, 2.3654", false);
    expect(plain.status).toBe(303);
    expect(plain.headers.get("location")).toBe("/admin/operations#venue-pins");
  });

  test("a bad paste changes nothing and says why", async () => {
    const before = await stored();
    const htmx = await form("le_comptoir_général_10", "canal", true);
    expect(await htmx.text()).toContain("Paste &quot;latitude, longitude&quot;");
    expect((await form("le_comptoir_général_10", "2.36, 48.87", false)).status).toBe(400);
    expect(await stored()).toEqual(before);
  });
});
