// Quality checks, verified flag, source validity and schema report (§2.13, §4).

import { describe, expect, test } from "bun:test";
import { liveEvent } from "../../helpers/events.ts";
import {
  buildSchemaReport,
  checkSourceValidity,
  failedQualityChecks,
  isPlaceholderName,
  isValidSource,
  isVerifiedEvent,
  qualityScore,
  runQualityChecks,
} from "../../../src/lib/sheet/quality.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";

function event(overrides: Partial<LiveEvent>): LiveEvent {
  return liveEvent({
    eventKey: "evt_aaaaaaaaaaaa",
    slug: "x",
    eventName: "Real Name",
    price: "€10",
    priceValue: 10,
    link: "https://x.example",
    description: "Notes",
    ...overrides,
  });
}

describe("placeholder names", () => {
  test.each([
    ["", true],
    ["TBA", true],
    ["tbc", true],
    ["Event", true],
    ["Event 3", true],
    ["New Event", true],
    ["new event 12", true],
    ["Events", false],
    ["Event Horizon", false],
    ["Canal Sound System", false],
  ])("%p → %p", (name, placeholder) => {
    expect(isPlaceholderName(name)).toBe(placeholder);
  });
});

describe("quality checks", () => {
  test.each([
    [{}, [], 100],
    [{ location: "Location TBA" }, ["missingLocation"], 75],
    [{ location: undefined, time: "TBC" }, ["missingLocation", "missingStartTime"], 50],
    [{ eventName: "New Event 2", description: "" }, ["placeholderName", "missingNotes"], 50],
    [{ location: "TBC", time: undefined, eventName: "", description: " " }, ["missingLocation", "missingStartTime", "placeholderName", "missingNotes"], 0],
  ])("%p → %p, score %p", (overrides, failed, score) => {
    expect(failedQualityChecks(event(overrides))).toEqual(failed as never);
    expect(qualityScore(event(overrides))).toBe(score);
  });

  test("the report carries the average score and the count per check", () => {
    expect(runQualityChecks([event({}), event({ location: "TBA" }), event({ description: "", time: "late" })])).toEqual({
      eventCount: 3,
      averageScore: 75,
      counts: { missingLocation: 1, missingStartTime: 1, placeholderName: 0, missingNotes: 1 },
    });
    expect(runQualityChecks([event({}), event({}), event({ location: "TBA" })]).averageScore).toBe(91.7);
    expect(runQualityChecks([]).averageScore).toBe(0);
  });
});

describe("verified flag", () => {
  const base = { location: "Club", arrondissement: 11 as const, date: "2026-06-21", time: "20:00", link: "https://x.example", price: "€10" };
  test.each([
    ["all details", {}, true],
    ["time + link", { price: "TBA" }, true],
    ["time + price", { link: null }, true],
    ["link + price", { time: "TBC" }, true],
    ["only a time", { link: null, price: "" }, false],
    ["unknown venue", { location: "TBA" }, false],
    ["no venue", { location: undefined }, false],
    ["unknown arrondissement", { arrondissement: "unknown" as const }, false],
    ["invalid date", { date: "" }, false],
  ])("%s → %p", (_name, overrides, verified) => {
    expect(isVerifiedEvent({ ...base, ...overrides })).toBe(verified);
  });
});

describe("source validity (80 % rule)", () => {
  const good = event({});
  test.each([
    ["no events", [], false],
    ["all usable", [good, good], true],
    ["exactly 80 %", [good, good, good, good, event({ date: "" })], true],
    ["below 80 %", [good, good, good, event({ date: "2026-02-30" }), event({ eventName: " " })], false],
    ["missing keys", [good, event({ eventKey: "" })], false],
  ])("%s → %p", (_name, events, valid) => {
    expect(isValidSource(events)).toBe(valid);
  });

  test("details name the failure", () => {
    expect(checkSourceValidity([good, event({ eventKey: "" })])).toEqual({
      valid: false,
      total: 2,
      usable: 1,
      reason: "Only 1 of 2 events have a key, a name and a valid date",
    });
    expect(checkSourceValidity([])).toEqual({ valid: false, total: 0, usable: 0, reason: "Source yielded no events" });
  });
});

test("schema report: only blocking issues make it not ok", () => {
  const warning = { row: 2, type: "inferred_year", message: "m", field: "date" };
  expect(buildSchemaReport([], [warning])).toEqual({ ok: true, blocking: [], warnings: [warning], blockingCount: 0, warningCount: 1 });
  const blocking = { type: "no_rows" as const, message: "CSV contains no non-empty data rows", rows: [] };
  expect(buildSchemaReport([blocking], [])).toEqual({ ok: false, blocking: [blocking], warnings: [], blockingCount: 1, warningCount: 0 });
});
