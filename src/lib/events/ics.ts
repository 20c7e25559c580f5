// Calendar files (see docs/public-pages.md, "Calendar files"): the RFC 5545 .ics for one event's
// "Add to Calendar" and a calendar of several events (the subscribable feed, My night), with the
// refresh hint every one carries and the reminder (VALARM) only files a visitor picked carry.

import { arrondissementLongLabel } from "../sheet/arrondissement.ts";
import { formatAgeLabel } from "../sheet/age.ts";
import { addDays, isValidIsoDate } from "../sheet/dates.ts";
import { genreLabel } from "../sheet/genres.ts";
import { slugify } from "../sheet/keys.ts";
import { isUnknownLocation } from "../sheet/location.ts";
import { formatPriceLabel } from "../sheet/price.ts";
import { eventCategoryLabel } from "../sheet/misc-fields.ts";
import { minutesOfDay } from "../sheet/times.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { currentLanguage, t } from "../i18n/index.ts";
import { PARIS_TIME_ZONE, parisDate } from "../paris-time.ts";
import type { Edition } from "./editions.ts";

/** Content type of a calendar response. */
export const CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8";

/** The time zone every DTSTART/DTEND names: sheet times are Paris wall-clock values. */
export const CALENDAR_TZID = PARIS_TIME_ZONE;

/** What a single-event calendar needs besides the event. */
export interface EventCalendarOptions {
  /** Display name of the site (PRODID, "Added via …"). */
  siteName: string;
  /** Host of the public site URL, used in UIDs. */
  siteHost: string;
  /** The event's share link (/event/<key>/<slug>), written as URL. */
  shareUrl: string;
  /** DTSTAMP, and the clock the refresh hint is read at. */
  now: Date;
  /** The current edition (currentEdition with the process's windows): it decides the refresh hint. */
  edition: Edition;
  /**
   * Minutes before the start a VALARM reminds (CALENDAR_REMINDER_MINUTES); absent or 0: no alarm.
   * Files a visitor adds one by one pass it; the subscribable /calendar.ics never does.
   */
  reminderMinutes?: number;
}

/** What a feed needs: the single-event options with a share link per event, and an optional calendar name. */
export interface CalendarFeedOptions extends Omit<EventCalendarOptions, "shareUrl"> {
  shareUrlFor: (event: LiveEvent) => string;
  /** X-WR-CALNAME; the site name when absent. */
  calendarName?: string;
}

/** A Paris wall-clock moment: ISO date and HH:MM. */
export interface WallClock {
  date: string;
  time: string;
}

const CRLF = "\r\n";
const MAX_LINE_OCTETS = 75;
const DEFAULT_START = "20:00";
const DEFAULT_END = "23:59";
const DEFAULT_DURATION_MINUTES = 180;
const MINUTES_PER_DAY = 24 * 60;

/** Days before an edition's first day from which calendar apps are asked to refresh often. */
export const FESTIVAL_REFRESH_LEAD_DAYS = 7;
/** The refresh hints: often around the festival (retimes and cancellations come in fast), twice a day otherwise. */
export const REFRESH_FESTIVAL = "PT15M";
export const REFRESH_QUIET = "PT12H";
export type CalendarRefresh = typeof REFRESH_FESTIVAL | typeof REFRESH_QUIET;

const BACKSLASH = /\\/g;
const SEMICOLON = /;/g;
const COMMA = /,/g;
const NEWLINE = /\r\n|\r|\n/g;
// Control characters other than tab are not allowed in iCalendar values (RFC 5545, sections 3.1 and 3.3.11).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
const NON_ASCII = /[^\x00-\x7f]/;
const DATE_DASHES = /-/g;
const SAFE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Escapes a TEXT value (RFC 5545, section 3.3.11): `\\`, `\;`, `\,` and every line break as `\n`. */
export function escapeIcsText(value: string): string {
  return value
    .replace(BACKSLASH, "\\\\")
    .replace(SEMICOLON, "\\;")
    .replace(COMMA, "\\,")
    .replace(NEWLINE, "\\n")
    .replace(CONTROL, "");
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * Folds one content line at 75 octets (RFC 5545, section 3.1): continuation lines start with a space, and a
 * multi-byte UTF-8 character is never split. Returns the line with CRLF between the pieces, without a final CRLF.
 */
export function foldIcsLine(line: string): string {
  if (line.length <= MAX_LINE_OCTETS && !NON_ASCII.test(line)) return line;
  let out = "";
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0)!);
    if (octets + size > MAX_LINE_OCTETS) {
      out += current + CRLF;
      // The leading space of a continuation line counts towards its 75 octets.
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  return out + current;
}

function icsDate(iso: string): string {
  return iso.replace(DATE_DASHES, "");
}

function icsLocalDateTime(moment: WallClock): string {
  return `${icsDate(moment.date)}T${moment.time.slice(0, 2)}${moment.time.slice(3, 5)}00`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** A UTC instant as an iCalendar DATE-TIME with `Z` (DTSTAMP). */
export function icsUtcStamp(instant: Date): string {
  const time = Number.isFinite(instant.getTime()) ? instant : new Date(0);
  return (
    `${time.getUTCFullYear()}${pad2(time.getUTCMonth() + 1)}${pad2(time.getUTCDate())}` +
    `T${pad2(time.getUTCHours())}${pad2(time.getUTCMinutes())}${pad2(time.getUTCSeconds())}Z`
  );
}

function clockOf(minutes: number): string {
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

/**
 * Start and end of an event on the Paris wall clock: the end time (next day when ≤ start) or
 * start + 3 h, crossing midnight when needed; 20:00–23:59 on the date without a valid start. Null without a valid date.
 */
export function calendarEventTimes(event: Pick<LiveEvent, "date" | "time" | "endTime">): { start: WallClock; end: WallClock } | null {
  if (!isValidIsoDate(event.date)) return null;
  const startMinutes = minutesOfDay(event.time);
  if (startMinutes === null) {
    return { start: { date: event.date, time: DEFAULT_START }, end: { date: event.date, time: DEFAULT_END } };
  }
  const start = { date: event.date, time: event.time as string };
  const endMinutes = minutesOfDay(event.endTime);
  if (endMinutes !== null) {
    const endDate = endMinutes <= startMinutes ? addDays(event.date, 1) : event.date;
    return { start, end: { date: endDate, time: event.endTime as string } };
  }
  const total = startMinutes + DEFAULT_DURATION_MINUTES;
  const endDate = total >= MINUTES_PER_DAY ? addDays(event.date, 1) : event.date;
  return { start, end: { date: endDate, time: clockOf(total % MINUTES_PER_DAY) } };
}

/** "<venue>, <long arrondissement>, Paris, France", leaving out the unknown parts. */
export function calendarLocation(event: Pick<LiveEvent, "location" | "arrondissement">): string {
  const parts: string[] = [];
  if (!isUnknownLocation(event.location)) parts.push((event.location ?? "").trim());
  if (event.arrondissement !== "unknown") parts.push(arrondissementLongLabel(event.arrondissement));
  parts.push("Paris", "France");
  return parts.join(", ");
}

/**
 * The DESCRIPTION text in the current language: notes and a blank line, Music, Category, Price (the
 * label, so never a second currency sign), Age, the unverified notice, Tickets, "Added via <site name>".
 */
export function calendarDescription(event: LiveEvent, siteName: string): string {
  const lines: string[] = [];
  if (event.status !== "scheduled") {
    const status = t(`status.${event.status}`);
    lines.push(event.statusNote ? t("status.ics", { status, note: event.statusNote }) : status, "");
  }
  const notes = event.description.trim();
  if (notes !== "") lines.push(notes, "");
  lines.push(t("ics.music", { genres: event.genres.length > 0 ? event.genres.map(genreLabel).join(", ") : t("common.tbc") }));
  if (event.category) lines.push(t("ics.category", { category: eventCategoryLabel(event.category) }));
  lines.push(t("ics.price", { price: formatPriceLabel(event.price, event.priceValue) }));
  const age = formatAgeLabel(event.age, event.ageValue);
  if (age !== null) lines.push(t("ics.age", { age }));
  if (!event.verified) lines.push(t("ics.unverified"));
  if (event.link) lines.push(t("ics.tickets", { link: event.link }));
  lines.push(t("ics.addedVia", { site: siteName }));
  return lines.join("\n");
}

// The one VTIMEZONE: EU rules since 1996, CET from the last Sunday of October 03:00, CEST from the last Sunday of March 02:00.
const PARIS_VTIMEZONE: readonly string[] = [
  "BEGIN:VTIMEZONE",
  `TZID:${CALENDAR_TZID}`,
  "BEGIN:STANDARD",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
];

/**
 * How often a calendar app should fetch a file or feed again (the one home of this rule): every
 * 15 minutes while `edition` is live or within 7 days before its first day (Paris calendar at
 * `now`), every 12 hours otherwise.
 */
export function calendarRefreshInterval(edition: Pick<Edition, "from" | "to">, now: Date): CalendarRefresh {
  const today = parisDate(now);
  const soon = addDays(edition.from, -FESTIVAL_REFRESH_LEAD_DAYS);
  return today >= soon && today <= edition.to ? REFRESH_FESTIVAL : REFRESH_QUIET;
}

function calendarHead(options: Pick<EventCalendarOptions, "siteName" | "edition" | "now">, extra: readonly string[]): string[] {
  const refresh = calendarRefreshInterval(options.edition, options.now);
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeIcsText(options.siteName)}//Event Calendar//${currentLanguage().toUpperCase()}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...extra,
    // RFC 7986's property and the older one most calendar apps read.
    `REFRESH-INTERVAL;VALUE=DURATION:${refresh}`,
    `X-PUBLISHED-TTL:${refresh}`,
    ...PARIS_VTIMEZONE,
  ];
}

/**
 * The reminder of one event: a DISPLAY alarm `minutes` before its start naming it. None for 0 (or
 * unset), for a cancelled event (nothing to go to) and without a start time (20:00 is a placeholder).
 */
function valarmLines(event: LiveEvent, minutes: number | undefined): string[] {
  if (minutes === undefined || !Number.isInteger(minutes) || minutes <= 0) return [];
  if (event.status === "cancelled" || minutesOfDay(event.time) === null) return [];
  return ["BEGIN:VALARM", "ACTION:DISPLAY", `TRIGGER:-PT${minutes}M`, `DESCRIPTION:${escapeIcsText(event.eventName.trim())}`, "END:VALARM"];
}

function veventLines(event: LiveEvent, siteName: string, siteHost: string, shareUrl: string, stamp: string, reminderMinutes: number | undefined): string[] | null {
  const times = calendarEventTimes(event);
  if (times === null) return null;
  const lines = [
    "BEGIN:VEVENT",
    `UID:${escapeIcsText(`${event.eventKey}@${siteHost}`)}`,
    `DTSTAMP:${stamp}`,
    `DTSTART;TZID=${CALENDAR_TZID}:${icsLocalDateTime(times.start)}`,
    `DTEND;TZID=${CALENDAR_TZID}:${icsLocalDateTime(times.end)}`,
    `SUMMARY:${escapeIcsText(event.eventName.trim())}`,
    `DESCRIPTION:${escapeIcsText(calendarDescription(event, siteName))}`,
    `LOCATION:${escapeIcsText(calendarLocation(event))}`,
  ];
  // URL is a URI value, not TEXT: it is written unescaped, minus anything that would break the line.
  const url = shareUrl.replace(NEWLINE, "").replace(CONTROL, "").trim();
  if (url !== "") lines.push(`URL:${url}`);
  // A calendar that subscribed replaces its copy when SEQUENCE rises; a cancelled event stays in it, marked.
  lines.push(`SEQUENCE:${event.sequence}`, `STATUS:${event.status === "cancelled" ? "CANCELLED" : "CONFIRMED"}`, "TRANSP:OPAQUE", ...valarmLines(event, reminderMinutes), "END:VEVENT");
  return lines;
}

function serialise(lines: readonly string[]): string {
  let out = "";
  for (const line of lines) out += foldIcsLine(line) + CRLF;
  return out;
}

/** The .ics text for one event's "Add to Calendar"; null when the event has no valid date (no file). */
export function buildEventCalendar(event: LiveEvent, options: EventCalendarOptions): string | null {
  const vevent = veventLines(event, options.siteName, options.siteHost, options.shareUrl, icsUtcStamp(options.now), options.reminderMinutes);
  if (vevent === null) return null;
  return serialise([...calendarHead(options, []), ...vevent, "END:VCALENDAR"]);
}

/**
 * A calendar of several events: one VCALENDAR with X-WR-CALNAME, the refresh hint, the Paris
 * VTIMEZONE and one VEVENT per dated event (with a VALARM each only when `reminderMinutes` is set:
 * My night's file, never the /calendar.ics subscription).
 */
export function buildCalendarFeed(events: readonly LiveEvent[], options: CalendarFeedOptions): string {
  const stamp = icsUtcStamp(options.now);
  const name = options.calendarName ?? options.siteName;
  const lines = calendarHead(options, [`X-WR-CALNAME:${escapeIcsText(name)}`]);
  for (const event of events) {
    if (!isValidIsoDate(event.date)) continue;
    const vevent = veventLines(event, options.siteName, options.siteHost, options.shareUrlFor(event), stamp, options.reminderMinutes);
    if (vevent !== null) lines.push(...vevent);
  }
  lines.push("END:VCALENDAR");
  return serialise(lines);
}

/** Download name `<slug>-<ISO date>.ics`; null when the date is not valid. */
export function calendarFileName(event: Pick<LiveEvent, "slug" | "eventName" | "date">): string | null {
  if (!isValidIsoDate(event.date)) return null;
  const slug = SAFE_SLUG.test(event.slug) ? event.slug : slugify(event.eventName);
  return `${slug}-${event.date}.ics`;
}
