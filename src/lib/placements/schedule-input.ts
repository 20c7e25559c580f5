// Admin input for placements: the requested start (empty, a full ISO instant, or a Paris wall-clock
// time) and the duration in hours; and the console's Paris-time display (see docs/placements.md,
// "Input").

import { parisFormat, parisWallClockInstant, WALL_CLOCK } from "../paris-time.ts";

export { parisWallClockInstant };

export const DEFAULT_DURATION_HOURS = 48;
export const MIN_DURATION_HOURS = 1;
export const MAX_DURATION_HOURS = 168;

/** The message for a start that does not parse or does not exist on the Paris clock. */
export const INVALID_SCHEDULE_TIME = "Invalid schedule time. Use YYYY-MM-DDTHH:mm (Paris time) or full ISO";
/** The message for a duration that is not a number. */
export const INVALID_DURATION = "Duration must be a number of hours between 1 and 168";

/** Furthest a requested start may lie ahead: a placement is for this season, not for years ahead. */
export const MAX_LEAD_DAYS = 400;

const FULL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Duration in hours: absent or empty → 48; a number (or numeric text) is rounded and clamped to
 * 1–168; anything else is undefined (invalid).
 */
export function parseDurationHours(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === "") return DEFAULT_DURATION_HOURS;
  const value = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value)) return undefined;
  return Math.min(MAX_DURATION_HOURS, Math.max(MIN_DURATION_HOURS, Math.round(value)));
}

/**
 * The requested start: empty → now; a full ISO instant (Z or offset) → that instant;
 * `YYYY-MM-DDTHH:mm` → Paris wall-clock time. A start in the past becomes now. Undefined when the
 * text does not parse, falls in the spring-forward gap, or lies more than 400 days ahead.
 */
export function parseRequestedStart(raw: unknown, now: Date): Date | undefined {
  if (raw === undefined || raw === null) return now;
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (text === "") return now;
  let instant: Date | undefined;
  if (WALL_CLOCK.test(text)) instant = parisWallClockInstant(text);
  else if (FULL_ISO.test(text)) {
    const parsed = new Date(text);
    instant = Number.isNaN(parsed.getTime()) ? undefined : parsed;
  }
  if (!instant) return undefined;
  if (instant.getTime() > now.getTime() + MAX_LEAD_DAYS * 86_400_000) return undefined;
  return instant.getTime() < now.getTime() ? now : instant;
}

const PARIS_DISPLAY = parisFormat("en-GB", { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const PARIS_INPUT = parisFormat("sv-SE", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** `DD/MM/YYYY, HH:mm` on the Paris clock (the console's display). */
export function formatParisDisplay(at: Date): string {
  return PARIS_DISPLAY.format(at);
}

/** `YYYY-MM-DDTHH:mm` on the Paris clock (the value of a datetime-local input). */
export function formatParisInput(at: Date): string {
  return PARIS_INPUT.format(at).replace(" ", "T");
}
