// The sums behind the homepage's clock (static/app/live-times.js): the countdown to the festival's
// day in Paris wall-clock time, and each card's live state from the span the server wrote on it.

import { describe, expect, test } from "bun:test";
import { countdown, liveState } from "../../../static/app/live-times.js";

const at = (year: string, month: string, day: string, hour: string, minute: string) => ({ year, month, day, hour, minute });

describe("countdown", () => {
  test("days, hours and minutes left until midnight of the day", () => {
    expect(countdown(at("2026", "06", "19", "21", "35"), "2026-06-21")).toEqual({ state: "ahead", days: 1, hours: 2, minutes: 25 });
    expect(countdown(at("2026", "05", "31", "23", "59"), "2026-06-21")).toEqual({ state: "ahead", days: 20, hours: 0, minutes: 1 });
  });
  test("today on the day, from midnight to midnight", () => {
    expect(countdown(at("2026", "06", "21", "00", "00"), "2026-06-21")).toEqual({ state: "today" });
    expect(countdown(at("2026", "06", "21", "23", "59"), "2026-06-21")).toEqual({ state: "today" });
  });
  test("nothing after the day", () => {
    expect(countdown(at("2026", "06", "22", "00", "00"), "2026-06-21")).toEqual({ state: "past" });
    expect(countdown(at("2026", "12", "31", "12", "00"), "2026-06-21")).toEqual({ state: "past" });
  });
});

describe("live state", () => {
  const start = Date.UTC(2026, 5, 21, 18, 0);
  const end = Date.UTC(2026, 5, 21, 21, 0);
  const minute = 60_000;
  // Soon: 30 minutes before the start; ended: shown for an hour after the end.
  const span = `${start} ${end} 23:00 ${30 * minute} ${60 * minute}`;
  test.each<[string, number, ReturnType<typeof liveState>]>([
    ["long before", start - 31 * minute, { kind: "", message: "" }],
    ["soon, in whole minutes rounded up", start - 20 * minute + 1, { kind: "soon", message: "liveSoon", params: { minutes: 20 } }],
    ["soon, never less than one minute", start - 1, { kind: "soon", message: "liveSoon", params: { minutes: 1 } }],
    ["on from the start, with the end time", start, { kind: "on", message: "liveOn", params: { time: "23:00" } }],
    ["the last stretch before the end", end - 30 * minute, { kind: "lastHour", message: "liveLastHour" }],
    ["ended at the end", end, { kind: "ended", message: "ended" }],
    ["ended no longer shown after its time", end + 60 * minute, { kind: "", message: "" }],
  ])("%s", (_name, now, state) => {
    expect(liveState(span, now)).toEqual(state);
  });
});
