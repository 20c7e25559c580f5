// Host submission fields (see docs/public-pages.md, "/submit-event"): bounds, normalisation, the
// issues list shown next to each field, and the content fingerprint. honeypot and formStartedAt
// are passed through untouched: they never cause a validation error, they only feed spam signals.

import { isPlainObject } from "../http/responses.ts";
import { normaliseEmail } from "../auth/users.ts";
import { toStorableText } from "../storable-text.ts";
import { invalid, type Invalid } from "../outcome.ts";

/** The message of a submission refused field by field (the form shows the fields). */
const INVALID_SUBMISSION = "Invalid submission";

/** One request field: its label in messages and on the form, whether required, its bounds. */
export interface SubmissionField {
  name: SubmissionFieldName;
  label: string;
  required: boolean;
  min?: number;
  max: number;
}

export type SubmissionFieldName =
  | "eventName"
  | "date"
  | "startTime"
  | "location"
  | "hostEmail"
  | "proofLink"
  | "endTime"
  | "genre"
  | "price"
  | "age"
  | "indoorOutdoor"
  | "notes"
  | "arrondissement";

/** The fields in form order, with their length bounds (characters after normalisation). */
export const SUBMISSION_FIELDS: readonly SubmissionField[] = [
  { name: "eventName", label: "Event name", required: true, min: 2, max: 180 },
  { name: "date", label: "Date", required: true, max: 40 },
  { name: "startTime", label: "Start time", required: true, max: 40 },
  { name: "location", label: "Location", required: true, min: 2, max: 240 },
  { name: "hostEmail", label: "Host email", required: true, max: 254 },
  { name: "proofLink", label: "Proof link", required: true, max: 2000 },
  { name: "endTime", label: "End time", required: false, max: 40 },
  { name: "genre", label: "Genre", required: false, max: 120 },
  { name: "price", label: "Price", required: false, max: 80 },
  { name: "age", label: "Age", required: false, max: 80 },
  { name: "indoorOutdoor", label: "Indoor/Outdoor", required: false, max: 80 },
  { name: "notes", label: "Notes", required: false, max: 3000 },
  { name: "arrondissement", label: "Arrondissement", required: false, max: 32 },
];

/** The normalised submission; optional fields are absent when not given or blank. */
export type SubmissionInput = {
  eventName: string;
  date: string;
  startTime: string;
  location: string;
  hostEmail: string;
  proofLink: string;
} & Partial<Record<"endTime" | "genre" | "price" | "age" | "indoorOutdoor" | "notes" | "arrondissement", string>>;

/** What is wrong with a field: the form words it from the catalogue by this code. */
export type SubmissionIssueCode = "payload" | "required" | "text" | "tooShort" | "tooLong" | "hostEmail" | "proofLink" | "date" | "outsideFestival" | "time" | "endBeforeStart" | "arrondissement";

/** A problem with one field, as the API's issues list and the form show it (`message` is the API's English). */
export interface SubmissionIssue {
  field: string;
  message: string;
  code?: SubmissionIssueCode;
  /** The length bound of a tooShort / tooLong issue. */
  limit?: number;
  /** The festival window of an outsideFestival issue (ISO dates). */
  range?: { from: string; to: string };
}

export const PROOF_LINK_MESSAGE = "Proof link must be an HTTP(S) URL";
export const HOST_EMAIL_MESSAGE = "Host email must be a valid email address";

export type ParsedSubmission =
  | { ok: true; input: SubmissionInput; honeypot: unknown; formStartedAt: unknown }
  | Invalid<SubmissionIssue>;

function characters(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Trims, collapses whitespace runs to one space and drops what Postgres cannot store. */
export function normaliseSubmissionText(value: string): string {
  return toStorableText(value).replace(/\s+/g, " ").trim();
}

/**
 * The proof link as stored, or undefined when it is not an HTTP(S) URL: `https://` is added when
 * no scheme is written (`//x` → `https://x`, `x.com` → `https://x.com`); the host must be
 * localhost, an IPv4 address or contain a dot.
 */
export function normaliseProofLink(raw: string): string | undefined {
  let text = raw;
  if (text.startsWith("//")) text = `https:${text}`;
  // A scheme is letters before a colon not followed by a digit ("localhost:3000" is a port).
  else if (!/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const host = url.hostname;
  if (!(host === "localhost" || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes("."))) return undefined;
  if (/\s/.test(text)) return undefined;
  return url.href;
}

function lengthIssue(field: SubmissionField, length: number): SubmissionIssue | undefined {
  if (field.min !== undefined && length < field.min) return { field: field.name, message: `${field.label} must be at least ${field.min} characters`, code: "tooShort", limit: field.min };
  if (length > field.max) return { field: field.name, message: `${field.label} must be at most ${field.max} characters`, code: "tooLong", limit: field.max };
  return undefined;
}

/** Validates a submission body (parsed JSON or form fields). */
export function parseSubmission(body: unknown): ParsedSubmission {
  if (!isPlainObject(body)) return invalid(INVALID_SUBMISSION, [{ field: "body", message: "Invalid request payload", code: "payload" }]);
  const issues: SubmissionIssue[] = [];
  const values: Record<string, string> = {};
  for (const field of SUBMISSION_FIELDS) {
    const raw = body[field.name];
    if (raw === undefined || raw === null) {
      if (field.required) issues.push({ field: field.name, message: `${field.label} is required`, code: "required" });
      continue;
    }
    if (typeof raw !== "string") {
      issues.push({ field: field.name, message: `${field.label} must be text`, code: "text" });
      continue;
    }
    // A megabyte of text is refused without normalising it first.
    if (raw.length > field.max * 8 + 64) {
      issues.push(lengthIssue(field, field.max + 1)!);
      continue;
    }
    const value = normaliseSubmissionText(raw);
    if (value === "") {
      if (field.required) issues.push({ field: field.name, message: `${field.label} is required`, code: "required" });
      continue;
    }
    const problem = lengthIssue(field, characters(value));
    if (problem) {
      issues.push(problem);
      continue;
    }
    if (field.name === "hostEmail") {
      // Checked on what was sent: an address with a control character is refused, not repaired.
      const email = normaliseEmail(raw) === undefined ? undefined : normaliseEmail(value);
      if (!email) {
        issues.push({ field: field.name, message: HOST_EMAIL_MESSAGE, code: "hostEmail" });
        continue;
      }
      values.hostEmail = email;
      continue;
    }
    if (field.name === "proofLink") {
      const link = normaliseProofLink(value);
      if (!link) {
        issues.push({ field: field.name, message: PROOF_LINK_MESSAGE, code: "proofLink" });
        continue;
      }
      values.proofLink = link;
      continue;
    }
    values[field.name] = value;
  }
  if (issues.length > 0) return invalid(INVALID_SUBMISSION, issues);
  return { ok: true, input: values as SubmissionInput, honeypot: body.honeypot, formStartedAt: body.formStartedAt };
}

/**
 * The content fingerprint of a submission: event name, date, start time, location and normalised proof
 * link, each lower-cased and whitespace-collapsed, joined with "|".
 */
export function submissionFingerprint(input: SubmissionInput): string {
  return [input.eventName, input.date, input.startTime, input.location, input.proofLink].map((v) => v.toLowerCase().replace(/\s+/g, " ").trim()).join("|");
}
