// Date rules (docs/sheet.md, "Dates"): accepted forms, ambiguity, validity, the inferred year,
// weekdays and labels.

import { describe, expect, test } from "bun:test";
import { addDays, daysBetween, formatDateLabel, formatDateRangeLabel, inferSheetYear, isValidIsoDate, parseDateCell, readDateCell, resolveDate, weekdayOf } from "../../../src/lib/sheet/dates.ts";
import { parisYear } from "../../../src/lib/paris-time.ts";

const NOW = new Date("2026-05-01T10:00:00Z");

describe("parseDateCell: accepted forms", () => {
  test.each([
    ["2026-06-21", "2026-06-21", false],
    ["2026-6-1", "2026-06-01", false],
    ["2026/06/21", "2026-06-21", false],
    ["21 June 2026", "2026-06-21", false],
    ["21st June 2026", "2026-06-21", false],
    ["June 21st, 2026", "2026-06-21", false],
    ["Jun 21 2026", "2026-06-21", false],
    ["Sept. 3 2026", "2026-09-03", false],
    ["3 sept 2026", "2026-09-03", false],
    ["Saturday, 20 June 2026", "2026-06-20", false],
    ["Sat 20 June", "2026-06-20", true],
    ["sam. 21 juin", "2026-06-21", true],
    ["samedi 21 juin 2026", "2026-06-21", false],
    ["1er juillet 2026", "2026-07-01", false],
    ["14 Juillet", "2026-07-14", true],
    ["15 août 2026", "2026-08-15", false],
    ["15 aout 2026", "2026-08-15", false],
    ["3 février 2028", "2028-02-03", false],
    ["Mar 21 2026", "2026-03-21", false],
    ["21/06", "2026-06-21", true],
    ["21/06/2026", "2026-06-21", false],
    ["6/21/2026", "2026-06-21", false],
    ["06/06/2026", "2026-06-06", false],
    ["01-06-2026", "2026-06-01", false],
    ["01.06.2026", "2026-06-01", false],
    ["12-06", "2026-06-12", true],
    ["29/02/2028", "2028-02-29", false],
  ])("%p → %p (inferred year: %p)", (cell, iso, inferredYear) => {
    expect(parseDateCell(cell, NOW)).toEqual({ ok: true, iso, inferredYear });
  });
});

describe("parseDateCell: failures", () => {
  test.each([
    ["06/07/2026", "ambiguous"],
    ["06/07", "ambiguous"],
    ["31 June 2026", "invalid"],
    ["29/02/2026", "invalid"],
    ["2026-02-30", "invalid"],
    ["21/06/26", "invalid"],
    ["21 June 26", "invalid"],
    ["21 June 1899", "invalid"],
    ["21 June 2100", "invalid"],
    ["13/13/2026", "invalid"],
    ["TBC", "unparseable"],
    ["soon", "unparseable"],
    ["21 Junk 2026", "unparseable"],
    ["2026-06-21T20:00", "unparseable"],
    ["=TODAY()", "unparseable"],
    ["", "empty"],
    ["   ", "empty"],
  ])("%p → %p", (cell, problem) => {
    expect(parseDateCell(cell, NOW)).toEqual({ ok: false, problem } as never);
  });
});

describe("readDateCell keeps the year apart from the readings", () => {
  test.each([
    ["21/06", { kind: "parts", year: null, readings: [{ day: 21, month: 6 }, { day: 6, month: 21 }] }],
    ["01-06-2026", { kind: "parts", year: 2026, readings: [{ day: 1, month: 6 }] }],
    ["2026-06-21", { kind: "parts", year: 2026, readings: [{ day: 21, month: 6 }] }],
    ["nope", { kind: "error", problem: "unparseable" }],
    ["", { kind: "empty" }],
  ])("%p", (cell, reading) => {
    expect(readDateCell(cell)).toEqual(reading as never);
  });

  test("29 February without a year follows the inferred year's leap status", () => {
    const reading = readDateCell("29 Feb");
    expect(resolveDate(reading, 2028)).toEqual({ ok: true, iso: "2028-02-29", inferredYear: true });
    expect(resolveDate(reading, 2026)).toEqual({ ok: false, problem: "invalid" });
  });
});

describe("inferSheetYear", () => {
  test.each([
    ["no explicit year → current Paris year", [], 2026, 2026],
    ["most common year wins", [2025, 2027, 2027], 2026, 2027],
    ["tie → closest to the current year", [2024, 2024, 2027, 2027], 2026, 2027],
    ["tie at equal distance → later year", [2025, 2027], 2026, 2027],
    ["tie where the current year is one of them", [2026, 2030], 2026, 2026],
  ])("%s", (_name, years, current, expected) => {
    expect(inferSheetYear(years, current)).toBe(expected);
  });
});

describe("parisYear", () => {
  test.each([
    ["2026-12-31T22:59:59Z", 2026],
    ["2026-12-31T23:00:00Z", 2027],
  ])("%s → %d (Paris is UTC+1 in winter)", (iso, year) => {
    expect(parisYear(new Date(iso))).toBe(year);
  });
});

describe("weekdays and labels", () => {
  test.each([
    ["2026-06-20", "saturday", "Sat 20 June"],
    ["2026-06-21", "sunday", "Sun 21 June"],
    ["2026-06-22", "monday", "Mon 22 June"],
    ["2026-06-23", "tuesday", "Tue 23 June"],
    ["2026-06-11", "thursday", "Thu 11 June"],
    ["2026-06-12", "friday", "Fri 12 June"],
    ["2026-06-13", "saturday", "Sat 13 June"],
    ["2026-07-01", "wednesday", "Wed 1 July"],
    ["", "tbc", "TBC"],
    ["2026-02-30", "tbc", "TBC"],
  ])("%p → %p, %p", (iso, weekday, label) => {
    expect(weekdayOf(iso)).toBe(weekday as never);
    expect(formatDateLabel(iso)).toBe(label);
  });

  test.each([
    // Intl.DateTimeFormat#formatRange (en-GB outside a page): thin spaces around the dash.
    ["2026-06-19", "2026-06-21", "19 – 21 Jun"],
    ["2026-06-30", "2026-07-02", "30 Jun – 2 Jul"],
    ["2026-12-30", "2027-01-02", "30 Dec 2026 – 2 Jan 2027"],
    ["2026-06-21", "2026-06-21", "21 June"],
  ])("range %p–%p → %p", (start, end, label) => {
    expect(formatDateRangeLabel(start, end).replace(/\s/g, " ")).toBe(label);
  });

  test("calendar arithmetic", () => {
    expect(addDays("2026-06-30", 1)).toBe("2026-07-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(daysBetween("2026-06-19", "2026-06-21")).toBe(2);
    expect(daysBetween("2026-06-21", "2026-06-19")).toBe(-2);
    expect(daysBetween("", "2026-06-19")).toBeNull();
    expect([isValidIsoDate("2026-06-21"), isValidIsoDate("2026-6-21"), isValidIsoDate("2026-06-31")]).toEqual([true, false, false]);
  });
});
