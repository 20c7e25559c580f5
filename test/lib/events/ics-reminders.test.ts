// Reminders and refresh hints of the calendar files (docs/public-pages.md, "Calendar files"), read
// back with ical.js: one VALARM per event when a lead time is given (none at 0, none for a cancelled
// or untimed event), the refresh interval's one rule around an edition's window, and
// CALENDAR_REMINDER_MINUTES read like every integer setting.

import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { liveEvent } from "../../helpers/events.ts";
import { buildCalendarFeed, buildEventCalendar, calendarRefreshInterval, type EventCalendarOptions } from "../../../src/lib/events/ics.ts";
import { editionOf } from "../../../src/lib/events/editions.ts";
import { ConfigError, loadConfig } from "../../../src/lib/config.ts";
import { testEnv } from "../../helpers/app.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";

const OPTIONS: EventCalendarOptions = {
  siteName: "Finder",
  siteHost: "finder.example",
  shareUrl: "https://finder.example/event/evt_abcdefabcdef12/summer-party",
  now: new Date("2026-06-21T10:00:00Z"),
  edition: editionOf(2026),
};

function makeEvent(extra: Partial<LiveEvent> = {}): LiveEvent {
  return liveEvent({ eventKey: "evt_abcdefabcdef12", slug: "summer-party", eventName: "Summer, Party", date: "2026-06-21", time: "18:00", endTime: "23:30", ...extra });
}

function calendarOf(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text));
}

function alarms(calendar: ICAL.Component): ICAL.Component[][] {
  return calendar.getAllSubcomponents("vevent").map((vevent) => vevent.getAllSubcomponents("valarm"));
}

/** REFRESH-INTERVAL (read by ical.js as a DURATION, from its VALUE=DURATION) and X-PUBLISHED-TTL. */
function refreshOf(calendar: ICAL.Component): { interval: string; ttl: string; valueType: string } {
  const property = calendar.getFirstProperty("refresh-interval")!;
  return { interval: String(property.getFirstValue()), ttl: String(calendar.getFirstPropertyValue("x-published-ttl")), valueType: property.type };
}

describe("VALARM", () => {
  test("one DISPLAY alarm per event, the lead time before the start, naming the event", () => {
    const calendar = calendarOf(buildEventCalendar(makeEvent(), { ...OPTIONS, reminderMinutes: 30 })!);
    const [valarms] = alarms(calendar);
    expect(valarms).toHaveLength(1);
    const valarm = valarms[0];
    expect(valarm.getFirstPropertyValue("action")).toBe("DISPLAY");
    const trigger = valarm.getFirstPropertyValue("trigger") as ICAL.Duration;
    expect(trigger).toBeInstanceOf(ICAL.Duration);
    expect(trigger.toSeconds()).toBe(-30 * 60);
    expect(trigger.toString()).toBe("-PT30M");
    // Relative to the start (the default RELATED=START), so no RELATED=END.
    expect(valarm.getFirstProperty("trigger")!.getParameter("related")).toBeUndefined();
    expect(valarm.getFirstPropertyValue("description")).toBe("Summer, Party");
  });

  test("the lead time is the option's: 90 minutes is -PT90M", () => {
    const calendar = calendarOf(buildEventCalendar(makeEvent(), { ...OPTIONS, reminderMinutes: 90 })!);
    expect((alarms(calendar)[0][0].getFirstPropertyValue("trigger") as ICAL.Duration).toSeconds()).toBe(-90 * 60);
  });

  test("no alarm at 0 or without a lead time", () => {
    for (const reminderMinutes of [0, undefined]) {
      const text = buildEventCalendar(makeEvent(), { ...OPTIONS, reminderMinutes })!;
      expect(alarms(calendarOf(text))).toEqual([[]]);
      expect(text).not.toContain("VALARM");
    }
  });

  test("a several-event calendar with a lead time: one alarm in every VEVENT; a cancelled or untimed event rings for nothing", () => {
    const events = [
      makeEvent({ eventKey: "evt_aaaaaaaaaaaa", eventName: "A" }),
      makeEvent({ eventKey: "evt_bbbbbbbbbbbb", eventName: "B", time: "21:00" }),
      makeEvent({ eventKey: "evt_cccccccccccc", eventName: "Cancelled", status: "cancelled" }),
      makeEvent({ eventKey: "evt_dddddddddddd", eventName: "Untimed", time: undefined }),
    ];
    const { shareUrl: _, ...feed } = OPTIONS;
    const calendar = calendarOf(buildCalendarFeed(events, { ...feed, shareUrlFor: () => "", reminderMinutes: 30 }));
    expect(alarms(calendar).map((list) => list.map((valarm) => valarm.getFirstPropertyValue("description")))).toEqual([["A"], ["B"], [], []]);
    // The cancelled one is still in the file, marked, so a subscribed calendar shows it cancelled.
    expect(calendar.getAllSubcomponents("vevent")[2].getFirstPropertyValue("status")).toBe("CANCELLED");
    const without = calendarOf(buildCalendarFeed(events, { ...feed, shareUrlFor: () => "" }));
    expect(alarms(without)).toEqual([[], [], [], []]);
  });
});

describe("refresh hints", () => {
  const at = (iso: string) => new Date(iso);
  const edition = editionOf(2026);

  test("PT15M from 7 days before the first day to the last day (Paris calendar), PT12H otherwise", () => {
    expect(calendarRefreshInterval(edition, at("2026-06-21T10:00:00Z"))).toBe("PT15M");
    expect(calendarRefreshInterval(edition, at("2026-12-07T10:00:00Z"))).toBe("PT12H");
    // 15 June is the first day: from 8 June, Paris time (7 June 22:30 UTC is already 8 June in Paris).
    expect(calendarRefreshInterval(edition, at("2026-06-07T21:30:00Z"))).toBe("PT12H");
    expect(calendarRefreshInterval(edition, at("2026-06-07T22:30:00Z"))).toBe("PT15M");
    // 22 June is the last day: until its Paris midnight.
    expect(calendarRefreshInterval(edition, at("2026-06-22T21:30:00Z"))).toBe("PT15M");
    expect(calendarRefreshInterval(edition, at("2026-06-22T22:30:00Z"))).toBe("PT12H");
  });

  test("a window the team moved moves the rule with it", () => {
    const moved = editionOf(2026, { "2026": { from: "2026-07-01", to: "2026-07-05", night: "2026-07-04" } });
    expect(calendarRefreshInterval(moved, at("2026-06-21T10:00:00Z"))).toBe("PT12H");
    expect(calendarRefreshInterval(moved, at("2026-06-24T10:00:00Z"))).toBe("PT15M");
    expect(calendarRefreshInterval(moved, at("2026-07-05T10:00:00Z"))).toBe("PT15M");
  });

  test("every file carries both hints, read at its clock", () => {
    const { shareUrl: _, ...feed } = OPTIONS;
    for (const [now, expected] of [
      ["2026-06-21T10:00:00Z", "PT15M"],
      ["2026-12-07T10:00:00Z", "PT12H"],
    ] as const) {
      const single = calendarOf(buildEventCalendar(makeEvent(), { ...OPTIONS, now: at(now) })!);
      const many = calendarOf(buildCalendarFeed([makeEvent()], { ...feed, now: at(now), shareUrlFor: () => "" }));
      for (const calendar of [single, many]) expect(refreshOf(calendar)).toEqual({ interval: expected, ttl: expected, valueType: "duration" });
    }
  });
});

describe("CALENDAR_REMINDER_MINUTES", () => {
  test("30 by default, any integer from 0 to 1440, anything else refused at start", () => {
    expect(loadConfig(testEnv()).calendarReminderMinutes).toBe(30);
    expect(loadConfig(testEnv({ CALENDAR_REMINDER_MINUTES: "0" })).calendarReminderMinutes).toBe(0);
    expect(loadConfig(testEnv({ CALENDAR_REMINDER_MINUTES: "1440" })).calendarReminderMinutes).toBe(1440);
    for (const bad of ["1441", "-5", "15.5", "soon"]) {
      expect(() => loadConfig(testEnv({ CALENDAR_REMINDER_MINUTES: bad }))).toThrow(ConfigError);
      expect(() => loadConfig(testEnv({ CALENDAR_REMINDER_MINUTES: bad }))).toThrow(`CALENDAR_REMINDER_MINUTES must be an integer from 0 to 1440 (got "${bad}")`);
    }
  });
});
