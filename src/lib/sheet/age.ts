// Age guidance (see docs/sheet.md, "Age"): the minimum age used by the age filter, and the card and
// modal labels.

import { fold } from "./text.ts";
import { t } from "../i18n/index.ts";

const ALL_AGES = /all ages|tous ages|^0\+?$/;
const FIRST_INTEGER = /\d+/;
const BARE_NUMBER = /^\d+$/;

/** Minimum age of an Age Guidance cell: 0 for all ages, else the first integer ("18+" → 18), else null. */
export function parseAgeValue(cell: string | null | undefined): number | null {
  const text = fold(cell);
  if (text === "") return null;
  if (ALL_AGES.test(text)) return 0;
  const match = FIRST_INTEGER.exec(text);
  return match ? Number(match[0]) : null;
}

/** Card label: null (hidden) when empty, "All ages" for 0, text with "+" as written, "N+" for a bare number. */
export function formatAgeLabel(age: string | null | undefined, ageValue: number | null): string | null {
  const text = (age ?? "").trim();
  if (text === "") return null;
  if (ageValue === 0) return t("event.age.all");
  if (text.includes("+")) return text;
  return BARE_NUMBER.test(text) ? `${text}+` : text;
}

/** Modal label: like the card label, with "TBC" when empty. */
export function formatAgeModalLabel(age: string | null | undefined, ageValue: number | null): string {
  return formatAgeLabel(age, ageValue) ?? t("event.age.tbc");
}
