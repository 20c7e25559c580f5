// Sanity checks of a host submission and likely duplicates (see docs/public-pages.md,
// "/submit-event", and docs/console.md, "Moderation"): the date inside the festival window, an
// arrondissement from 1 to 20, the end after the start, and a submission that looks like a listed
// event or another submission. The form refuses a submission that fails a check; the moderation
// card shows the same checks on every submission, with links to its likely duplicates.

import type { FestivalWindow } from "../events/festival-window.ts";
import { parseDateCell } from "../sheet/dates.ts";
import { normaliseTime, minutesOfDay } from "../sheet/times.ts";
import { readAreaCell } from "../sheet/arrondissement.ts";
import { fold as foldText } from "../sheet/text.ts";
import type { SubmissionIssue } from "./validation.ts";

/** An end time up to this hour (exclusive) after an earlier start runs past midnight; any other earlier end is an error. */
export const LATEST_NEXT_DAY_END = "06:00";

/** Arrondissement answers that mean "not known yet". */
const UNKNOWN_AREA: ReadonlySet<string> = new Set(["unknown", "inconnu", "inconnue", "?", "tbc", "tba", "a confirmer", "n/a"]);

export type SanityCode = "date" | "outsideFestival" | "time" | "endBeforeStart" | "arrondissement";

/** The messages of the API (English); the form words each code from the catalogue. */
export const SANITY_MESSAGES: Record<SanityCode, (window: { from: string; to: string }) => string> = {
  date: () => "Date must be a calendar date (YYYY-MM-DD)",
  outsideFestival: (w) => `Date must be inside the festival (${w.from} to ${w.to})`,
  time: () => "Time must be written HH:MM",
  endBeforeStart: () => "End time must be after the start time",
  arrondissement: () => "Arrondissement must be 1 to 20, or unknown",
};

const NO_WINDOW: FestivalWindow = { from: "", to: "" };

/**
 * The checks of one submission's fields (normalised strings); empty when all hold. `window` is the
 * current edition's (festivalWindow); a check of fields without a date (a host's change of times)
 * passes null and no date is checked.
 */
export function sanityIssues(input: Partial<Record<string, unknown>>, window: FestivalWindow | null): SubmissionIssue[] {
  const issues: SubmissionIssue[] = [];
  const issue = (field: string, code: SanityCode) => issues.push({ field, code, message: SANITY_MESSAGES[code](window ?? NO_WINDOW), ...(code === "outsideFestival" && window ? { range: window } : {}) });
  const text = (name: string) => (typeof input[name] === "string" ? (input[name] as string).trim() : "");

  if (window && text("date")) {
    const resolved = parseDateCell(text("date"), new Date(`${window.from}T12:00:00Z`));
    if (!resolved.ok) issue("date", "date");
    else if (resolved.iso < window.from || resolved.iso > window.to) issue("date", "outsideFestival");
  }
  const start = text("startTime") ? normaliseTime(text("startTime")) : undefined;
  const end = text("endTime") ? normaliseTime(text("endTime")) : undefined;
  const startMinutes = minutesOfDay(start);
  const endMinutes = minutesOfDay(end);
  if (text("startTime") && startMinutes === null) issue("startTime", "time");
  if (text("endTime") && endMinutes === null) issue("endTime", "time");
  if (startMinutes !== null && endMinutes !== null && endMinutes <= startMinutes && (endMinutes === startMinutes || endMinutes >= minutesOfDay(LATEST_NEXT_DAY_END)!)) issue("endTime", "endBeforeStart");

  const area = text("arrondissement");
  if (area && !UNKNOWN_AREA.has(foldText(area)) && readAreaCell(area) === null) issue("arrondissement", "arrondissement");
  return issues;
}

// ---------------------------------------------------------------------------------------------
// Likely duplicates

/** Something a submission may repeat: a listed event or another submission. */
export interface DuplicateCandidate {
  kind: "event" | "submission";
  id: string;
  name: string;
  date: string;
  startTime?: string;
  location?: string;
  href: string;
}

const STOP_WORDS: ReadonlySet<string> = new Set(["the", "a", "la", "le", "les", "de", "du", "des", "et", "and", "at", "au", "aux", "en", "live", "fete", "musique", "of"]);

function words(value: string): Set<string> {
  return new Set(
    foldText(value)
      .replace(/[^a-z0-9]+/g, " ")
      .split(" ")
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w)),
  );
}

/** Share of the smaller set of name words found in the other (1 when one name holds the other). */
function nameOverlap(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 || wb.size === 0) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / Math.min(wa.size, wb.size);
}

/**
 * A likely duplicate: the same date and either names sharing most of their words (80 % of the
 * shorter one) or the same venue and start time.
 */
export function isLikelyDuplicate(submission: { name: string; date: string; startTime?: string; location?: string }, candidate: Omit<DuplicateCandidate, "kind" | "id" | "href">): boolean {
  if (!submission.date || submission.date !== candidate.date) return false;
  if (nameOverlap(submission.name, candidate.name) >= 0.8) return true;
  const sameVenue = !!submission.location && !!candidate.location && foldText(submission.location) === foldText(candidate.location);
  const sameStart = !!submission.startTime && normaliseTime(submission.startTime) === normaliseTime(candidate.startTime ?? "");
  return sameVenue && sameStart;
}

/** The likely duplicates of one submission among the candidates (never itself). */
export function likelyDuplicates(submission: { id: string; name: string; date: string; startTime?: string; location?: string }, candidates: readonly DuplicateCandidate[]): DuplicateCandidate[] {
  return candidates.filter((c) => !(c.kind === "submission" && c.id === submission.id) && isLikelyDuplicate(submission, c)).slice(0, 5);
}

/** What the moderation card shows under a submission: the failed checks and its likely duplicates. */
export interface SubmissionReview {
  issues: SubmissionIssue[];
  duplicates: DuplicateCandidate[];
}
