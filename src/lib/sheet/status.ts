// Event status (see docs/sheet.md, "Status"): whether a listed event still happens as listed. The
// Status cell names one of four states; a blank or unrecognised cell reads as scheduled (with a
// warning for the latter), so an old sheet without the column behaves as before. The Status Note
// is a short public reason ("Rain: moved indoors"), cut to a readable length.

import { fold } from "./text.ts";

/** The four states of an event, in the order the console offers them. */
export const EVENT_STATUSES = ["scheduled", "cancelled", "moved", "full"] as const;

export type EventStatus = (typeof EVENT_STATUSES)[number];

/** The longest public reason kept; longer notes are cut at a word boundary with an ellipsis. */
export const STATUS_NOTE_MAX = 140;

// Folded spellings in English and French (accents, case and a trailing "e"/"s" are forgiven).
const SPELLINGS: ReadonlyMap<string, EventStatus> = new Map([
  ["scheduled", "scheduled"],
  ["confirmed", "scheduled"],
  ["on", "scheduled"],
  ["prevu", "scheduled"],
  ["confirme", "scheduled"],
  ["cancelled", "cancelled"],
  ["canceled", "cancelled"],
  ["cancel", "cancelled"],
  ["annule", "cancelled"],
  ["moved", "moved"],
  ["relocated", "moved"],
  ["rescheduled", "moved"],
  ["deplace", "moved"],
  ["reporte", "moved"],
  ["full", "full"],
  ["sold out", "full"],
  ["soldout", "full"],
  ["complet", "full"],
]);

/** True for one of the four status keys. */
export function isEventStatus(value: unknown): value is EventStatus {
  return typeof value === "string" && (EVENT_STATUSES as readonly string[]).includes(value);
}

/** Reads a Status cell: blank is scheduled; `unexpected` when the text names no status (read as scheduled). */
export function parseEventStatus(cell: string | null | undefined): { status: EventStatus; unexpected: boolean } {
  const text = fold(cell).replace(/[-_]/g, " ").replace(/\s+/g, " ").trim();
  if (text === "") return { status: "scheduled", unexpected: false };
  const found = SPELLINGS.get(text) ?? SPELLINGS.get(text.replace(/(e|s|es)$/, ""));
  return found ? { status: found, unexpected: false } : { status: "scheduled", unexpected: true };
}

/** The public reason of a Status Note cell: whitespace collapsed, at most STATUS_NOTE_MAX characters. */
export function normaliseStatusNote(cell: string | null | undefined): string {
  const text = String(cell ?? "").replace(/\s+/g, " ").trim();
  if (text.length <= STATUS_NOTE_MAX) return text;
  const cut = text.slice(0, STATUS_NOTE_MAX - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > STATUS_NOTE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
