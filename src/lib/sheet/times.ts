import { t } from "../i18n/index.ts";
// Sheet times (see docs/sheet.md, "Times"): messy start/end cells to 24 h HH:MM, the time label and
// the day/night rule (docs/filters-and-search.md, "Day or night").

/** A time cell read: `HH:MM` when recognised, otherwise the trimmed text as written. */
export type TimeReading = { kind: "empty" } | { kind: "valid"; value: string } | { kind: "text"; value: string };

const SPACES = /\s+/g;
const SEPARATORS = /[.\-h;,]/g;
const REPEATED_COLONS = /:{2,}/g;
const TRAILING_COLON = /:$/;
const HOUR_MINUTE = /^(\d{1,2})(?::(\d{2}))?(am|pm)?$/;
const COMPACT = /^(\d{2})(\d{2})(am|pm)?$/;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

function toClock(hourText: string, minuteText: string | undefined, meridiem: string | undefined): string | null {
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59) return null;
  if (meridiem) {
    // With am/pm the hour is a 12-hour clock value: 12am is midnight, 12pm noon, other pm hours +12.
    if (hour < 1 || hour > 12) return null;
    if (meridiem === "am") hour = hour === 12 ? 0 : hour;
    else hour = hour === 12 ? 12 : hour + 12;
  }
  if (hour > 23) return null;
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** Normalises a time cell: "2:00 pm" → 14:00, "20h30" → 20:30, "1430" → 14:30; "TBC" stays text. */
export function readTimeCell(cell: string | null | undefined): TimeReading {
  const raw = (cell ?? "").trim();
  if (raw === "") return { kind: "empty" };
  const compact = raw
    .toLowerCase()
    .replace(SPACES, "")
    .replace(SEPARATORS, ":")
    .replace(REPEATED_COLONS, ":")
    .replace(TRAILING_COLON, "");
  const match = COMPACT.exec(compact) ?? HOUR_MINUTE.exec(compact);
  const clock = match ? toClock(match[1], match[2], match[3]) : null;
  return clock === null ? { kind: "text", value: raw } : { kind: "valid", value: clock };
}

/** The event field for a time cell: `HH:MM`, the raw text, or undefined when empty. */
export function normaliseTime(cell: string | null | undefined): string | undefined {
  const reading = readTimeCell(cell);
  return reading.kind === "empty" ? undefined : reading.value;
}

/** True for a recognised `HH:MM` value (00:00–23:59). */
export function isValidTime(value: string | null | undefined): value is string {
  return typeof value === "string" && HH_MM.test(value);
}

/** Minutes since midnight of a valid `HH:MM`, or null. */
export function minutesOfDay(value: string | null | undefined): number | null {
  if (!isValidTime(value)) return null;
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));
}

/** True when a valid end time is earlier than or equal to the valid start, i.e. it falls on the next day. */
export function endsNextDay(start: string | null | undefined, end: string | null | undefined): boolean {
  const s = minutesOfDay(start);
  const e = minutesOfDay(end);
  return s !== null && e !== null && e <= s;
}

/** Time label: "HH:MM–HH:MM", "HH:MM" without a valid end, "à confirmer" / "TBC" without a valid start. */
export function formatTimeLabel(start: string | null | undefined, end: string | null | undefined): string {
  if (!isValidTime(start)) return t("common.tbc");
  return isValidTime(end) ? `${start}–${end}` : start;
}

/** Minutes an event without an end time is taken to last (the "Tonight" chip and the calendar files read it so too). */
export const DEFAULT_EVENT_LENGTH_MINUTES = 180;
/** Night runs from 22:00 to 06:00: an event running at any minute of it is a night event. */
export const NIGHT_FROM = "22:00";
export const NIGHT_UNTIL = "06:00";

/**
 * Day or night of an event, the one rule behind the sun/moon icon (card, modal, My night) and the
 * day/night filter: night when the event runs at any minute from 22:00 to 06:00 (it starts then,
 * or runs past 22:00: 18:00–00:00 and 20:00–02:00 are night events), else day. The end is the
 * next day when it is not after the start; without a valid end the event lasts 3 hours. Null
 * without a valid start.
 */
export function dayPeriodOf(start: string | null | undefined, end?: string | null): "day" | "night" | null {
  const from = minutesOfDay(start);
  if (from === null) return null;
  const nightFrom = minutesOfDay(NIGHT_FROM)!;
  const nightUntil = minutesOfDay(NIGHT_UNTIL)!;
  if (from < nightUntil || from >= nightFrom) return "night";
  const endMinutes = minutesOfDay(end);
  // Between 06:00 and 22:00 a start reaches the night only by running past 22:00 of the same day.
  const until = endMinutes === null ? from + DEFAULT_EVENT_LENGTH_MINUTES : endMinutes <= from ? endMinutes + 1440 : endMinutes;
  return until > nightFrom ? "night" : "day";
}
