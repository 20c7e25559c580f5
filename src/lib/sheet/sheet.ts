// The event sheet read pipeline's entry point: CSV text → events, warnings, keyed rows and the
// schema report (see docs/sheet.md).

import { arrondissementShortLabel, resolveArrondissement } from "./arrondissement.ts";
import { fieldsOfRow, HEADER_BY_FIELD, mapSheetHeaders, type SheetField, type SheetFields } from "./columns.ts";
import { parseSheetCsv, parseSheetRecords } from "./csv.ts";
import { inferSheetYear, readDateCell, resolveDate, weekdayOf, type DateCellReading, type ResolvedDate } from "./dates.ts";
import { parisYear } from "../paris-time.ts";
import { parseGenres } from "./genres.ts";
import { assignEventKeys, generateOccurrenceKey, slugify, type EventKeyOutcome } from "./keys.ts";
import { parseLinks } from "./link-cell.ts";
import { normaliseLocation } from "./location.ts";
import { eventTypeOf, parseCurated, parseEventCategory, parseTags } from "./misc-fields.ts";
import { readNationalityCell, SUPPORTED_NATIONALITIES } from "./nationality.ts";
import { parseAgeValue } from "./age.ts";
import { isPriceUnknown, parsePriceValue } from "./price.ts";
import { t } from "../i18n/index.ts";
import { buildSchemaReport, isVerifiedEvent, tooFewUsableIssue, type SchemaReport } from "./quality.ts";
import { expandDateRange, generateSeriesKey, MAX_SERIES_SPAN_DAYS, normaliseSeriesKey } from "./series.ts";
import { parseVenueTypes } from "./setting.ts";
import { normaliseStatusNote, parseEventStatus } from "./status.ts";
import { normaliseTime, readTimeCell } from "./times.ts";
import type { BlockingIssue, LiveEvent, NationalityCode, PublishedRowState, SheetWarning } from "./types.ts";
import { refused, type Refused } from "../outcome.ts";

/** Options of a sheet parse; `now` fixes the current Paris year used for dates written without a year. */
export interface ParseEventSheetOptions {
  now?: Date;
}

/** One non-blank sheet row after the uniqueness pass: its cells by field, with the assigned Event Key. */
export interface KeyedSheetRow {
  rowNumber: number;
  /** Trimmed cells in column order (padded to the header width); the Event Key cell, if any, holds the assigned key. */
  cells: string[];
  /** Cells by field; `eventKey` is the assigned key even when the sheet has no Event Key column. */
  fields: SheetFields;
  keyOutcome: EventKeyOutcome;
}

/** The uniqueness pass counts: keys missing and keys generated. */
export interface EventKeyStats {
  missingEventKeyCount: number;
  generatedEventKeyCount: number;
}

/** A readable sheet. */
export interface EventSheet {
  ok: true;
  /** One event per row, or per day for a multi-day row, in sheet order; projections at their defaults. */
  events: LiveEvent[];
  warnings: SheetWarning[];
  rows: KeyedSheetRow[];
  /** Raw headers in file order, and the field each maps to (null = ignored). */
  columns: string[];
  fieldByColumn: (SheetField | null)[];
  keyStats: EventKeyStats;
  schemaReport: SchemaReport;
  /** The year given to dates written without one. */
  inferredYear: number;
}

/** An unreadable sheet, refused as invalid: the blocking issues (joined into `error`) and whatever row warnings could be found. */
export interface EventSheetFailure extends Refused<"invalid"> {
  blocking: BlockingIssue[];
  columns: string[];
  schemaReport: SchemaReport;
}

/** What rows become events from: the spreadsheet row number and the cells by field. */
export interface SheetRowInput {
  rowNumber: number;
  fields: SheetFields;
  /** What publishing recorded of the row (store reads only). */
  published?: PublishedRowState;
}

/** Events, warnings and keyed rows built from field rows. */
export interface SheetRowsResult {
  events: LiveEvent[];
  warnings: SheetWarning[];
  rowKeys: string[];
  keyOutcomes: EventKeyOutcome[];
  keyStats: EventKeyStats;
  inferredYear: number;
}

/** The projection fields of an event as the sheet yields it (no placement, no saves yet). */
export const PROJECTION_DEFAULTS = {
  isFeatured: false,
  featuredAt: null,
  featuredEndsAt: null,
  isPromoted: false,
  promotedAt: null,
  promotedEndsAt: null,
  calendarSyncCount: 0,
  savedCount: 0,
} as const;

const DATE_PROBLEM_TEXT = {
  ambiguous: "ambiguous (day-first or month-first)",
  invalid: "not a real calendar date",
  unparseable: "not a recognised date",
} as const;

const DATE_TO_PROBLEM_TEXT = {
  same_day: "Date To is the same day as Date",
  before_start: "Date To is earlier than Date",
  too_long: `Date To is more than ${MAX_SERIES_SPAN_DAYS} days after Date`,
} as const;

function warn(warnings: SheetWarning[], row: number, field: SheetField, type: string, message: string): void {
  warnings.push({ row, type, message, field });
}

function dateWarning(
  warnings: SheetWarning[],
  row: number,
  field: "date" | "dateTo",
  cell: string,
  resolved: ResolvedDate,
): void {
  const label = HEADER_BY_FIELD[field];
  if (resolved.ok) {
    if (resolved.inferredYear) {
      warn(warnings, row, field, "inferred_year", `${label} "${cell}" has no year; read as ${resolved.iso}`);
    }
    return;
  }
  if (field === "date") {
    if (resolved.problem === "empty") warn(warnings, row, field, "unparseable", "Date is empty");
    else warn(warnings, row, field, resolved.problem, `Date "${cell}" is ${DATE_PROBLEM_TEXT[resolved.problem]}`);
    return;
  }
  if (resolved.problem !== "empty") {
    warn(
      warnings,
      row,
      field,
      "invalid_date_to",
      `Date To "${cell}" is ${DATE_PROBLEM_TEXT[resolved.problem]}; single-day event`,
    );
  }
}

function keyWarning(warnings: SheetWarning[], row: number, cell: string, outcome: EventKeyOutcome, key: string): void {
  if (outcome === "missing") warn(warnings, row, "eventKey", "missing_event_key", `Event Key is missing; generated ${key}`);
  else if (outcome === "invalid") warn(warnings, row, "eventKey", "invalid_event_key", `Event Key "${cell}" is invalid; generated ${key}`);
  else if (outcome === "duplicate") {
    warn(warnings, row, "eventKey", "duplicate_event_key", `Event Key "${cell}" is already used by an earlier row; generated ${key}`);
  }
}

/** What every row of one build shares: the date cells read up front, the inferred year, the uniqueness pass, and the output. */
interface BuildContext {
  dateReadings: DateCellReading[];
  dateToReadings: DateCellReading[];
  inferredYear: number;
  assignment: ReturnType<typeof assignEventKeys>;
  /** Occurrence keys are salted past every stored row key and every earlier occurrence key. */
  taken: Set<string>;
  events: LiveEvent[];
  warnings: SheetWarning[];
}

/**
 * Builds events from field rows (the core of parseEventSheet): dates against the sheet's inferred year,
 * the uniqueness pass, every field rule (docs/sheet.md, "Field rules"), multi-day expansion and occurrence keys.
 */
export function buildEventsFromRows(rows: readonly SheetRowInput[], options: ParseEventSheetOptions = {}): SheetRowsResult {
  const { dateReadings, dateToReadings, explicitYears } = readDateCells(rows);
  const inferredYear = inferSheetYear(explicitYears, parisYear(options.now ?? new Date()));
  const assignment = assignEventKeys(rows.map(({ fields }) => fields));
  const context: BuildContext = { dateReadings, dateToReadings, inferredYear, assignment, taken: new Set(assignment.keys), events: [], warnings: [] };
  rows.forEach((row, index) => buildRowEvents(context, row, index));
  return {
    events: context.events,
    warnings: context.warnings,
    rowKeys: assignment.keys,
    keyOutcomes: assignment.outcomes,
    keyStats: {
      missingEventKeyCount: assignment.missingEventKeyCount,
      generatedEventKeyCount: assignment.generatedEventKeyCount,
    },
    inferredYear,
  };
}

/** Reads every Date and Date To cell, with the years written in them (they decide the inferred year). */
function readDateCells(rows: readonly SheetRowInput[]): { dateReadings: DateCellReading[]; dateToReadings: DateCellReading[]; explicitYears: number[] } {
  const dateReadings: DateCellReading[] = [];
  const dateToReadings: DateCellReading[] = [];
  const explicitYears: number[] = [];
  for (const { fields } of rows) {
    const date = readDateCell(fields.date);
    const dateTo = readDateCell(fields.dateTo);
    dateReadings.push(date);
    dateToReadings.push(dateTo);
    if (date.kind === "parts" && date.year !== null) explicitYears.push(date.year);
    if (dateTo.kind === "parts" && dateTo.year !== null) explicitYears.push(dateTo.year);
  }
  return { dateReadings, dateToReadings, explicitYears };
}

/** Reads one row (warning on each doubtful cell, in field-rule order) and appends its events, one per day. */
function buildRowEvents(context: BuildContext, { rowNumber, fields, published }: SheetRowInput, index: number): void {
  const { warnings, assignment } = context;
  const rowKey = assignment.keys[index];
  const curated = readCurated(warnings, rowNumber, fields);
  readTimesAndPrice(warnings, rowNumber, fields);
  const dates = readDates(warnings, rowNumber, fields, resolveDate(context.dateReadings[index], context.inferredYear), resolveDate(context.dateToReadings[index], context.inferredYear));
  const nationality = readNationality(warnings, rowNumber, fields);
  const location = normaliseLocation(fields.location);
  const arrondissement = readArrondissement(warnings, rowNumber, fields);
  const venueTypes = readVenueTypes(warnings, rowNumber, fields);
  const seriesKey = readSeriesKey(warnings, rowNumber, fields, dates.length);
  keyWarning(warnings, rowNumber, fields.eventKey, assignment.outcomes[index], rowKey);
  const status = readStatus(warnings, rowNumber, fields);
  const base = eventBase(fields, published, { curated, location, arrondissement, nationality, venueTypes, seriesKey, status });
  appendOccurrences(context, { index, rowKey, fields, dates }, base);
}

/** The Curated cell; an unrecognised value reads as not curated. */
function readCurated(warnings: SheetWarning[], rowNumber: number, fields: SheetFields): boolean {
  const curated = parseCurated(fields.curated);
  if (curated.unexpected) {
    warn(warnings, rowNumber, "curated", "unexpected_curated", `Curated value "${fields.curated}" is not recognised; read as not curated`);
  }
  return curated.curated;
}

/** Time cells that are no clock time ("late") and a price that gives no amount: kept as written, with a warning. */
function readTimesAndPrice(warnings: SheetWarning[], rowNumber: number, fields: SheetFields): void {
  for (const field of ["startTime", "endTime"] as const) {
    if (readTimeCell(fields[field]).kind === "text") warn(warnings, rowNumber, field, "unreadable_time", t("sheetEditor.timeUnread", { value: fields[field] }));
  }
  if (fields.price !== "" && !isPriceUnknown(fields.price) && parsePriceValue(fields.price) === null) {
    warn(warnings, rowNumber, "price", "unreadable_price", t("sheetEditor.priceUnread", { value: fields.price }));
  }
}

/** The row's days: Date alone, or every day from Date to Date To; a bad Date To leaves a single-day event. */
function readDates(warnings: SheetWarning[], rowNumber: number, fields: SheetFields, date: ResolvedDate, dateTo: ResolvedDate): string[] {
  dateWarning(warnings, rowNumber, "date", fields.date, date);
  dateWarning(warnings, rowNumber, "dateTo", fields.dateTo, dateTo);
  if (date.ok && dateTo.ok) {
    const range = expandDateRange(date.iso, dateTo.iso);
    if (range.problem) {
      warn(warnings, rowNumber, "dateTo", "invalid_date_to", `${DATE_TO_PROBLEM_TEXT[range.problem]}; single-day event`);
    }
    return range.dates;
  }
  if (!date.ok && dateTo.ok) {
    warn(warnings, rowNumber, "dateTo", "invalid_date_to", "Date To is ignored because Date is not valid; single-day event");
  }
  return [date.ok ? date.iso : ""];
}

/** The nationalities of the host and audience cells, without repeats; unsupported ones are ignored. */
function readNationality(warnings: SheetWarning[], rowNumber: number, fields: SheetFields): NationalityCode[] {
  const nationality: NationalityCode[] = [];
  for (const field of ["hostCountry", "audienceCountry"] as const) {
    const reading = readNationalityCell(fields[field]);
    for (const code of reading.codes) if (!nationality.includes(code)) nationality.push(code);
    for (const token of reading.unsupported) {
      warn(warnings, rowNumber, field, "unsupported_nationality", `Unsupported nationality "${token}" is ignored`);
    }
    if (reading.unrecognised) {
      warn(warnings, rowNumber, field, "unknown_nationality", t("sheetEditor.countryUnread", { value: fields[field], codes: SUPPORTED_NATIONALITIES.join(", ") }));
    }
  }
  return nationality;
}

/** The arrondissement from Area, else estimated from Location. */
function readArrondissement(warnings: SheetWarning[], rowNumber: number, fields: SheetFields): ReturnType<typeof resolveArrondissement> {
  const arrondissement = resolveArrondissement(fields.area, fields.location);
  if (arrondissement.unexpected) {
    const estimate = arrondissement.value === "unknown" ? "unknown" : arrondissementShortLabel(arrondissement.value) + " from Location";
    warn(warnings, rowNumber, "area", "unexpected_area", `Area "${fields.area}" is not 1–20, "-" or blank; read as ${estimate}`);
  }
  return arrondissement;
}

/** The venue types of the Setting cell. */
function readVenueTypes(warnings: SheetWarning[], rowNumber: number, fields: SheetFields): ReturnType<typeof parseVenueTypes> {
  const venueTypes = parseVenueTypes(fields.setting);
  if (fields.setting !== "" && venueTypes.length === 0) {
    warn(warnings, rowNumber, "setting", "unknown_setting", `Setting "${fields.setting}" names neither indoor nor outdoor`);
  }
  return venueTypes;
}

/** The Series Key cell; a multi-day row without a valid one gets a generated key. */
function readSeriesKey(warnings: SheetWarning[], rowNumber: number, fields: SheetFields, dayCount: number): string | null {
  const seriesKey = normaliseSeriesKey(fields.seriesKey);
  if (seriesKey === null && fields.seriesKey !== "") {
    warn(
      warnings,
      rowNumber,
      "seriesKey",
      "invalid_series_key",
      `Series Key "${fields.seriesKey}" is invalid (expected ser_ and 12–20 lowercase letters or digits)`,
    );
  }
  return seriesKey === null && dayCount > 1 ? generateSeriesKey(fields) : seriesKey;
}

/** The Status cell; an unrecognised value reads as scheduled. */
function readStatus(warnings: SheetWarning[], rowNumber: number, fields: SheetFields): ReturnType<typeof parseEventStatus>["status"] {
  const status = parseEventStatus(fields.status);
  if (status.unexpected) warn(warnings, rowNumber, "status", "unexpected_status", `Status "${fields.status}" is not scheduled, cancelled, moved or full; read as scheduled`);
  return status.status;
}

/** The cells read with their warnings, handed to eventBase. */
interface ReadCells {
  curated: boolean;
  location: ReturnType<typeof normaliseLocation>;
  arrondissement: ReturnType<typeof resolveArrondissement>;
  nationality: NationalityCode[];
  venueTypes: ReturnType<typeof parseVenueTypes>;
  seriesKey: string | null;
  status: ReturnType<typeof parseEventStatus>["status"];
}

/** The fields every occurrence of a row shares (all but its date and keys). */
function eventBase(fields: SheetFields, published: PublishedRowState | undefined, read: ReadCells) {
  const time = normaliseTime(fields.startTime);
  const endTime = normaliseTime(fields.endTime);
  const links = parseLinks(fields.primaryUrl);
  return {
    ...(time === undefined ? {} : { time }),
    ...(endTime === undefined ? {} : { endTime }),
    ...(read.location === undefined ? {} : { location: read.location }),
    arrondissement: read.arrondissement.value,
    genres: parseGenres(fields.categories),
    nationality: read.nationality,
    venueTypes: read.venueTypes,
    price: fields.price,
    priceValue: parsePriceValue(fields.price),
    age: fields.ageGuidance,
    ageValue: parseAgeValue(fields.ageGuidance),
    link: links.link,
    ...(links.links ? { links: links.links } : {}),
    curated: read.curated,
    type: eventTypeOf(fields.title, time),
    category: parseEventCategory(fields.eventCategory),
    tags: parseTags(fields.tags),
    description: fields.notes,
    seriesKey: read.seriesKey,
    status: read.status,
    statusNote: normaliseStatusNote(fields.statusNote),
    firstPublishedAt: published?.firstPublishedAt ?? null,
    changedAt: published?.changedAt ?? null,
    sequence: published?.sequence ?? 0,
  };
}

/** Appends one event per day of the row: the first keeps the row key, the others get occurrence keys. */
function appendOccurrences(context: BuildContext, row: { index: number; rowKey: string; fields: SheetFields; dates: string[] }, base: ReturnType<typeof eventBase>): void {
  const { index, rowKey, fields, dates } = row;
  const slug = slugify(fields.title);
  const verified = isVerifiedEvent({ ...base, date: dates[0] });
  dates.forEach((iso, k) => {
    const eventKey = k === 0 ? rowKey : generateOccurrenceKey(context.assignment.fingerprints[index], iso, context.taken);
    context.taken.add(eventKey);
    context.events.push({
      eventKey,
      slug,
      eventName: fields.title,
      date: iso,
      day: weekdayOf(iso),
      ...base,
      // Occurrences never share mutable lists.
      genres: [...base.genres],
      nationality: [...base.nationality],
      venueTypes: [...base.venueTypes],
      tags: [...base.tags],
      ...(base.links ? { links: [...base.links] } : {}),
      occurrenceIndex: k + 1,
      occurrenceCount: dates.length,
      dateRangeStart: dates[0],
      dateRangeEnd: dates[dates.length - 1],
      verified,
      ...PROJECTION_DEFAULTS,
    });
  });
}

/** Parses the event sheet CSV into events (see docs/sheet.md); blocking issues fail the parse, everything else is a warning. */
export function parseEventSheet(csvText: string, options: ParseEventSheetOptions = {}): EventSheet | EventSheetFailure {
  const csv = parseSheetCsv(csvText);
  const inputs = csv.rows.map((row) => ({ rowNumber: row.rowNumber, fields: fieldsOfRow(row.cells, csv.columnByField) }));
  const built = buildEventsFromRows(inputs, options);
  const schemaReport = buildSchemaReport([...csv.blocking, ...tooFewUsableIssue(built.events)], built.warnings);
  if (!csv.ok) return refused("invalid", csv.error, { blocking: csv.blocking, columns: csv.columns, schemaReport });

  const keyColumn = csv.columnByField.eventKey;
  const rows: KeyedSheetRow[] = csv.rows.map((row, index) => {
    const key = built.rowKeys[index];
    const cells = [...row.cells];
    if (keyColumn !== undefined) cells[keyColumn] = key;
    return { rowNumber: row.rowNumber, cells, fields: { ...inputs[index].fields, eventKey: key }, keyOutcome: built.keyOutcomes[index] };
  });
  return {
    ok: true,
    events: built.events,
    warnings: built.warnings,
    rows,
    columns: csv.columns,
    fieldByColumn: csv.fieldByColumn,
    keyStats: built.keyStats,
    schemaReport,
    inferredYear: built.inferredYear,
  };
}

/** The schema report of a sheet given as records (header first, trimmed cells): the editor's and the JSON API's sheets. */
export function checkSheetRecords(records: readonly (readonly string[])[], options: ParseEventSheetOptions = {}): SchemaReport {
  const parsed = parseSheetRecords(records);
  const built = buildEventsFromRows(parsed.rows.map((row) => ({ rowNumber: row.rowNumber, fields: fieldsOfRow(row.cells, parsed.columnByField) })), options);
  return buildSchemaReport([...parsed.blocking, ...tooFewUsableIssue(built.events)], built.warnings);
}

/** The schema report of a CSV text, whether or not it is readable (admin preview before save, upload and import). */
export function checkSheetSchema(csvText: string, options: ParseEventSheetOptions = {}): SchemaReport {
  return parseEventSheet(csvText, options).schemaReport;
}

/** A raw sheet table with generated keys written in, and the uniqueness pass counts. */
export interface RekeyedSheetTable extends EventKeyStats {
  header: string[];
  rows: string[][];
}

/**
 * Runs the uniqueness pass over a raw table (header + rows) and writes every assigned key into the Event Key
 * column, appending that column after the last one when absent. Other cells are left as they are; blank rows
 * get no key. The keys equal the ones parseEventSheet assigns to the same table.
 */
export function rekeySheetTable(header: readonly string[], rows: readonly (readonly string[])[]): RekeyedSheetTable {
  const mapping = mapSheetHeaders(header);
  const width = header.length;
  const mappedIndexes = mapping.fieldByColumn.flatMap((field, index) => (field === null ? [] : [index]));
  const existingKeyColumn = mapping.columnByField.eventKey;
  const keyColumn = existingKeyColumn ?? width;
  const outHeader = existingKeyColumn === undefined ? [...header, HEADER_BY_FIELD.eventKey] : [...header];

  const outRows = rows.map((row) => {
    const cells = [...row];
    while (cells.length < width) cells.push("");
    return cells;
  });
  const keyed = outRows.flatMap((cells, index) =>
    mappedIndexes.some((column) => (cells[column] ?? "").trim() !== "") ? [index] : [],
  );
  const assignment = assignEventKeys(keyed.map((index) => fieldsOfRow(outRows[index], mapping.columnByField)));
  keyed.forEach((rowIndex, k) => {
    if (existingKeyColumn === undefined) outRows[rowIndex].splice(keyColumn, 0, assignment.keys[k]);
    else outRows[rowIndex][keyColumn] = assignment.keys[k];
  });
  if (existingKeyColumn === undefined) {
    for (const cells of outRows) if (cells.length === width) cells.push("");
  }
  return {
    header: outHeader,
    rows: outRows,
    missingEventKeyCount: assignment.missingEventKeyCount,
    generatedEventKeyCount: assignment.generatedEventKeyCount,
  };
}
