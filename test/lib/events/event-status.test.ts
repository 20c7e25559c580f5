// What a visitor is told about an event at a moment: status marks ("updated", "new"), the live
// state at the Paris minute, the moment orders and cancelled events last.

import { describe, expect, test } from "bun:test";
import { cancelledLast, liveClock, liveState, orderForMoment, statusMarks } from "../../../src/lib/events/event-status.ts";
import { liveEvent } from "../../helpers/events.ts";

const at = (iso: string) => new Date(iso);
// 21:30 in Paris on 21 June (UTC+2).
const NIGHT = at("2026-06-21T19:30:00Z");

describe("liveState", () => {
  test.each([
    ["running, more than an hour left", "18:00", "23:30", { kind: "on", until: "23:30" }],
    ["running past midnight", "20:00", "02:00", { kind: "on", until: "02:00" }],
    ["in its last hour", "19:00", "22:15", { kind: "lastHour" }],
    ["starting in 30 minutes", "22:00", "23:00", { kind: "soon", minutes: 30 }],
    ["starting in more than an hour", "23:00", "04:00", null],
    ["ended an hour ago", "17:00", "20:30", { kind: "ended" }],
    ["ended long ago", "09:00", "10:00", null],
  ])("%s", (_name, time, endTime, expected) => {
    expect(liveState(liveEvent({ date: "2026-06-21", time, endTime }), NIGHT)).toEqual(expected as never);
  });

  test("a cancelled or undated event has no live state and carries no clock", () => {
    expect(liveState(liveEvent({ time: "21:00", endTime: "23:00", status: "cancelled" }), NIGHT)).toBeNull();
    expect(liveClock(liveEvent({ time: "21:00", endTime: "23:00", status: "cancelled" }), NIGHT)).toBeNull();
    expect(liveState(liveEvent({ date: "" }), NIGHT)).toBeNull();
  });

  test("the browser's clock data: the span as instants and the end as Paris HH:MM; none far from now", () => {
    const clock = liveClock(liveEvent({ date: "2026-06-21", time: "20:00", endTime: "02:00" }), NIGHT);
    expect(clock).toEqual({ start: Date.parse("2026-06-21T18:00:00Z"), end: Date.parse("2026-06-22T00:00:00Z"), until: "02:00" });
    expect(liveClock(liveEvent({ date: "2026-06-21", time: "20:00" }), at("2026-11-27T12:00:00Z"))).toBeNull();
  });
});

describe("moment orders", () => {
  const events = [
    liveEvent({ eventKey: "evt_a", time: "14:00", endTime: "23:00" }),
    liveEvent({ eventKey: "evt_b", time: "20:00", endTime: "22:00" }),
    liveEvent({ eventKey: "evt_c", time: "18:00", endTime: "02:00" }),
    liveEvent({ eventKey: "evt_d", time: "21:00", endTime: "22:00" }),
  ];
  test("now: ending soonest first (ties keep their order)", () => {
    expect(orderForMoment(events, "now").map((e) => e.eventKey)).toEqual(["evt_b", "evt_d", "evt_a", "evt_c"]);
  });
  test("tonight: starting first", () => {
    expect(orderForMoment(events, "tonight").map((e) => e.eventKey)).toEqual(["evt_a", "evt_c", "evt_b", "evt_d"]);
  });
  test("cancelled events go last, order kept on each side", () => {
    const list = [liveEvent({ eventKey: "evt_x", status: "cancelled" }), ...events.slice(0, 2), liveEvent({ eventKey: "evt_y", status: "cancelled" })];
    expect(cancelledLast(list).map((e) => e.eventKey)).toEqual(["evt_a", "evt_b", "evt_x", "evt_y"]);
  });
});

describe("statusMarks", () => {
  test("updated today shows the Paris time; another day shows the date; new for 24 hours", () => {
    const marks = statusMarks(liveEvent({ changedAt: "2026-06-21T15:00:00Z", firstPublishedAt: "2026-06-21T08:00:00Z" }), NIGHT);
    expect(marks).toEqual({ status: null, note: "", updated: { time: "17:00", date: null }, isNew: true });
    const older = statusMarks(liveEvent({ changedAt: "2026-06-20T10:00:00Z", firstPublishedAt: "2026-06-19T08:00:00Z" }), NIGHT);
    expect(older).toEqual({ status: null, note: "", updated: { time: "12:00", date: "2026-06-20" }, isNew: false });
  });
  test("a status other than scheduled carries its note", () => {
    expect(statusMarks(liveEvent({ status: "moved", statusNote: "Now at the hall" }), NIGHT)).toMatchObject({ status: "moved", note: "Now at the hall" });
    expect(statusMarks(liveEvent({ status: "scheduled", statusNote: "ignored" }), NIGHT)).toMatchObject({ status: null, note: "" });
  });
});
