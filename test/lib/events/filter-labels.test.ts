// The slider labels the server computes and sends with the filter form: every range of both scales
// gets the documented label, and the lists cover the whole scale.

import { describe, expect, test } from "bun:test";
import { AGE_LABELS, PRICE_LABELS, rangeLabel, type RangeLabels } from "../../../src/lib/events/filter-labels.ts";
import { AGE_RANGE_BOUNDS, PRICE_RANGE_BOUNDS } from "../../../src/lib/events/filter-query.ts";

describe("range labels", () => {
  test.each([
    [0, 0, "Free only"],
    [0, 150, "Any price"],
    [0, 20, "Free - €20"],
    [10, 150, "€10+"],
    [10, 20, "€10 - €20"],
    [5, 5, "€5 - €5"],
    [149, 149, "€149 - €149"],
    [150, 150, "€150+"],
  ])("price %i–%i → %s", (min, max, label) => {
    expect(rangeLabel(PRICE_LABELS, { min, max })).toBe(label);
  });

  test.each([
    [18, 25, "Any age"],
    [19, 25, "Age 19+"],
    [18, 21, "Age 18 - 21"],
    [25, 25, "Age 25+"],
    [20, 20, "Age 20 - 20"],
  ])("age %i–%i → %s", (min, max, label) => {
    expect(rangeLabel(AGE_LABELS, { min, max })).toBe(label);
  });

  test("every value of each scale has its texts, and the thumbs' screen-reader texts say free and no limit", () => {
    const check = (labels: RangeLabels, bounds: { min: number; max: number }) => {
      const size = bounds.max - bounds.min + 1;
      expect([labels.min, labels.max]).toEqual([bounds.min, bounds.max]);
      for (const list of [labels.from, labels.to, labels.minText, labels.maxText]) {
        expect(list).toHaveLength(size);
        expect(list.every((text) => text.length > 0)).toBe(true);
      }
      expect(labels.maxText.at(-1)).toBe("No limit");
    };
    check(PRICE_LABELS, PRICE_RANGE_BOUNDS);
    check(AGE_LABELS, AGE_RANGE_BOUNDS);
    expect([PRICE_LABELS.minText[0], PRICE_LABELS.minText[12], PRICE_LABELS.maxText[12]]).toEqual(["Free", "€12", "€12"]);
    expect([AGE_LABELS.minText[0], AGE_LABELS.maxText[2]]).toEqual(["Age 18", "Age 20"]);
  });
});
