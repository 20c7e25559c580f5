// Reminders without an account, over real HTTP (docs/public-pages.md, "Calendar files" and "My
// night"): the per-event file and the My night file carry one VALARM per event
// (CALENDAR_REMINDER_MINUTES before the start; none at 0), the /calendar.ics subscription never
// does, every file and feed carries the refresh hints of the current edition's clock, and My night
// offers its file as a webcal:// subscription of the same keys. Files are parsed with ical.js.

import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { createClock, useTestApp, withTestApp, type TestContext } from "../helpers/app.ts";

const ctx = useTestApp();

const NIGHT = "evt_fixture000002,evt_fixture000001,evt_fixture000004";
/** The night's keys in time order (18:00 Canal, 20:30 Pigalle, 22:00 Belleville). */
const NIGHT_IN_ORDER = "evt_fixture000001,evt_fixture000004,evt_fixture000002";

const decode = (text: string) => text.replaceAll("&amp;", "&").replaceAll("&quot;", '"');

async function calendarAt(app: Pick<TestContext, "request">, path: string): Promise<{ text: string; calendar: ICAL.Component }> {
  const res = await app.request(path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  const text = await res.text();
  return { text, calendar: new ICAL.Component(ICAL.parse(text)) };
}

/** Each VEVENT's alarms as [uid, trigger seconds, action, description]. */
function alarmsOf(calendar: ICAL.Component): Array<[unknown, Array<[number, unknown, unknown]>]> {
  return calendar.getAllSubcomponents("vevent").map((vevent) => [
    vevent.getFirstPropertyValue("uid"),
    vevent.getAllSubcomponents("valarm").map((valarm) => [(valarm.getFirstPropertyValue("trigger") as ICAL.Duration).toSeconds(), valarm.getFirstPropertyValue("action"), valarm.getFirstPropertyValue("description")]),
  ]);
}

function refreshOf(text: string, calendar: ICAL.Component): { interval: string; ttl: string } {
  // Written as the spec has it (ical.js reads the value either way).
  const interval = String(calendar.getFirstPropertyValue("refresh-interval"));
  expect(text).toContain(`\r\nREFRESH-INTERVAL;VALUE=DURATION:${interval}\r\n`);
  return { interval, ttl: String(calendar.getFirstPropertyValue("x-published-ttl")) };
}

const EVENT_FILE = "/api/events/evt_fixture000001/calendar.ics";
const NIGHT_FILE = `/my-night.ics?e=${NIGHT}`;
const FEED = "/calendar.ics";

describe("VALARM", () => {
  test("the per-event file: one DISPLAY alarm 30 minutes before the start, naming the event", async () => {
    const { calendar } = await calendarAt(ctx, EVENT_FILE);
    expect(alarmsOf(calendar)).toEqual([["evt_fixture000001@finder.test", [[-1800, "DISPLAY", "Canal Amapiano Sunset"]]]]);
  });

  test("the My night file: one alarm per event", async () => {
    const { calendar } = await calendarAt(ctx, NIGHT_FILE);
    expect(alarmsOf(calendar)).toEqual([
      ["evt_fixture000001@finder.test", [[-1800, "DISPLAY", "Canal Amapiano Sunset"]]],
      ["evt_fixture000004@finder.test", [[-1800, "DISPLAY", "Pigalle Hip Hop Cypher"]]],
      ["evt_fixture000002@finder.test", [[-1800, "DISPLAY", "Belleville Rooftop House"]]],
    ]);
  });

  test("the /calendar.ics subscription carries no alarm, filtered or not", async () => {
    for (const path of [FEED, "/calendar.ics?g=house"]) {
      const { text, calendar } = await calendarAt(ctx, path);
      const events = alarmsOf(calendar);
      expect(events.length).toBeGreaterThan(0);
      expect(events.every(([, alarms]) => alarms.length === 0)).toBe(true);
      expect(text).not.toContain("VALARM");
    }
  });

  test("CALENDAR_REMINDER_MINUTES sets the lead time; 0 writes no alarm anywhere", async () => {
    await withTestApp({ env: { CALENDAR_REMINDER_MINUTES: "45" }, keepData: true }, async (app) => {
      const { calendar } = await calendarAt(app, EVENT_FILE);
      expect(alarmsOf(calendar)[0][1]).toEqual([[-2700, "DISPLAY", "Canal Amapiano Sunset"]]);
    });
    await withTestApp({ env: { CALENDAR_REMINDER_MINUTES: "0" }, keepData: true }, async (app) => {
      for (const path of [EVENT_FILE, NIGHT_FILE]) {
        const { text, calendar } = await calendarAt(app, path);
        expect(alarmsOf(calendar).length).toBeGreaterThan(0);
        expect(alarmsOf(calendar).every(([, alarms]) => alarms.length === 0)).toBe(true);
        expect(text).not.toContain("VALARM");
      }
    });
  });
});

describe("refresh hints", () => {
  test("21 June 2026 (the festival): PT15M on the per-event file, the My night file and the feed", async () => {
    // The shared app's clock is 21 June 2026, 10:00 UTC.
    expect(ctx.deps.now().toISOString()).toBe("2026-06-21T10:00:00.000Z");
    for (const path of [EVENT_FILE, NIGHT_FILE, FEED]) {
      const { text, calendar } = await calendarAt(ctx, path);
      expect({ path, ...refreshOf(text, calendar) }).toEqual({ path, interval: "PT15M", ttl: "PT15M" });
    }
  });

  test("7 December 2026 (months before the next edition): PT12H everywhere", async () => {
    await withTestApp({ clock: createClock("2026-12-07T12:00:00Z"), keepData: true }, async (app) => {
      for (const path of [EVENT_FILE, NIGHT_FILE, FEED]) {
        const { text, calendar } = await calendarAt(app, path);
        expect({ path, ...refreshOf(text, calendar) }).toEqual({ path, interval: "PT12H", ttl: "PT12H" });
      }
    });
  });

  test("the process's edition windows decide: a 2026 window moved to July makes 21 June quiet", async () => {
    await withTestApp({ keepData: true }, async (app) => {
      app.deps.editions.windows = { "2026": { from: "2026-07-01", to: "2026-07-05", night: "2026-07-04" } };
      for (const path of [EVENT_FILE, NIGHT_FILE, FEED]) {
        const { text, calendar } = await calendarAt(app, path);
        expect({ path, ...refreshOf(text, calendar) }).toEqual({ path, interval: "PT12H", ttl: "PT12H" });
      }
    });
  });
});

describe("My night subscription", () => {
  const subscribeHref = (html: string) => {
    const match = /<a class="button" href="([^"]+)" rel="nofollow" data-night-subscribe>/.exec(html);
    return match ? decode(match[1]) : null;
  };

  test("the page offers the .ics of the same keys as a webcal:// link", async () => {
    const html = await (await ctx.request(`/my-night?e=${NIGHT}`)).text();
    const href = subscribeHref(html);
    expect(href).toBe(`webcal://finder.test/my-night.ics?e=${NIGHT_IN_ORDER}`);
    expect(html).toContain("Subscribe in your calendar");
    // The same keys as the download link, and the address (with http) is the file of those events.
    const download = decode(/href="([^"]+)" download="my-night.ics"/.exec(html)![1]);
    expect(href!.replace(/^webcal:\/\/finder\.test/, "")).toBe(download);
    const { calendar } = await calendarAt(ctx, new URL(href!.replace(/^webcal:/, "http:")).pathname + new URL(href!.replace(/^webcal:/, "http:")).search);
    expect(calendar.getAllSubcomponents("vevent").map((v) => v.getFirstPropertyValue("uid"))).toEqual(NIGHT_IN_ORDER.split(",").map((key) => `${key}@finder.test`));
  });

  test("in French the link is the French file's address", async () => {
    const html = await (await ctx.request(`/fr/my-night?e=evt_fixture000004`)).text();
    expect(subscribeHref(html)).toBe("webcal://finder.test/fr/my-night.ics?e=evt_fixture000004");
  });

  test("unknown keys are left out of the link; no events, no link", async () => {
    const html = await (await ctx.request(`/my-night?e=evt_fixture000001,evt_zzzzzzzzzzzz`)).text();
    expect(subscribeHref(html)).toBe("webcal://finder.test/my-night.ics?e=evt_fixture000001");
    expect(subscribeHref(await (await ctx.request("/my-night")).text())).toBeNull();
    expect(subscribeHref(await (await ctx.request("/my-night?e=evt_zzzzzzzzzzzz")).text())).toBeNull();
  });
});
