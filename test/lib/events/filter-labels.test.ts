// The slider labels the server computes and sends with the filter form: every range of both scales
// gets the documented label in both languages, and the lists cover the whole scale.

import { describe, expect, test } from "bun:test";
import { ageLabels, ageRangeLabel, priceLabels, priceRangeLabel, rangeLabel, type RangeLabels } from "../../../src/lib/events/filter-labels.ts";
import { AGE_RANGE_BOUNDS, PRICE_RANGE_BOUNDS } from "../../../src/lib/events/filter-query.ts";
import { inLanguage } from "../../../src/lib/i18n/index.ts";

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
    expect(rangeLabel(priceLabels("en"), { min, max })).toBe(label);
  });

  test.each([
    [18, 25, "Any age"],
    [19, 25, "Age 19+"],
    [18, 21, "Age 18 - 21"],
    [25, 25, "Age 25+"],
    [20, 20, "Age 20 - 20"],
  ])("age %i–%i → %s", (min, max, label) => {
    expect(rangeLabel(ageLabels("en"), { min, max })).toBe(label);
  });

  test.each([
    [0, 0, "Gratuit uniquement"],
    [0, 150, "Tous les prix"],
    [0, 20, "Gratuit - 20 €"],
    [10, 150, "10 € et plus"],
    [10, 20, "10 € - 20 €"],
  ])("French price %i–%i → %s", (min, max, label) => {
    expect(rangeLabel(priceLabels("fr"), { min, max })).toBe(label);
    expect(inLanguage("fr", () => priceRangeLabel({ min, max }))).toBe(label);
  });

  test.each([
    [18, 25, "Tous les âges"],
    [19, 25, "19 ans et plus"],
    [18, 21, "18 - 21 ans"],
  ])("French age %i–%i → %s", (min, max, label) => {
    expect(rangeLabel(ageLabels("fr"), { min, max })).toBe(label);
    expect(inLanguage("fr", () => ageRangeLabel({ min, max }))).toBe(label);
  });

  test("every value of each scale has its texts, and the thumbs' screen-reader texts say free and no limit", () => {
    const check = (labels: RangeLabels, bounds: { min: number; max: number }) => {
      const size = bounds.max - bounds.min + 1;
      expect([labels.min, labels.max]).toEqual([bounds.min, bounds.max]);
      for (const list of [labels.from, labels.to, labels.minText, labels.maxText]) {
        expect(list).toHaveLength(size);
        expect(list.every((text) => text.length > 0)).toBe(true);
      }
      expect(labels.maxText.at(-1)).toBe(noLimit);
    };
    const noLimit = "No limit";
    check(priceLabels("en"), PRICE_RANGE_BOUNDS);
    check(ageLabels("en"), AGE_RANGE_BOUNDS);
    expect([priceLabels("en").minText[0], priceLabels("en").minText[12], priceLabels("en").maxText[12]]).toEqual(["Free", "€12", "€12"]);
    expect([ageLabels("en").minText[0], ageLabels("en").maxText[2]]).toEqual(["Age 18", "Age 20"]);
    expect([priceLabels("fr").minText[0], priceLabels("fr").maxText[12], priceLabels("fr").maxText.at(-1), ageLabels("fr").minText[0]]).toEqual(["Gratuit", "12 €", "Sans limite", "18 ans"]);
  });
});
