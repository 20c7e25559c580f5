// Price rules (§2.8): the euro value for filtering and the display label.

import { describe, expect, test } from "bun:test";
import { formatPriceLabel, isFreePrice, parsePriceValue } from "../../../src/lib/sheet/price.ts";

describe("parsePriceValue", () => {
  test.each([
    ["Free", 0],
    ["Free entry", 0],
    ["FREE before 11pm, €10 after", 0],
    ["Gratuit", 0],
    ["Entrée gratuite", 0],
    ["gratis", 0],
    ["No fee", 0],
    ["0", 0],
    ["0€", 0],
    ["€0", 0],
    ["£0", 0],
    ["€10", 10],
    ["10€", 10],
    ["15 EUR", 15],
    ["£10", 11.7],
    ["10 GBP", 11.7],
    ["5 pounds", 5.85],
    ["€5-€15", 5],
    ["€15 / €12 presale", 12],
    ["1.234,50", 1234.5],
    ["1,234.50", 1234.5],
    ["10,50 €", 10.5],
    ["€7,5", 7.5],
    ["1,234", 1234],
    ["1.234.567", 1234567],
    ["12.50", 12.5],
    ["Freedom Party €20", 20],
    ["TBA", null],
    ["Donation", null],
    ["", null],
  ])("%p → %p", (cell, value) => {
    expect(parsePriceValue(cell)).toBe(value);
  });
});

describe("formatPriceLabel", () => {
  test.each([
    ["", null, "TBA", false],
    ["TBA", null, "TBA", false],
    ["tbc", null, "TBA", false],
    ["Free", 0, "Free", true],
    ["Free entry", 0, "Free", true],
    ["0", 0, "Free", true],
    ["€0", 0, "Free", true],
    ["€10", 10, "€10", false],
    ["15€", 15, "15€", false],
    ["£10", 11.7, "£10", false],
    ["12 EUR", 12, "12 EUR", false],
    ["Donation", null, "Donation", false],
    ["12", 12, "€12", false],
    ["12.50", 12.5, "€12.50", false],
    ["10-15", 10, "10-15", false],
  ])("(%p, %p) → %p", (price, value, label, free) => {
    expect(formatPriceLabel(price, value)).toBe(label);
    expect(isFreePrice(price, value)).toBe(free);
  });
});
