import { beforeEach, describe, expect, test } from "bun:test";
import { TEST_ADMIN_KEY, useTestApp, HTMX_HEADERS, postJson } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { INVALID_SCHEDULE_TIME } from "../../src/lib/placements/schedule-input.ts";
import { loginAsAdmin } from "../helpers/auth.ts";

const ctx = useTestApp();
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = { "x-admin-key": TEST_ADMIN_KEY };

async function call(method: string, path: string, body?: unknown) {
  const res = await postJson(ctx, path, body, KEY, method);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const schedule = (tier: string, body: unknown) => call("POST", `/api/admin/placements/${tier}`, body);
const list = (tier: string) => call("GET", `/api/admin/placements/${tier}`);

describe("placements API", () => {
  test("needs an admin credential; answers no-store", async () => {
    const res = await ctx.request("/api/admin/placements/spotlight");
    expect(res.status).toBe(401);
    const ok = await list("spotlight");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toContain("no-store");
    expect(ok.body).toMatchObject({ success: true, entries: [], activeCount: 0, slots: 3 });
  });

  test("4 spotlight entries on 3 slots: the fourth queues (queue position 1) behind the first to end", async () => {
    const keys = ["evt_fixture000001", "evt_fixture000002", "evt_fixture000003", "evt_fixture000004"];
    const durations = [48, 24, 12, 10];
    for (let i = 0; i < 4; i++) {
      const res = await schedule("spotlight", { eventKey: keys[i], durationHours: durations[i] });
      expect(res.status).toBe(201);
      ctx.clock.advance(1000);
    }
    ctx.clock.set("2026-06-18T10:00:05Z");
    const { body } = await list("spotlight");
    expect(body.activeCount).toBe(3);
    const byKey = Object.fromEntries(body.entries.map((e: any) => [e.eventKey, e]));
    expect(byKey.evt_fixture000004).toMatchObject({ state: "upcoming", queuePosition: 1, slot: 3, effectiveStartAt: "2026-06-18T22:00:02.000Z", durationHours: 10 });
    expect(byKey.evt_fixture000001).toMatchObject({ state: "active", slot: 1, queuePosition: null });
  });

  test("created by names the acting admin as every admin endpoint does: the session's jti, or admin-key", async () => {
    await schedule("promoted", { eventKey: "evt_fixture000001" });
    const { token, jti } = await loginAsAdmin(ctx);
    const bySession = await postJson(ctx, "/api/admin/placements/promoted", { eventKey: "evt_fixture000002" }, { authorization: `Bearer ${token}` });
    expect(bySession.status).toBe(201);
    const { body } = await list("promoted");
    const byKey = Object.fromEntries(body.entries.map((e: any) => [e.eventKey, e.createdBy]));
    expect(byKey).toEqual({ evt_fixture000001: "admin-key", evt_fixture000002: jti });
  });

  test("/feature-event's status shows the real slots and the queue, and is revalidated by a change", async () => {
    const status = () => ctx.request("/feature-event/status", { headers: HTMX_HEADERS }).then((r) => r.text());
    expect(await status()).toContain("3/3 spotlight slots left");
    for (const key of ["evt_fixture000001", "evt_fixture000002", "evt_fixture000003", "evt_fixture000004"]) await schedule("spotlight", { eventKey: key });
    const html = await status();
    expect(html).toContain("0/3 spotlight slots left");
    expect(html).toContain("Canal Amapiano Sunset");
    expect(html).toContain("1 spotlight booked ahead; the next starts 20/06/2026, 12:00 (Paris time).");
  });

  test("cancel frees the slot for the queue; reschedule and clear actions", async () => {
    const ids: string[] = [];
    for (const key of ["evt_fixture000001", "evt_fixture000002", "evt_fixture000003", "evt_fixture000004"]) {
      ids.push((await schedule("spotlight", { eventKey: key })).body.entry.id);
    }
    const cancelled = await call("POST", `/api/admin/placements/spotlight/${ids[1]}/cancel`);
    expect(cancelled.status).toBe(200);
    const queued = cancelled.body.entries.find((e: any) => e.id === ids[3]);
    expect(queued).toMatchObject({ state: "active", slot: 2, effectiveStartAt: "2026-06-18T10:00:00.000Z" });
    expect((await call("POST", `/api/admin/placements/spotlight/${ids[1]}/cancel`)).status).toBe(409);

    // Reschedule a started entry to the evening (Paris time): it leaves its slot and starts then.
    const moved = await call("POST", `/api/admin/placements/spotlight/${ids[0]}/reschedule`, { startAt: "2026-06-18T20:00", durationHours: 6 });
    expect(moved.status).toBe(200);
    expect(moved.body.entries.find((e: any) => e.id === ids[0])).toMatchObject({ state: "upcoming", effectiveStartAt: "2026-06-18T18:00:00.000Z", effectiveEndAt: "2026-06-19T00:00:00.000Z", durationHours: 6 });

    const cleared = await call("POST", "/api/admin/placements/spotlight/clear-queue");
    expect(cleared.body.deleted).toBe(1);
    const history = await call("POST", "/api/admin/placements/spotlight/clear-history");
    expect(history.body.deleted).toBe(1);
    expect(history.body.entries).toHaveLength(2);
  });

  test("entries move to completed once ended, then recent-ended for 48 h", async () => {
    await schedule("promoted", { eventKey: "evt_fixture000005", durationHours: 2 });
    ctx.clock.advance(3 * 3_600_000);
    expect((await list("promoted")).body.entries[0]).toMatchObject({ status: "completed", state: "recent-ended" });
    ctx.clock.advance(48 * 3_600_000);
    expect((await list("promoted")).body.entries[0]).toMatchObject({ status: "completed", state: "completed" });
  });

  test("promoted is unlimited: ten entries at once are all active", async () => {
    for (let i = 0; i < 10; i++) expect((await schedule("promoted", { eventKey: "evt_fixture000006", startAt: "" })).status).toBe(201);
    const { body } = await list("promoted");
    expect(body.activeCount).toBe(10);
    expect(body.slots).toBeNull();
  });

  test("bad input: 400 with issues, nothing stored", async () => {
    const bad: [unknown, string][] = [
      [{ eventKey: "evt_nope" }, "Unknown event"],
      [{ eventKey: "" }, "Event key is required"],
      [{ eventKey: 42 }, "Event key is required"],
      [{ eventKey: "evt_fixture000001", durationHours: "abc" }, "Duration must be a number of hours between 1 and 168"],
      [{ eventKey: "evt_fixture000001", startAt: "2027-03-28T02:30" }, INVALID_SCHEDULE_TIME],
      [{ eventKey: "evt_fixture000001", startAt: "tomorrow" }, INVALID_SCHEDULE_TIME],
      [{ eventKey: "evt_fixture000001", startAt: "9999-01-01T00:00:00Z" }, INVALID_SCHEDULE_TIME],
      ["not json", "Invalid request payload"],
      [[1, 2], "Invalid request payload"],
    ];
    for (const [body, error] of bad) {
      const res = await schedule("spotlight", body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
    }
    expect((await schedule("featured", { eventKey: "evt_fixture000001" })).status).toBe(404);
    expect((await call("POST", "/api/admin/placements/spotlight/not-a-uuid/cancel")).status).toBe(404);
    expect((await call("POST", "/api/admin/placements/spotlight/00000000-0000-4000-8000-000000000000/reschedule", { startAt: "2026-06-19T10:00" })).status).toBe(404);
    expect((await call("POST", "/api/admin/placements/spotlight/00000000-0000-4000-8000-000000000000/reschedule", {})).status).toBe(400);
    expect((await list("spotlight")).body.entries).toHaveLength(0);
  });

  test("durations are rounded and clamped: 0 → 1 h, 169 → 168 h; a past start is stored as now; keys match case-insensitively", async () => {
    const a = await schedule("promoted", { eventKey: "EVT_FIXTURE000001", durationHours: 0, startAt: "2026-06-01T10:00:00Z" });
    expect(a.body.entry).toMatchObject({ eventKey: "evt_fixture000001", durationHours: 1, requestedStartAt: "2026-06-18T10:00:00.000Z" });
    // A week from June 18 runs past the event's day: confirmed here.
    const b = await schedule("promoted", { eventKey: "evt_fixture000001", durationHours: 169, confirm: true });
    expect(b.body.entry.durationHours).toBe(168);
  });

  test("an event by its title or venue (accents and case ignored); an ambiguous name lists the candidates; unknown is a 400", async () => {
    const byTitle = await schedule("promoted", { eventKey: "trocadero pop choir", durationHours: 4 });
    expect(byTitle.status).toBe(201);
    expect(byTitle.body.entry.eventKey).toBe("evt_fixture000010");
    const byVenue = await schedule("promoted", { eventKey: "Club Roquette", durationHours: 4 });
    expect(byVenue.body.entry.eventKey).toBe("evt_fixture000005");
    const ambiguous = await schedule("promoted", { eventKey: "Belleville Rooftop", durationHours: 4 });
    expect(ambiguous.status).toBe(201);
    // "des" is in two venues: Café des Archives and Square des Batignolles.
    const several = await schedule("promoted", { eventKey: "des", durationHours: 4 });
    expect(several.status).toBe(400);
    expect(several.body.error).toBe("2 events match “des”: “Marais Jazz-Funk Brunch” (evt_fixture000003), “Batignolles Sound Garden” (evt_fixture000006). Pick one from the suggestions.");
    expect(several.body.issues[0].field).toBe("eventKey");
    expect((await schedule("promoted", { eventKey: "Nowhere Fest", durationHours: 4 })).body.error).toBe("Unknown event");
  });

  test("a placement running past the event's last day, or for an event that has ended, needs confirm; with it, it is scheduled", async () => {
    // Jazz-Funk Brunch is on June 20 (Paris); 48 h from June 18 10:00 UTC runs into June 20 and stops before its end.
    expect((await schedule("spotlight", { eventKey: "evt_fixture000003", durationHours: 48 })).status).toBe(201);
    const past = await schedule("spotlight", { eventKey: "evt_fixture000003", durationHours: 72 });
    expect(past.status).toBe(400);
    expect(past.body.error).toBe("The placement would run until 21/06/2026, 12:00, after “Marais Jazz-Funk Brunch” (evt_fixture000003) ends (2026-06-20): confirm to schedule it anyway.");
    expect(past.body.issues).toEqual([{ field: "confirm", message: past.body.error }]);
    expect((await schedule("spotlight", { eventKey: "evt_fixture000003", durationHours: 72, confirm: true })).status).toBe(201);
    ctx.clock.set("2026-06-22T10:00:00Z");
    const ended = await schedule("promoted", { eventKey: "evt_fixture000003", durationHours: 4 });
    expect(ended.status).toBe(400);
    expect(ended.body.error).toBe("“Marais Jazz-Funk Brunch” (evt_fixture000003) ended on 2026-06-20: confirm to schedule it anyway.");
    expect((await schedule("promoted", { eventKey: "evt_fixture000003", durationHours: 4, confirm: "1" })).status).toBe(201);
  });

  test("a schedule change shows on the live events and revalidates / at once", async () => {
    const before = await ctx.request("/api/events");
    expect(((await before.json()) as any).events.find((e: any) => e.eventKey === "evt_fixture000003").isFeatured).toBe(false);
    await schedule("spotlight", { eventKey: "evt_fixture000003", durationHours: 4 });
    const after = (await (await ctx.request("/api/events")).json()) as any;
    const event = after.events.find((e: any) => e.eventKey === "evt_fixture000003");
    expect(event).toMatchObject({ isFeatured: true, featuredAt: "2026-06-18T10:00:00.000Z", featuredEndsAt: "2026-06-18T14:00:00.000Z" });
    expect(after.events[0].eventKey).toBe("evt_fixture000003");
  });
});
