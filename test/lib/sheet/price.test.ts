// Price rules (docs/sheet.md, "Price"): the euro value for filtering and the display label.

import { describe, expect, test } from "bun:test";
import { formatPriceLabel, isFreePrice, parsePriceValue, readPrice } from "../../../src/lib/sheet/price.ts";
import { inLanguage } from "../../../src/lib/i18n/index.ts";

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
    ["5€ before 23h, 10€ after", 5],
    ["Entry 10€, 2 drinks", 10],
    ["TBA", null],
    ["Donation", null],
    ["", null],
  ])("%p → %p", (cell, value) => {
    expect(parsePriceValue(cell)).toBe(value);
  });
});

describe("formatPriceLabel: from the parsed amounts, by each language's conventions", () => {
  // fr-FR puts a no-break space before the sign (Intl); written here as \u00a0.
  test.each([
    ["", "TBA", "à confirmer", false],
    ["TBA", "TBA", "à confirmer", false],
    ["tbc", "TBA", "à confirmer", false],
    ["Free", "Free", "Gratuit", true],
    ["Free entry", "Free", "Gratuit", true],
    ["Entrée gratuite", "Free", "Gratuit", true],
    ["0", "Free", "Gratuit", true],
    ["€0", "Free", "Gratuit", true],
    ["€10", "€10", "10\u00a0€", false],
    ["15€", "€15", "15\u00a0€", false],
    ["12", "€12", "12\u00a0€", false],
    ["12 EUR", "€12", "12\u00a0€", false],
    ["12.50", "€12.50", "12,50\u00a0€", false],
    ["10,5 €", "€10.50", "10,50\u00a0€", false],
    ["10-15", "€10 – €15", "10–15\u00a0€", false],
    ["€15 / €12 presale", "€12 – €15", "12–15\u00a0€", false],
    ["5€ before 23h, 10€ after", "€5 – €10", "5–10\u00a0€", false],
    ["£10", "£10", "10\u00a0£", false],
    ["Donation", "Donation", "Donation", false],
  ])("%p → %p / %p", (price, en, fr, free) => {
    const value = parsePriceValue(price);
    expect(inLanguage("en", () => formatPriceLabel(price, value))).toBe(en);
    expect(inLanguage("fr", () => formatPriceLabel(price, value))).toBe(fr);
    expect(isFreePrice(price, value)).toBe(free);
  });
});

describe("readPrice", () => {
  test.each([
    ["Free", { kind: "free" }],
    ["TBC", { kind: "none" }],
    ["Prix libre", { kind: "none" }],
    ["€10", { kind: "amount", min: 10, max: 10, currency: "EUR" }],
    ["10 GBP", { kind: "amount", min: 10, max: 10, currency: "GBP" }],
    // Numbers written with a currency mark win over the others ("23h" is a time).
    ["5€ before 23h, 10€ after", { kind: "amount", min: 5, max: 10, currency: "EUR" }],
    ["10-15", { kind: "amount", min: 10, max: 15, currency: "EUR" }],
    // A mark on one end of a range marks both.
    ["10-20 EUR", { kind: "amount", min: 10, max: 20, currency: "EUR" }],
    ["€10–20 (doors at 8)", { kind: "amount", min: 10, max: 20, currency: "EUR" }],
  ])("%p", (cell, reading) => {
    expect(readPrice(cell)).toEqual(reading as never);
  });
});
