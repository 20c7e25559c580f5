// Curated flag, event type, event category, tags and notes (see docs/sheet.md, "Curated, type,
// category, tags and notes").

import { buildAliasMatcher } from "./genres.ts";
import { fold } from "./text.ts";
import { minutesOfDay } from "./times.ts";
import type { EventCategory, EventType, LiveEvent } from "./types.ts";
import { t } from "../i18n/index.ts";

/** A Curated cell read: the flag and whether a non-empty value was not recognised. */
export interface CuratedReading {
  curated: boolean;
  unexpected: boolean;
}

const CURATED_YES: ReadonlySet<string> = new Set(["yes", "y", "true", "1", "x"]);
const PICK_WORD = /(?<![a-z0-9])picks?(?![a-z0-9])/;
const STARS = /🌟|⭐/u;

/** Curated is true for yes/y/true/1/x, the word pick(s), 🌟 or ⭐; any other non-empty value is false and unexpected. */
export function parseCurated(cell: string | null | undefined): CuratedReading {
  const text = fold(cell);
  if (text === "") return { curated: false, unexpected: false };
  if (CURATED_YES.has(text) || PICK_WORD.test(text) || STARS.test(text)) return { curated: true, unexpected: false };
  return { curated: false, unexpected: true };
}

const AFTER_PARTY_WORDS =
  /after party|afterparty|after-party|after show|aftershow|after-show|late night|latenight|late-night|night session|nightsession/;
const LATE_START_FROM = 23 * 60;
const LATE_START_UNTIL = 4 * 60;

/** "After Party" when the title says so or the valid start lies in 23:00–03:59; otherwise "Day Party". */
export function eventTypeOf(title: string | null | undefined, startTime: string | null | undefined): EventType {
  if (AFTER_PARTY_WORDS.test(fold(title))) return "After Party";
  const start = minutesOfDay(startTime);
  if (start !== null && (start >= LATE_START_FROM || start < LATE_START_UNTIL)) return "After Party";
  return "Day Party";
}

/** The event categories in list order. */
export const EVENT_CATEGORIES: readonly EventCategory[] = ["party", "activity", "culture", "food", "wellness"];

/** Extra spellings per event category; each key is also its own alias. */
export const EVENT_CATEGORY_ALIASES: Readonly<Record<EventCategory, readonly string[]>> = {
  party: ["nightlife", "club night"],
  activity: ["experience", "things to do"],
  culture: ["art", "fashion", "exhibition", "talk", "screening"],
  food: ["drinks", "dining", "brunch"],
  wellness: ["fitness", "movement", "health"],
};

const matchCategory = buildAliasMatcher(EVENT_CATEGORIES, EVENT_CATEGORY_ALIASES);

/** Event category of a cell: exact alias, else the longest contained alias ("art party" → party); unknown → null. */
export function parseEventCategory(cell: string | null | undefined): EventCategory | null {
  return (matchCategory(cell ?? "") as EventCategory | null) ?? null;
}

/** A category's label in the current language ("Fête" / "Party"). */
export function eventCategoryLabel(category: EventCategory): string {
  return t(`event.category.${category}`);
}

/**
 * What kind of event it is, in the current language: the category's label when the sheet names
 * one, and "After" / "After party" for an after party. The card and the modal both show exactly
 * these. A "Day Party" says nothing a visitor can use (a choir concert is one too, and the sun or
 * moon already tells the time of day), so it shows nothing.
 */
export function eventKindLabels(event: Pick<LiveEvent, "category" | "type">): string[] {
  const labels: string[] = [];
  if (event.category) labels.push(eventCategoryLabel(event.category));
  if (event.type === "After Party") labels.push(t("event.type.afterParty"));
  return labels;
}

/** Tags: split on commas, trimmed, empty dropped, de-duplicated case-insensitively (first spelling kept). */
export function parseTags(cell: string | null | undefined): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of (cell ?? "").split(",")) {
    const tag = raw.trim();
    const folded = fold(tag);
    if (tag === "" || seen.has(folded)) continue;
    seen.add(folded);
    tags.push(tag);
  }
  return tags;
}
