// Price (see docs/sheet.md, "Price"): the euro amount used by the price filter, and the display label.

import { fold } from "./text.ts";
import { t } from "../i18n/index.ts";

const FREE_WORDS = /(?<![a-z])(?:free|gratuite?s?|gratis|no fee)(?![a-z])/;
const NUMBER = /\d+(?:[.,]\d+)*/g;
const POUNDS = /£|gbp|pound/;
const EMPTY_OR_TBA = /^(?:|tba|tbc)$/;
const ZERO_PRICE = /^(?:0|0€|€0|£0)$/;
const CURRENCY_OR_LETTER = /[\p{Sc}\p{L}]/u;
const BARE_NUMBER = /^\d+(?:[.,]\d+)?$/;
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

/** Euro amount of a Price cell for filtering: 0 for free wording or a zero, else the lowest number (£ × 1.17), else null. */
export function parsePriceValue(cell: string | null | undefined): number | null {
  const text = fold(cell);
  if (text === "") return null;
  if (FREE_WORDS.test(text) || ZERO_PRICE.test(text.replace(/\s/g, ""))) return 0;
  const numbers = (text.match(NUMBER) ?? []).map(readNumber).filter(Number.isFinite);
  if (numbers.length === 0) return null;
  const lowest = Math.min(...numbers);
  const euros = POUNDS.test(text) ? lowest * GBP_TO_EUR : lowest;
  return Math.round(euros * 100) / 100;
}

/** True when the price text is empty, TBA or TBC. */
export function isPriceUnknown(price: string | null | undefined): boolean {
  return EMPTY_OR_TBA.test(fold(price));
}

/** Display label in the current language: "TBA" / "à confirmer", "Free" / "Gratuit", the text as written, or "€N" for a bare number. */
export function formatPriceLabel(price: string | null | undefined, priceValue: number | null): string {
  const text = (price ?? "").trim();
  if (isPriceUnknown(text)) return t("price.tba");
  if (priceValue === 0) return t("common.free");
  if (CURRENCY_OR_LETTER.test(text)) return text;
  return BARE_NUMBER.test(text) ? `€${text}` : text;
}

/** True when the label is the green "Free" one. */
export function isFreePrice(price: string | null | undefined, priceValue: number | null): boolean {
  return !isPriceUnknown(price) && priceValue === 0;
}
