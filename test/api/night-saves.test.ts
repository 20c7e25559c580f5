// My-night saves at the HTTP boundary (docs/tracking.md, "My-night saves"): the save toggle's
// anonymous beacons (night_save / night_unsave on POST /api/track) make the cards' "N people saved
// this"; calendar downloads (calendar_sync) are counted apart; partner statistics show both.

import { beforeEach, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, TEST_AUTH_SECRET, postJson, useTestApp } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { signUserToken } from "../../src/lib/auth/user-token.ts";
import { SAVED_LINE_MIN_COUNT } from "../../src/lib/events/filter-match.ts";
import { PARTNER_CSV_COLUMNS } from "../../src/lib/partners/stats.ts";
import { RATE_LIMITS } from "../../src/lib/rate-limit/fixed-window.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await ctx.deps.tracking.flush();
  await resetDatabase(ctx.deps.database);
  await ctx.deps.invalidation.invalidate({ paths: ["/"] });
});

const EVENT = "evt_fixture000009";
let ipCounter = 0;
/** A fresh client IP per call, so the per-IP limit never interferes unless a test wants it. */
const freshIp = () => `198.19.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function beacon(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<void> {
  const res = await postJson(ctx, "/api/track", body, { "x-forwarded-for": freshIp(), ...headers });
  expect(res.status).toBe(202);
  expect(await res.json()).toEqual({ success: true });
}

async function beacons(eventKey: string, actionType: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await beacon({ eventKey, actionType, source: "save_button" });
}

async function engagementRows(): Promise<Record<string, unknown>[]> {
  await ctx.deps.tracking.flush();
  return ctx.deps.database.query(sql`select * from engagement_interactions order by id`);
}

/** The homepage after the beacons were written and the render cache invalidated. */
async function homepage(path = "/"): Promise<string> {
  await ctx.deps.tracking.flush();
  await ctx.deps.invalidation.invalidate({ paths: ["/"] });
  const res = await ctx.request(path);
  expect(res.status).toBe(200);
  return (await res.text()).replaceAll("&#x27;", "'");
}

/** The event modal of a homepage body (the page behind it has cards of its own). */
function modalOf(body: string): string {
  const start = body.indexOf('<dialog id="event-modal"');
  expect(start).toBeGreaterThan(-1);
  return body.slice(start, body.indexOf("</dialog>", start));
}

/** The card article of one event in a homepage body. */
function cardOf(body: string, eventKey: string): string {
  const at = body.indexOf(`data-event-key="${eventKey}"`);
  expect(at).toBeGreaterThan(-1);
  const start = body.lastIndexOf("<article", at);
  return body.slice(start, body.indexOf("</article>", at));
}

describe("the saved line counts My-night saves", () => {
  test(`night_save ×${SAVED_LINE_MIN_COUNT + 1} and night_unsave ×1 give "${SAVED_LINE_MIN_COUNT} people saved this" on the card; one less stays under the threshold`, async () => {
    // Saves − unsaves one under the threshold: no line on the card, the modal says it.
    await beacons(EVENT, "night_save", SAVED_LINE_MIN_COUNT);
    await beacons(EVENT, "night_unsave", 1);
    const under = SAVED_LINE_MIN_COUNT - 1;
    expect(cardOf(await homepage(), EVENT)).not.toContain("saved this");
    expect(modalOf(await homepage(`/?event=${EVENT}`))).toContain(`${under} people saved this`);

    // One more save passes the threshold.
    await beacons(EVENT, "night_save", 1);
    const card = cardOf(await homepage(), EVENT);
    expect(card).toContain(`${SAVED_LINE_MIN_COUNT} people saved this`);
    const body = (await (await ctx.request("/api/events")).json()) as { events: { eventKey: string; savedCount: number; calendarSyncCount: number }[] };
    expect(body.events.find((e) => e.eventKey === EVENT)).toMatchObject({ savedCount: SAVED_LINE_MIN_COUNT, calendarSyncCount: 0 });
  });

  test("calendar_sync beacons no longer move the line; they are worded apart in the modal", async () => {
    await beacons(EVENT, "night_save", SAVED_LINE_MIN_COUNT);
    for (let i = 0; i < 5; i++) await beacon({ eventKey: EVENT, actionType: "calendar_sync", sessionId: `cal-${i}`, source: "modal_calendar_sync" });
    for (let i = 0; i < 5; i++) await beacon({ eventKey: "evt_fixture000010", actionType: "calendar_sync", sessionId: `cal-${i}`, source: "modal_calendar_sync" });
    const body = await homepage();
    expect(cardOf(body, EVENT)).toContain(`${SAVED_LINE_MIN_COUNT} people saved this`);
    expect(body).not.toContain(`${SAVED_LINE_MIN_COUNT + 5} people saved this`);
    expect(cardOf(body, "evt_fixture000010")).not.toContain("saved this");
    const modal = modalOf(await homepage(`/?event=${EVENT}`));
    expect(modal).toContain(`${SAVED_LINE_MIN_COUNT} people saved this`);
    expect(modal).toContain("Added to a calendar 5 times");
    const other = modalOf(await homepage("/?event=evt_fixture000010"));
    expect(other).not.toContain("saved this");
    expect(other).toContain("Added to a calendar 5 times");
  });

  test("the French pages say the same count and word calendar additions apart", async () => {
    await beacons(EVENT, "night_save", SAVED_LINE_MIN_COUNT + 1);
    await beacons(EVENT, "night_unsave", 1);
    await beacon({ eventKey: EVENT, actionType: "calendar_sync", sessionId: "fr-1" });
    // The suite's root language is English (test/helpers/app.ts): French lives under /fr.
    expect(cardOf(await homepage("/fr/"), EVENT)).toContain(`${SAVED_LINE_MIN_COUNT} personnes l'ont enregistré`);
    const modal = modalOf(await homepage(`/fr/?event=${EVENT}`));
    expect(modal).toContain(`${SAVED_LINE_MIN_COUNT} personnes l'ont enregistré`);
    expect(modal).toContain("Ajouté une fois à un calendrier");
  });

  test("the count never goes below 0", async () => {
    await beacons(EVENT, "night_unsave", 2);
    await beacons(EVENT, "night_save", 1);
    await ctx.deps.tracking.flush();
    const { events } = await ctx.deps.events.load();
    expect(events.find((e) => e.eventKey === EVENT)?.savedCount).toBe(0);
    expect(modalOf(await homepage(`/?event=${EVENT}`))).not.toContain("saved this");
  });
});

describe("night_save and night_unsave rows are anonymous", () => {
  test("no session id, no path, no user, whatever the body and the cookie say", async () => {
    const { token } = await signUserToken(TEST_AUTH_SECRET, "visitor@example.com", ctx.clock.now());
    const cookie = { cookie: `finder_user_session=${token}` };
    await beacon({ eventKey: ` ${EVENT.toUpperCase()} `, actionType: "night_save", sessionId: "s-123", source: "save_button", path: "/my-night?e=evt_fixture000009,evt_fixture000010" }, cookie);
    await beacon({ eventKey: EVENT, actionType: "night_unsave", sessionId: "s-123", source: "save_button", path: "/" }, cookie);
    await beacon({ eventKey: EVENT, actionType: "click", sessionId: "s-123", path: "/" }, cookie);
    const rows = await engagementRows();
    expect(rows.map((r) => [r.action_type, r.event_key, r.session_id, r.path, r.is_authenticated, r.user_email, r.source])).toEqual([
      ["night_save", EVENT, null, null, false, null, "save_button"],
      ["night_unsave", EVENT, null, null, false, null, "save_button"],
      // Other actions keep what they always stored.
      ["click", EVENT, "s-123", "/", true, "visitor@example.com", null],
    ]);
  });

  test("bad bodies are refused with nothing stored: unknown action, oversized or unknown key, wrong types", async () => {
    for (const body of [
      { eventKey: EVENT, actionType: "night_toggle" },
      { eventKey: EVENT, actionType: "NIGHT_SAVE" },
      { eventKey: "e".repeat(221), actionType: "night_save" },
      { eventKey: "evt_unknown000000", actionType: "night_save" },
      { eventKey: "", actionType: "night_unsave" },
      { eventKey: [EVENT], actionType: "night_save" },
      { eventKey: EVENT, actionType: "night_save", source: "s".repeat(81) },
      { eventKey: EVENT, actionType: "night_save", sessionId: 42 },
    ]) {
      await beacon(body);
    }
    const res = await postJson(ctx, "/api/track", "{not json", { "x-forwarded-for": freshIp() });
    expect(res.status).toBe(202);
    expect(await engagementRows()).toEqual([]);
  });

  test("rate-limited per IP like every engagement beacon", async () => {
    const ip = { "x-forwarded-for": "198.51.100.77" };
    const limit = RATE_LIMITS.trackEventIp.limit;
    for (let i = 0; i < limit + 5; i++) await beacon({ eventKey: EVENT, actionType: i % 2 ? "night_unsave" : "night_save" }, ip);
    expect(await engagementRows()).toHaveLength(limit);
  });
});

describe("partner statistics show My-night saves and calendar additions apart", () => {
  const KEY = { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json" };

  test("the API, the page and the CSV (its new last column)", async () => {
    ctx.clock.set("2026-06-18T10:00:00Z");
    const res = await ctx.request("/api/admin/orders/test", { method: "POST", headers: KEY, body: JSON.stringify({ eventKey: "evt_fixture000001", tier: "spotlight", startAt: "2026-06-18T12:00", durationHours: 24 }) });
    const json = (await res.json()) as { order: { id: string }; statsUrl: string };
    const id = json.order.id;
    const token = new URL(json.statsUrl).searchParams.get("token")!;
    ctx.clock.set("2026-06-18T11:00:00Z");
    await beacons("evt_fixture000001", "night_save", 3);
    await beacons("evt_fixture000001", "night_unsave", 1);
    for (let i = 0; i < 4; i++) await beacon({ eventKey: "evt_fixture000001", actionType: "calendar_sync", sessionId: `p-${i % 2}` });
    await beacon({ eventKey: "evt_fixture000001", actionType: "click", sessionId: "p-0" });
    await ctx.deps.tracking.flush();
    ctx.clock.set("2026-06-18T12:00:00Z");

    const api = (await (await ctx.request(`/api/partner-stats/${id}?token=${token}`)).json()) as { data: { metrics: Record<string, number> } };
    expect(api.data.metrics).toMatchObject({ myNightSaveCount: 2, calendarSyncCount: 4, clickCount: 1, uniqueSessionCount: 2 });

    const html = await (await ctx.request(`/partner-stats/${id}?token=${token}`)).text();
    expect(html).toContain('<span class="stat-value">2</span><span class="stat-label">My-night saves</span>');
    expect(html).toContain('<span class="stat-value">4</span><span class="stat-label">Calendar additions</span>');

    const csv = Papa.parse<string[]>((await (await ctx.request(`/api/partner-stats/${id}?token=${token}&format=csv`)).text()).trimEnd());
    expect(csv.data[0]).toEqual([...PARTNER_CSV_COLUMNS]);
    expect(csv.data[0]!.slice(0, 17)).toEqual([
      "activation_id",
      "event_key",
      "event_name",
      "tier",
      "start_at",
      "end_at",
      "views",
      "outbound_clicks",
      "calendar_syncs",
      "unique_sessions",
      "unique_view_sessions",
      "unique_outbound_sessions",
      "unique_calendar_sessions",
      "outbound_session_rate",
      "calendar_session_rate",
      "outbound_interaction_rate",
      "calendar_interaction_rate",
    ]);
    expect(csv.data[0]!.at(-1)).toBe("my_night_saves");
    const row = Object.fromEntries(csv.data[0]!.map((name, i) => [name, csv.data[1]![i]]));
    expect(row).toMatchObject({ calendar_syncs: "4", my_night_saves: "2", views: "1" });
  });
});
