// The event sheet's canonical columns and the header → field mapping that accepts older layouts
// (see docs/sheet.md, "Columns and aliases" and "Header mapping").

import { normaliseHeader } from "./text.ts";
import type { BlockingIssue } from "./types.ts";

/** The 22 canonical field keys, in export order (Status and Status Note came last, after Event Key). */
export const SHEET_FIELDS = [
  "title",
  "curated",
  "date",
  "dateTo",
  "startTime",
  "endTime",
  "hostCountry",
  "location",
  "area",
  "price",
  "categories",
  "primaryUrl",
  "ageGuidance",
  "setting",
  "audienceCountry",
  "eventCategory",
  "notes",
  "tags",
  "seriesKey",
  "eventKey",
  "status",
  "statusNote",
] as const;

/** One canonical field key. */
export type SheetField = (typeof SHEET_FIELDS)[number];

/** The raw (trimmed) cells of one row keyed by field; "" when the column is absent. */
export type SheetFields = Record<SheetField, string>;

/** A canonical column: its export header, field key and the headers older layouts used. */
export interface SheetColumn {
  header: string;
  key: SheetField;
  aliases: readonly string[];
}

/** The canonical columns in export order. */
export const SHEET_COLUMNS: readonly SheetColumn[] = [
  { header: "Title", key: "title", aliases: ["Name", "Event Name"] },
  { header: "Curated", key: "curated", aliases: ["Curated Pick", "Pick", "Picks"] },
  { header: "Date", key: "date", aliases: ["Start Date"] },
  { header: "Date To", key: "dateTo", aliases: ["Date To (End)", "Date Until", "End Date"] },
  { header: "Start Time", key: "startTime", aliases: [] },
  { header: "End Time", key: "endTime", aliases: [] },
  { header: "Host Country", key: "hostCountry", aliases: ["GB/FR", "Nationality", "Country"] },
  { header: "Location", key: "location", aliases: ["Venue"] },
  { header: "Area", key: "area", aliases: ["District/Area", "District", "Arr.", "Arrondissement"] },
  { header: "Price", key: "price", aliases: [] },
  { header: "Categories", key: "categories", aliases: ["Genre", "Genres"] },
  { header: "Primary URL", key: "primaryUrl", aliases: ["Ticket link", "Link", "URL"] },
  { header: "Age Guidance", key: "ageGuidance", aliases: ["Age"] },
  { header: "Setting", key: "setting", aliases: ["Indoor/Outdoor"] },
  { header: "Audience Country", key: "audienceCountry", aliases: [] },
  {
    header: "Event Category",
    key: "eventCategory",
    aliases: ["Experience Category", "Experience Type", "Party / Activity", "Party or Activity"],
  },
  { header: "Notes", key: "notes", aliases: ["Description"] },
  { header: "Tags", key: "tags", aliases: [] },
  { header: "Series Key", key: "seriesKey", aliases: ["Event Series", "Series"] },
  { header: "Event Key", key: "eventKey", aliases: [] },
  { header: "Status", key: "status", aliases: ["Event Status"] },
  { header: "Status Note", key: "statusNote", aliases: ["Status Reason", "Status Notes"] },
];

/** The canonical headers in export order. */
export const CANONICAL_HEADERS: readonly string[] = SHEET_COLUMNS.map((column) => column.header);

/** The export header of each field. */
export const HEADER_BY_FIELD: Readonly<Record<SheetField, string>> = Object.fromEntries(
  SHEET_COLUMNS.map((column) => [column.key, column.header]),
) as Record<SheetField, string>;

// Normalised header → field, built once: the header itself, its aliases and its own field key.
const FIELD_BY_NORMALISED_HEADER: ReadonlyMap<string, SheetField> = new Map(
  SHEET_COLUMNS.flatMap((column) =>
    [column.header, column.key, ...column.aliases].map((name) => [normaliseHeader(name), column.key] as const),
  ),
);

const FEATURED_HEADER = "featured";
// Older layouts put a brand word before "Pick(s)" ("OOOC Picks").
const BRANDED_PICK_HEADER = /^[a-z0-9]+ picks?$/;

/** True for a Featured column (any case): the parser ignores it and the editor drops it on save. */
export function isFeaturedHeader(header: string): boolean {
  return normaliseHeader(header) === FEATURED_HEADER;
}

/** The field a header maps to, or null for an unknown (custom) or Featured column. */
export function findFieldForHeader(header: string): SheetField | null {
  const normalised = normaliseHeader(header);
  if (normalised === "" || normalised === FEATURED_HEADER) return null;
  const field = FIELD_BY_NORMALISED_HEADER.get(normalised);
  if (field) return field;
  return BRANDED_PICK_HEADER.test(normalised) ? "curated" : null;
}

/** The outcome of mapping a header row: the field per column, the column per field and blocking issues. */
export interface HeaderMapping {
  /** Field of each column (null = ignored), same length as the header row. */
  fieldByColumn: (SheetField | null)[];
  /** First column index of each mapped field. */
  columnByField: Partial<Record<SheetField, number>>;
  /** Duplicate mappings and missing essential columns; empty when the header is usable. */
  issues: BlockingIssue[];
}

/** Maps a header row to fields, reporting duplicates and a missing Title or Date. */
export function mapSheetHeaders(headers: readonly string[]): HeaderMapping {
  const fieldByColumn = headers.map((header) => findFieldForHeader(header));
  const columnByField: Partial<Record<SheetField, number>> = {};
  const headersByField = new Map<SheetField, string[]>();
  fieldByColumn.forEach((field, index) => {
    if (field === null) return;
    if (columnByField[field] === undefined) columnByField[field] = index;
    const list = headersByField.get(field);
    const header = headers[index].trim();
    if (list) list.push(header);
    else headersByField.set(field, [header]);
  });

  const issues: BlockingIssue[] = [];
  const missing = (["title", "date"] as const).filter((field) => columnByField[field] === undefined);
  if (missing.length > 0) {
    issues.push({ type: "missing_columns", message: `Missing essential CSV columns: ${missing.join(", ")}`, rows: [] });
  }
  const duplicateGroups = [...headersByField.values()].filter((list) => list.length > 1);
  if (duplicateGroups.length > 0) {
    issues.push({
      type: "duplicate_columns",
      message: `Duplicate CSV column mappings: ${duplicateGroups.map((list) => list.join(", ")).join("; ")}`,
      rows: [],
    });
  }
  return { fieldByColumn, columnByField, issues };
}

/** A fields record with every field empty. */
export function emptySheetFields(): SheetFields {
  const fields = {} as SheetFields;
  for (const key of SHEET_FIELDS) fields[key] = "";
  return fields;
}

/** The cells of one row keyed by field (first column wins for a duplicated field). */
export function fieldsOfRow(cells: readonly string[], columnByField: Partial<Record<SheetField, number>>): SheetFields {
  const fields = emptySheetFields();
  for (const key of SHEET_FIELDS) {
    const index = columnByField[key];
    if (index !== undefined) fields[key] = cells[index] ?? "";
  }
  return fields;
}
