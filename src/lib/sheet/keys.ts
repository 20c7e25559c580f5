// Event keys and slugs (see docs/sheet.md, "Event keys and slugs"): validation, fingerprints,
// salted generation, the uniqueness pass and occurrence keys.

import { createHash } from "node:crypto";
import { fold } from "./text.ts";

/** The shape of an event key, as source text: the browser gets it as data (my-night.js). */
export const EVENT_KEY_PATTERN = "^evt_[a-z0-9]{12,20}$";
const EVENT_KEY = new RegExp(EVENT_KEY_PATTERN);
const HEX_LENGTH = 16;
const SLUG_NOISE = /[^a-z0-9]+/g;
const EDGE_DASHES = /^-+|-+$/g;
const TRAILING_DASHES = /-+$/;
const SLUG_MAX = 80;

/** First 16 hex characters of the SHA-256 of a text. */
export function shortSha256(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, HEX_LENGTH);
}

/** An incoming key trimmed and lower-cased when valid (`evt_` + 12–20 lowercase letters or digits), else null. */
export function normaliseEventKey(raw: string | null | undefined): string | null {
  const key = (raw ?? "").trim().toLowerCase();
  return EVENT_KEY.test(key) ? key : null;
}

/** True when the value, trimmed and lower-cased, is a valid event key. */
export function isValidEventKey(raw: string | null | undefined): boolean {
  return normaliseEventKey(raw) !== null;
}

/** The raw cells a key is derived from. */
export interface FingerprintCells {
  title: string;
  date: string;
  startTime: string;
  location: string;
  area: string;
}

/** The row fingerprint: title, date, startTime, location and area as folded `name:value` pairs joined with `|`. */
export function eventFingerprint(cells: FingerprintCells): string {
  return [
    `title:${fold(cells.title)}`,
    `date:${fold(cells.date)}`,
    `startTime:${fold(cells.startTime)}`,
    `location:${fold(cells.location)}`,
    `area:${fold(cells.area)}`,
  ].join("|");
}

/** `evt_` + the first 16 hex of SHA-256 of the fingerprint, salted (`|salt:1`, `|salt:2` …) until not in `taken`. */
export function generateEventKey(fingerprint: string, taken: ReadonlySet<string> = new Set()): string {
  let key = `evt_${shortSha256(fingerprint)}`;
  for (let salt = 1; taken.has(key); salt++) key = `evt_${shortSha256(`${fingerprint}|salt:${salt}`)}`;
  return key;
}

/** Key of occurrence k ≥ 2 of a multi-day row: fingerprint + `|occurrence:<ISO date>`, salted on collision. */
export function generateOccurrenceKey(fingerprint: string, isoDate: string, taken: ReadonlySet<string> = new Set()): string {
  return generateEventKey(`${fingerprint}|occurrence:${isoDate}`, taken);
}

/** What the uniqueness pass did to one row's Event Key cell. */
export type EventKeyOutcome = "kept" | "missing" | "invalid" | "duplicate";

/** One row as the uniqueness pass sees it: its Event Key cell and fingerprint cells. */
export interface KeyedRowInput extends FingerprintCells {
  eventKey: string;
}

/** Keys for every row in order, what happened to each, and the counts the store and import report. */
export interface EventKeyAssignment {
  keys: string[];
  outcomes: EventKeyOutcome[];
  fingerprints: string[];
  /** Rows whose Event Key cell was empty or invalid. */
  missingEventKeyCount: number;
  /** Rows that received a generated key (missing, invalid or duplicate). */
  generatedEventKeyCount: number;
}

/**
 * The uniqueness pass, rows in sheet order: a valid key stays unless an earlier row uses it;
 * otherwise a key is generated, salted past every key taken so far.
 */
export function assignEventKeys(rows: readonly KeyedRowInput[]): EventKeyAssignment {
  const taken = new Set<string>();
  const keys: string[] = [];
  const outcomes: EventKeyOutcome[] = [];
  const fingerprints: string[] = [];
  let missingEventKeyCount = 0;
  let generatedEventKeyCount = 0;
  for (const row of rows) {
    const fingerprint = eventFingerprint(row);
    fingerprints.push(fingerprint);
    const explicit = normaliseEventKey(row.eventKey);
    let outcome: EventKeyOutcome;
    let key: string;
    if (explicit !== null && !taken.has(explicit)) {
      outcome = "kept";
      key = explicit;
    } else {
      outcome = explicit !== null ? "duplicate" : row.eventKey.trim() === "" ? "missing" : "invalid";
      if (explicit === null) missingEventKeyCount++;
      generatedEventKeyCount++;
      key = generateEventKey(fingerprint, taken);
    }
    taken.add(key);
    keys.push(key);
    outcomes.push(outcome);
  }
  return { keys, outcomes, fingerprints, missingEventKeyCount, generatedEventKeyCount };
}

/** URL slug of a title: folded, non a–z/0–9 runs as "-", edges trimmed, cut to 80, "event" when empty. */
export function slugify(title: string | null | undefined): string {
  const slug = fold(title).replace(SLUG_NOISE, "-").replace(EDGE_DASHES, "").slice(0, SLUG_MAX).replace(TRAILING_DASHES, "");
  return slug === "" ? "event" : slug;
}
