// Paris wall-clock maths: the Paris date, year and UTC offset of an instant, the instant of a Paris
// wall-clock time, Paris date formats and the SQL of a Paris calendar day. Every Paris-time
// calculation of the service goes through here.

import { sql, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";

/** The festival's time zone (IANA name). */
export const PARIS_TIME_ZONE = "Europe/Paris";

const formats = new Map<string, Intl.DateTimeFormat>();

/** A date format on the Paris wall clock, made once per locale and options. */
export function parisFormat(locale: string, options: Omit<Intl.DateTimeFormatOptions, "timeZone">): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: PARIS_TIME_ZONE })));
  return format;
}

/** SQL: a timestamptz column or expression as a Paris wall-clock timestamp (no zone). */
export function parisWallClockSql(instant: SQLWrapper | AnyColumn): SQL {
  return sql`(${instant} at time zone ${sql.raw(`'${PARIS_TIME_ZONE}'`)})`;
}

/** SQL: the Paris calendar date of a timestamptz column or expression. */
export function parisDaySql(instant: SQLWrapper | AnyColumn): SQL {
  return sql`${parisWallClockSql(instant)}::date`;
}

const PARIS_YEAR = parisFormat("en-GB", { year: "numeric" });

/** The calendar year on the Paris wall clock at `now`. */
export function parisYear(now: Date): number {
  return Number(PARIS_YEAR.format(now));
}

const PARIS_DATE = parisFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" });

// The last minute parisDate read, and its date: a Paris date changes only on a whole minute (the
// offsets are whole hours), and the renders of one minute all ask for the same one. Formatting it
// cost a search miss about a twentieth of its time.
let lastMinute = Number.NaN;
let lastDate = "";

/** The Paris calendar date of an instant, as YYYY-MM-DD. */
export function parisDate(now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastMinute) {
    lastDate = PARIS_DATE.format(now);
    lastMinute = minute;
  }
  return lastDate;
}

const PARIS_OFFSET = parisFormat("en-US", { timeZoneName: "longOffset" });

/** Minutes east of UTC of the Paris wall clock at an instant (60 or 120). */
export function parisOffsetMinutes(at: Date): number {
  const name = PARIS_OFFSET.formatToParts(at).find((part) => part.type === "timeZoneName")?.value ?? "GMT+01:00";
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 60;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

/** The instant of a Paris wall-clock time ("2026-06-21", "18:00"). */
export function parisInstant(isoDate: string, time = "00:00"): Date {
  // A pure function of its two strings, asked for thousands of times per render (every listed
  // event's span, each festival day and night): the offset lookup is an Intl call, so each pair
  // is worked out once.
  const key = `${isoDate}T${time}`;
  let ms = INSTANTS.get(key);
  if (ms === undefined) {
    const guess = new Date(`${key}:00Z`);
    ms = guess.getTime() - parisOffsetMinutes(guess) * 60_000;
    if (INSTANTS.size >= MAX_INSTANTS) INSTANTS.clear();
    INSTANTS.set(key, ms);
  }
  return new Date(ms);
}

const INSTANTS = new Map<string, number>();
/** A few thousand distinct dates and times in practice; the memo is emptied past this. */
const MAX_INSTANTS = 50_000;

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** A Paris wall-clock date and time as ISO 8601 with the Paris offset of that moment. */
export function parisDateTime(isoDate: string, time: string): string {
  return `${isoDate}T${time}:00${offsetText(parisOffsetMinutes(parisInstant(isoDate, time)))}`;
}

/** The Paris wall-clock time of an instant, as HH:MM (24-hour). */
export function parisClock(at: Date): string {
  const offset = parisOffsetMinutes(at);
  const minutes = Math.floor((at.getTime() / 60_000 + offset) % 1440 + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** `YYYY-MM-DDTHH:mm`: a Paris wall-clock date and time as a datetime-local input writes it. */
export const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The instant of a Paris wall-clock time, or undefined when that time does not exist (spring-forward gap) or is not a date. */
export function parisWallClockInstant(text: string): Date | undefined {
  const match = WALL_CLOCK.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return undefined;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  if (new Date(asUtc).getUTCDate() !== d) return undefined;
  // Try both offsets the Paris clock uses; keep the one that reads back as the same wall time.
  for (const offset of [parisOffsetMinutes(new Date(asUtc)), 60, 120]) {
    const candidate = new Date(asUtc - offset * 60_000);
    if (parisOffsetMinutes(candidate) === offset) return candidate;
  }
  return undefined;
}
