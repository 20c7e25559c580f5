// Time rules (docs/sheet.md, "Times"): messy cells to HH:MM, verbatim text, labels, next-day ends
// and day/night.

import { describe, expect, test } from "bun:test";
import {
  dayPeriodOf,
  endsNextDay,
  formatTimeLabel,
  isValidTime,
  normaliseTime,
  readTimeCell,
} from "../../../src/lib/sheet/times.ts";

describe("normaliseTime", () => {
  test.each([
    ["2:00 pm", "14:00"],
    ["20h30", "20:30"],
    ["20H", "20:00"],
    ["1430", "14:30"],
    ["12:00 am", "00:00"],
    ["12pm", "12:00"],
    ["12:30 PM", "12:30"],
    ["8pm", "20:00"],
    ["11.45", "11:45"],
    ["9", "09:00"],
    ["21", "21:00"],
    ["0:05", "00:05"],
    ["23;59", "23:59"],
    ["22,15", "22:15"],
    ["18-00", "18:00"],
    ["20::30", "20:30"],
    ["20:", "20:00"],
    [" 7 : 05 am ", "07:05"],
    ["0900", "09:00"],
  ])("%p → %p", (cell, expected) => {
    expect(normaliseTime(cell)).toBe(expected);
    expect(readTimeCell(cell)).toEqual({ kind: "valid", value: expected });
  });

  test.each([["TBC"], ["late"], ["24:00"], ["19:60"], ["13pm"], ["0am"], ["930"], ["20:00-02:00"], ["midnight"], ["=NOW()"]])(
    "%p is kept verbatim and is not a valid time",
    (cell) => {
      expect(normaliseTime(cell)).toBe(cell);
      expect(isValidTime(normaliseTime(cell))).toBe(false);
    },
  );

  test("empty cells give no time", () => {
    expect(normaliseTime("")).toBeUndefined();
    expect(normaliseTime("   ")).toBeUndefined();
    expect(readTimeCell(null)).toEqual({ kind: "empty" });
  });
});

describe("labels and day arithmetic", () => {
  test.each([
    ["20:00", "02:00", "20:00–02:00"],
    ["20:00", undefined, "20:00"],
    ["20:00", "late", "20:00"],
    ["TBC", "02:00", "TBC"],
    [undefined, undefined, "TBC"],
  ])("label(%p, %p) → %p", (start, end, label) => {
    expect(formatTimeLabel(start, end)).toBe(label);
  });

  test.each([
    ["20:00", "02:00", true],
    ["20:00", "20:00", true],
    ["20:00", "23:00", false],
    ["TBC", "02:00", false],
  ])("endsNextDay(%p, %p) → %p", (start, end, expected) => {
    expect(endsNextDay(start, end)).toBe(expected);
  });

  // One rule for the icon and the filter: night when the event runs at any minute from 22:00 to 06:00.
  test.each([
    ["06:00", "08:00", "day"],
    ["12:00", "15:30", "day"],
    ["14:00", "22:00", "day"], // ends at 22:00: never runs after it
    ["18:00", "00:00", "night"], // runs 22:00–00:00
    ["20:00", "02:00", "night"],
    ["18:00", "23:00", "night"],
    ["21:59", "22:30", "night"],
    ["07:00", "06:00", "night"], // 23 hours, through the night
    ["22:00", "23:00", "night"],
    ["05:59", "07:00", "night"], // starts before 06:00
    ["00:00", "04:00", "night"],
    ["18:00", undefined, "day"], // 3 hours without an end: 21:00
    ["19:00", "late", "day"], // an unreadable end counts as none: 22:00 exactly
    ["19:30", undefined, "night"], // 22:30
    ["TBC", "23:00", null],
    [undefined, undefined, null],
  ])("dayPeriodOf(%p, %p) → %p", (start, end, period) => {
    expect(dayPeriodOf(start, end)).toBe(period as never);
  });
});
