// Age guidance rules (§2.9): minimum age and labels.

import { expect, test } from "bun:test";
import { formatAgeLabel, formatAgeModalLabel, parseAgeValue } from "../../../src/lib/sheet/age.ts";

test.each([
  ["All ages", 0, "All ages", "All ages"],
  ["Tous âges", 0, "All ages", "All ages"],
  ["0", 0, "All ages", "All ages"],
  ["0+", 0, "All ages", "All ages"],
  ["18+", 18, "18+", "18+"],
  ["21", 21, "21+", "21+"],
  ["16+ (under 18s with an adult)", 16, "16+ (under 18s with an adult)", "16+ (under 18s with an adult)"],
  ["Over 18s", 18, "Over 18s", "Over 18s"],
  ["Adults only", null, "Adults only", "Adults only"],
  ["", null, null, "TBC"],
])("%p → value %p, card %p, modal %p", (cell, value, card, modal) => {
  const ageValue = parseAgeValue(cell);
  expect(ageValue).toBe(value);
  expect(formatAgeLabel(cell, ageValue)).toBe(card);
  expect(formatAgeModalLabel(cell, ageValue)).toBe(modal);
});
