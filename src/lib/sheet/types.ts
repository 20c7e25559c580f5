// The event record and its vocabulary: what the read pipeline produces and pages, APIs and analytics read.
// Field names follow docs/sheet.md, "The event record"; the public events API emits this shape as is.

import type { EventStatus } from "./status.ts";

export type { EventStatus };

/** Arrondissement 1–20, or "unknown". */
export type Arrondissement = number | "unknown";

export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

export type NationalityCode = "UK" | "FR" | "CA" | "NL";

export type VenueType = "indoor" | "outdoor";

export type EventType = "Day Party" | "After Party";

export type EventCategory = "party" | "activity" | "culture" | "food" | "wellness";

export interface Coordinates {
  lat: number;
  lng: number;
}

/** One event as the read pipeline emits it (one per calendar day for multi-day rows). */
export interface LiveEvent {
  eventKey: string;
  slug: string;
  eventName: string;
  /** ISO YYYY-MM-DD, or "" when the date is missing or invalid. */
  date: string;
  day: Weekday | "tbc";
  /** HH:MM when recognised, else the raw text; absent when empty. */
  time?: string;
  endTime?: string;
  location?: string;
  arrondissement: Arrondissement;
  /** Genre keys (see genres.ts), de-duplicated, first-seen order. */
  genres: string[];
  nationality: NationalityCode[];
  /** Empty = unknown setting. */
  venueTypes: VenueType[];
  price: string;
  priceValue: number | null;
  age: string;
  ageValue: number | null;
  link: string | null;
  /** All URLs, present only when the cell held more than one. */
  links?: string[];
  curated: boolean;
  type: EventType;
  category: EventCategory | null;
  tags: string[];
  description: string;
  seriesKey: string | null;
  occurrenceIndex: number;
  occurrenceCount: number;
  dateRangeStart: string;
  dateRangeEnd: string;
  verified: boolean;
  coordinates?: Coordinates;
  isFeatured: boolean;
  featuredAt: string | null;
  featuredEndsAt: string | null;
  isPromoted: boolean;
  promotedAt: string | null;
  promotedEndsAt: string | null;
  calendarSyncCount: number;
  /** My-night saves less removals, never below 0 (docs/tracking.md, "My-night saves"). */
  savedCount: number;
  /** Whether it still happens as listed (Status column; blank reads as scheduled). */
  status: EventStatus;
  /** Short public reason for the status (Status Note), "" when none. */
  statusNote: string;
  /** When the row was first published (ISO); null when unknown (published before this was kept, or not from the store). */
  firstPublishedAt: string | null;
  /** When its date, time or venue last changed in a publish after the first one (ISO); null when never. */
  changedAt: string | null;
  /** Rises each time a publish changes the row: the SEQUENCE of its calendar entry. */
  sequence: number;
}

/** What publishing recorded of one stored row (see docs/store-and-backups.md, "Published revision"). */
export interface PublishedRowState {
  firstPublishedAt: string | null;
  changedAt: string | null;
  sequence: number;
}

/** A warning raised while parsing a sheet; row numbers count the header as row 1. */
export interface SheetWarning {
  row: number;
  type: string;
  message: string;
  field?: string;
}

/** A sheet problem that stops a write or a read (the blocking side of the schema report). */
export type BlockingIssueType = "missing_columns" | "duplicate_columns" | "no_rows" | "structure_mismatch" | "too_few_usable";

/** One blocking issue; `rows` lists the spreadsheet row numbers involved (empty for header problems). */
export interface BlockingIssue {
  type: BlockingIssueType;
  message: string;
  rows: number[];
}
