// Curated, event type, event category and tags (§2.11).

import { describe, expect, test } from "bun:test";
import { eventTypeOf, parseCurated, parseEventCategory, parseTags } from "../../../src/lib/sheet/misc-fields.ts";

describe("parseCurated", () => {
  test.each([
    ["Yes", true, false],
    ["y", true, false],
    ["TRUE", true, false],
    ["1", true, false],
    ["x", true, false],
    ["OOOC Pick", true, false],
    ["Our picks", true, false],
    ["🌟", true, false],
    ["⭐️", true, false],
    ["", false, false],
    ["No", false, true],
    ["maybe", false, true],
    ["picky", false, true],
  ])("%p → curated %p, unexpected %p", (cell, curated, unexpected) => {
    expect(parseCurated(cell)).toEqual({ curated, unexpected });
  });
});

describe("eventTypeOf", () => {
  test.each([
    ["Trap & Drill After Party", "20:00", "After Party"],
    ["The Afterparty", undefined, "After Party"],
    ["After-Show Drinks", "18:00", "After Party"],
    ["Aftershow", "18:00", "After Party"],
    ["Late Night R&B", "18:00", "After Party"],
    ["Late-night jazz", "18:00", "After Party"],
    ["Latenight", "18:00", "After Party"],
    ["Night Session", "18:00", "After Party"],
    ["NightSession vol. 2", "18:00", "After Party"],
    ["Warehouse", "23:00", "After Party"],
    ["Warehouse", "03:59", "After Party"],
    ["Warehouse", "00:30", "After Party"],
    ["Warehouse", "04:00", "Day Party"],
    ["Warehouse", "22:59", "Day Party"],
    ["Warehouse", "late", "Day Party"],
    ["Warehouse", undefined, "Day Party"],
  ])("(%p, %p) → %p", (title, start, type) => {
    expect(eventTypeOf(title, start)).toBe(type as never);
  });
});

describe("parseEventCategory", () => {
  test.each([
    ["party", "party"],
    ["Nightlife", "party"],
    ["Club night", "party"],
    ["Experience", "activity"],
    ["Things to do", "activity"],
    ["Art", "culture"],
    ["Fashion show", "culture"],
    ["Screening", "culture"],
    ["Brunch", "food"],
    ["Drinks & dining", "food"],
    ["Fitness", "wellness"],
    ["Health", "wellness"],
    ["art party", "party"],
    ["Wellness", "wellness"],
    ["Concert", null],
    ["", null],
  ])("%p → %p", (cell, category) => {
    expect(parseEventCategory(cell)).toBe(category as never);
  });
});

describe("parseTags", () => {
  test.each([
    ["festival, garden, family", ["festival", "garden", "family"]],
    ["Family, family ,FAMILY, Garden", ["Family", "Garden"]],
    [" , street stage,, ", ["street stage"]],
    ["", []],
  ])("%p → %p", (cell, tags) => {
    expect(parseTags(cell)).toEqual(tags);
  });
});
