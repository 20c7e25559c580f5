// The festival window: the calendar answer (the dates a submission must fall in), the listed
// answer (the span the calendar's events cover), and one function of each name in src.

import { describe, expect, test } from "bun:test";
import { festivalWindow, listedEventsSpan } from "../../../src/lib/events/festival-window.ts";
import { isFestivalOn } from "../../../src/lib/events/filter-moment.ts";
import { parisInstant } from "../../../src/lib/paris-time.ts";
import { sourceFiles } from "../../helpers/sources.ts";

describe("festivalWindow: the coming festival by the calendar rule", () => {
  test.each([
    ["2026-03-01T12:00:00Z", "2026-06-15", "2026-06-22"],
    ["2026-06-22T21:00:00Z", "2026-06-15", "2026-06-22"],
    // 23 June has begun in Paris (UTC+2): next year's festival.
    ["2026-06-22T22:30:00Z", "2027-06-15", "2027-06-22"],
    ["2026-12-31T23:30:00Z", "2027-06-15", "2027-06-22"],
  ])("at %s: %s to %s", (at, from, to) => {
    expect(festivalWindow(new Date(at), {})).toEqual({ from, to });
  });

  test("takes the default window, or the one set for that year's edition", () => {
    const windows = { "2026": { from: "2026-06-19", to: "2026-06-23", night: "2026-06-21" } };
    expect(festivalWindow(new Date("2026-03-01T12:00:00Z"), windows)).toEqual({ from: "2026-06-19", to: "2026-06-23" });
    // Past 2026's set window, 2027 takes the default.
    expect(festivalWindow(new Date("2026-06-23T22:30:00Z"), windows)).toEqual({ from: "2027-06-15", to: "2027-06-22" });
  });
});

describe("listedEventsSpan: the span the listed events cover", () => {
  test("from the first date's midnight to 06:00 after the last (Paris), invalid dates ignored", () => {
    const events = [{ date: "2026-06-21" }, { date: "tbc" }, { date: "2026-06-20" }];
    expect(listedEventsSpan(events)).toEqual({ start: parisInstant("2026-06-20", "00:00").getTime(), end: parisInstant("2026-06-22", "06:00").getTime() });
  });

  test("null without a dated event; isFestivalOn is true inside the span only", () => {
    expect(listedEventsSpan([{ date: "" }])).toBeNull();
    const events = [{ date: "2026-06-21" }];
    expect(isFestivalOn(events, new Date(parisInstant("2026-06-21", "00:00").getTime() - 1))).toBe(false);
    expect(isFestivalOn(events, parisInstant("2026-06-22", "05:59"))).toBe(true);
    expect(isFestivalOn(events, parisInstant("2026-06-22", "06:00"))).toBe(false);
  });
});

test("each answer of the rule has one definition in src, in lib/events/festival-window.ts", () => {
  for (const name of ["festivalWindow", "listedEventsSpan"]) {
    const defining = sourceFiles()
      .filter((file) => new RegExp(`^(export )?(async )?(function|const|let) ${name}\\b`, "m").test(file.code))
      .map((file) => file.path);
    expect(defining).toEqual(["lib/events/festival-window.ts"]);
  }
});
