import { describe, expect, test } from "bun:test";
import { formatParisDisplay, formatParisInput, parseDurationHours, parseRequestedStart } from "../../../src/lib/placements/schedule-input.ts";

const NOW = new Date("2026-03-20T10:00:00Z");

describe("parseRequestedStart", () => {
  const cases: [unknown, string | undefined][] = [
    [undefined, NOW.toISOString()],
    ["", NOW.toISOString()],
    ["   ", NOW.toISOString()],
    ["2026-06-21T18:00", "2026-06-21T16:00:00.000Z"],
    ["2026-03-28T18:00", "2026-03-28T17:00:00.000Z"],
    ["2026-03-29T01:59", "2026-03-29T00:59:00.000Z"],
    ["2026-03-29T02:00", undefined],
    ["2026-03-29T02:30", undefined],
    ["2026-03-29T03:00", "2026-03-29T01:00:00.000Z"],
    ["2026-06-21T16:00:00Z", "2026-06-21T16:00:00.000Z"],
    ["2026-06-21T18:00:00+02:00", "2026-06-21T16:00:00.000Z"],
    ["2026-06-21T18:00:00.500+02:00", "2026-06-21T16:00:00.500Z"],
    ["2026-01-01T10:00", NOW.toISOString()],
    ["2020-01-01T00:00:00Z", NOW.toISOString()],
    ["2099-01-01T00:00", undefined],
    ["2026-02-30T10:00", undefined],
    ["2026-06-21T25:00", undefined],
    ["2026-06-21", undefined],
    ["21/06/2026 18:00", undefined],
    ["abc", undefined],
    [42, undefined],
    [{}, undefined],
  ];
  for (const [input, expected] of cases) {
    test(`${JSON.stringify(input)} → ${expected ?? "invalid"}`, () => {
      expect(parseRequestedStart(input, NOW)?.toISOString()).toBe(expected as string);
    });
  }
});

describe("parseDurationHours", () => {
  const cases: [unknown, number | undefined][] = [
    [undefined, 48],
    ["", 48],
    [null, 48],
    [24, 24],
    ["24", 24],
    [0, 1],
    [169, 168],
    [1.4, 1],
    [2.5, 3],
    [-5, 1],
    ["abc", undefined],
    ["12h", undefined],
    [Number.NaN, undefined],
    [Infinity, undefined],
    [true, undefined],
  ];
  for (const [input, expected] of cases) {
    test(`${String(input)} → ${expected ?? "invalid"}`, () => {
      expect(parseDurationHours(input)).toBe(expected as number);
    });
  }
});

test("Paris display and input formats", () => {
  expect(formatParisDisplay(new Date("2026-06-21T16:05:00Z"))).toBe("21/06/2026, 18:05");
  expect(formatParisInput(new Date("2026-06-21T16:05:00Z"))).toBe("2026-06-21T18:05");
  expect(formatParisInput(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01T00:30");
});
