// Price (see docs/sheet.md, "Price"): the euro amount used by the price filter, and the display label.

import { fold } from "./text.ts";
import { formatMoney, t } from "../i18n/index.ts";

const FREE_WORDS = /(?<![a-z])(?:free|gratuite?s?|gratis|no fee)(?![a-z])/;
const NUMBER = /\d+(?:[.,]\d+)*/g;
const POUNDS = /£|gbp|pound/;
const EMPTY_OR_TBA = /^(?:|tba|tbc)$/;
const ZERO_PRICE = /^(?:0|0€|€0|£0)$/;
/** Pounds are converted at a fixed rate: the filter needs an order of magnitude, not an exchange rate. */
export const GBP_TO_EUR = 1.17;

// "1.234,50", "1,234.50", "10,50", "1,234": the last separator is decimal when both appear; a lone comma
// followed by one or two digits is a decimal comma; other commas and repeated dots group thousands.
function readNumber(token: string): number {
  const lastComma = token.lastIndexOf(",");
  const lastDot = token.lastIndexOf(".");
  let normalised: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? "," : ".";
    const grouping = decimal === "," ? /\./g : /,/g;
    normalised = token.replace(grouping, "").replace(decimal, ".");
  } else if (lastComma >= 0) {
    const decimalComma = token.indexOf(",") === lastComma && token.length - lastComma - 1 <= 2;
    normalised = decimalComma ? token.replace(",", ".") : token.replace(/,/g, "");
  } else if (token.indexOf(".") !== lastDot) {
    normalised = token.replace(/\./g, "");
  } else {
    normalised = token;
  }
  return Number(normalised);
}

/** What a Price cell says: free, amounts (lowest and highest) in a currency, or neither. */
export type PriceReading = { kind: "free" } | { kind: "amount"; min: number; max: number; currency: "EUR" | "GBP" } | { kind: "none" };

// A currency mark right before or after a number ("€10", "10 €", "15 EUR", "£10", "5 pounds"), or
// across a range's dash ("10-20 EUR", "€10–20").
const MARK_BEFORE = /(?:€|£|\$)\s*(?:\d+(?:[.,]\d+)*\s*[-–]\s*)?$/;
const MARK_AFTER = /^\s*(?:[-–]\s*\d+(?:[.,]\d+)*\s*)?(?:€|£|eur(?:os?)?|gbp|pounds?)(?![a-z])/;

/**
 * Reads a Price cell once for the filter and the label: free words (free, gratuit, gratis, no fee)
 * or a zero → free; else its numbers, only those written with a currency mark when some are
 * ("€15 / €12 presale" → 12–15, "5€ before 23h, 10€ after" → 5–10), in pounds when the text
 * names them, else euros; no number → none.
 */
export function readPrice(cell: string | null | undefined): PriceReading {
  const text = fold(cell);
  if (text === "" || isPriceUnknown(text)) return { kind: "none" };
  if (FREE_WORDS.test(text) || ZERO_PRICE.test(text.replace(/\s/g, ""))) return { kind: "free" };
  const all: number[] = [];
  const marked: number[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const value = readNumber(match[0]);
    if (!Number.isFinite(value)) continue;
    all.push(value);
    const at = match.index ?? 0;
    if (MARK_BEFORE.test(text.slice(0, at)) || MARK_AFTER.test(text.slice(at + match[0].length))) marked.push(value);
  }
  const numbers = marked.length > 0 ? marked : all;
  if (numbers.length === 0) return { kind: "none" };
  return { kind: "amount", min: Math.min(...numbers), max: Math.max(...numbers), currency: POUNDS.test(text) ? "GBP" : "EUR" };
}

/** Euro amount of a Price cell for filtering: 0 when free, else the lowest amount (£ × 1.17), else null. */
export function parsePriceValue(cell: string | null | undefined): number | null {
  const reading = readPrice(cell);
  if (reading.kind === "free") return 0;
  if (reading.kind === "none") return null;
  const euros = reading.currency === "GBP" ? reading.min * GBP_TO_EUR : reading.min;
  return Math.round(euros * 100) / 100;
}

/** True when the price text is empty, TBA or TBC. */
export function isPriceUnknown(price: string | null | undefined): boolean {
  return EMPTY_OR_TBA.test(fold(price));
}

/**
 * Display label in the current language, from the parsed amounts and never the cell's own
 * spelling: "à confirmer" / "TBA" when empty, TBA or TBC; "Gratuit" / "Free"; the amount or range
 * by the language's conventions ("10 €", "10–15 €" / "€10", "€10 – €15"); a cell without any
 * number ("Donation", "Prix libre") as written.
 */
export function formatPriceLabel(price: string | null | undefined, priceValue: number | null): string {
  const text = (price ?? "").trim();
  if (isPriceUnknown(text)) return t("price.tba");
  if (priceValue === 0) return t("common.free");
  const reading = readPrice(text);
  if (reading.kind === "amount") return formatMoney(reading.min, reading.max, reading.currency);
  if (reading.kind === "free") return t("common.free");
  return text;
}

/** True when the label is the green "Free" one. */
export function isFreePrice(price: string | null | undefined, priceValue: number | null): boolean {
  return !isPriceUnknown(price) && priceValue === 0;
}
