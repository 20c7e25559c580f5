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

  test.each([
    ["06:00", "day"],
    ["21:59", "day"],
    ["22:00", "night"],
    ["05:59", "night"],
    ["00:00", "night"],
    ["12:00", "day"],
    ["TBC", null],
    [undefined, null],
  ])("dayPeriodOf(%p) → %p", (start, period) => {
    expect(dayPeriodOf(start)).toBe(period as never);
  });
});
