// Uploading a CSV file into the store and exporting the store as CSV (see
// docs/console-operations.md, "Upload and export"). An upload is checked first and its report
// shown before anything is written: the schema gate of the sheet, plus the file-level checks
// (size, delimiter, formula cells). Export neutralises cells a spreadsheet would run as formulas.

import { parseCsvRecords, parseSheetCsv, toCsv } from "../sheet/csv.ts";
import { parseEventSheet } from "../sheet/sheet.ts";
import type { SheetWarning } from "../sheet/types.ts";
import { t } from "../i18n/index.ts";
import { readStoreSheet } from "./store.ts";
import type { Db } from "../db/client.ts";
import { parisDate } from "../paris-time.ts";

/** The download name of the store export, dated in Paris: finder-events-2026-06-21.csv (API and console). */
export function storeExportFileName(now: Date): string {
  return `finder-events-${parisDate(now)}.csv`;
}

/** Largest accepted upload (bytes of the file). */
export const UPLOAD_MAX_BYTES = 1024 * 1024;

/** One problem of an uploaded file; `rows` are spreadsheet row numbers (header = 1). */
export interface UploadIssue {
  type: string;
  message: string;
  rows: number[];
}

/** What the console and the API show before (and after) an upload. */
export interface UploadReport {
  /** Blocking problems: the file is refused and nothing is written. */
  errors: UploadIssue[];
  /** Notes that do not stop the upload (a byte-order mark removed, Windows line ends read, the sheet rules' row warnings). */
  warnings: UploadIssue[];
  /** Data rows the store would hold. */
  rowCount: number;
  /** Columns in the file. */
  columnCount: number;
  /** All blocking problems and all warnings (the lists stop listing row warnings one by one after 100). */
  blockingCount: number;
  warningCount: number;
  /** The file has no Event Key column. */
  missingEventKeyColumn: boolean;
  /** No row has an Event Key (no column, or an empty one): every event gets a generated key, and one warning says so. */
  missingEventKeys: boolean;
}

const BOM = "\ufeff";
// A cell a spreadsheet would evaluate: = or @ first, or + / - followed by a call or a reference
// (so "+33 1 23 45 67 89" and "- bring water" stay plain text). TAB and CR first are refused too.
// A pipe or a bang after a sign is a DDE payload or a sheet reference (-cmd|' /C calc'!A0).
const FORMULA = /^(?:[=@\t\r]|[+-]\s*(?:[A-Za-z_][\w.]*\s*\(|[A-Za-z]+\d+\b|\d[^,]*[!(])|[+-][^\s\d].*[|!])/;
const FORMULA_LISTED_MAX = 10;
/** Row warnings listed one by one in a report; the rest are counted in one line. */
const ROW_WARNINGS_LISTED_MAX = 100;

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The delimiter a file seems to use when its header has no comma but semicolons or tabs. */
function otherDelimiter(firstLine: string): string | undefined {
  if (firstLine.includes(",")) return undefined;
  if (firstLine.includes(";")) return "semicolon (;)";
  if (firstLine.includes("\t")) return "tab";
  return undefined;
}

/** The report of a file refused before its rows are read (too large, empty, binary). */
function refusedReport(errors: UploadIssue[]): UploadReport {
  return { errors, warnings: [], rowCount: 0, columnCount: 0, blockingCount: errors.length, warningCount: 0, missingEventKeyColumn: false, missingEventKeys: false };
}

/** Whether any row of the file carries an Event Key, and whether it has the column at all. */
type KeyPresence = "some" | "no_column" | "none";

/**
 * The sheet rules' row warnings as the report lists them. A file where no row has an Event Key
 * (no column, or an empty one) gets one line saying what importing it does, instead of "Event Key
 * is missing" on every row.
 */
function rowWarningsShown(warnings: readonly SheetWarning[], keys: KeyPresence): UploadIssue[] {
  const shown: UploadIssue[] = [];
  if (keys === "no_column") shown.push({ type: "no_event_key_column", message: t("sheetImport.noEventKeyColumn"), rows: [] });
  if (keys === "none") shown.push({ type: "no_event_keys", message: t("sheetImport.noEventKeys"), rows: [] });
  for (const w of warnings) {
    if (keys !== "some" && w.type === "missing_event_key") continue;
    shown.push({ type: w.type, message: `Row ${w.row}: ${w.message}`, rows: [w.row] });
  }
  return shown;
}

function keyPresence(parsed: ReturnType<typeof parseSheetCsv>, warnings: readonly SheetWarning[]): KeyPresence {
  if (parsed.rows.length === 0) return "some";
  if (parsed.columnByField.eventKey === undefined) return "no_column";
  const missing = warnings.filter((w) => w.type === "missing_event_key").length;
  return missing === parsed.rows.length ? "none" : "some";
}

/** True when a cell would run as a formula in a spreadsheet. */
export function looksLikeFormula(cell: string): boolean {
  return FORMULA.test(cell);
}

/**
 * Checks an uploaded CSV file without writing anything: size, encoding marks, delimiter, the
 * sheet's schema gate (required columns, duplicate headers, row structure, no rows, too few usable
 * rows), the sheet rules' row warnings and formula cells. `bytes` is the size of the file as
 * received. The spreadsheet import preview and the import run the same check.
 */
export function checkUploadCsv(text: string, bytes = new TextEncoder().encode(text).length, now: Date = new Date()): UploadReport {
  const errors: UploadIssue[] = [];
  const warnings: UploadIssue[] = [];
  if (bytes > UPLOAD_MAX_BYTES) {
    errors.push({ type: "too_large", message: `The file is ${formatBytes(bytes)}; the largest accepted upload is ${formatBytes(UPLOAD_MAX_BYTES)}. Split it or remove unused columns.`, rows: [] });
    return refusedReport(errors);
  }
  if (text.trim() === "" || text.replace(BOM, "").trim() === "") {
    errors.push({ type: "empty", message: "The file is empty.", rows: [] });
    return refusedReport(errors);
  }
  if (text.includes("\u0000")) {
    errors.push({ type: "not_text", message: "The file is not a text CSV file (it contains binary data).", rows: [] });
    return refusedReport(errors);
  }
  if (text.startsWith(BOM)) warnings.push({ type: "bom", message: "A byte-order mark at the start of the file was removed.", rows: [] });
  if (text.includes("\r\n")) warnings.push({ type: "crlf", message: "Windows line endings (CRLF) were read as ordinary line ends.", rows: [] });

  const firstLine = text.replace(BOM, "").split(/\r\n?|\n/, 1)[0] ?? "";
  const delimiter = otherDelimiter(firstLine);
  if (delimiter) {
    errors.push({ type: "wrong_delimiter", message: `The file seems to use ${delimiter} as its delimiter; save it as comma-separated CSV.`, rows: [] });
  }

  const parsed = parseSheetCsv(text);
  // The same row warnings, with the same words, as the sheet editor shows in place (unreadable
  // times, unknown countries, ambiguous dates, …): both come from the sheet rules' one build.
  const schema = parseEventSheet(text, { now }).schemaReport;
  const keys = keyPresence(parsed, schema.warnings);
  const rowWarnings = rowWarningsShown(schema.warnings, keys);
  const fileNotes = warnings.length;
  warnings.push(...rowWarnings.slice(0, ROW_WARNINGS_LISTED_MAX));
  if (rowWarnings.length > ROW_WARNINGS_LISTED_MAX) {
    const more = rowWarnings.slice(ROW_WARNINGS_LISTED_MAX);
    warnings.push({ type: "more_row_warnings", message: `… and ${more.length} more row warnings.`, rows: [...new Set(more.flatMap((w) => w.rows))] });
  }
  // The schema gate of every write (columns, structure, no rows, the 80 % rule): what blocks here blocks the save.
  const missingColumns = schema.blocking.some((issue) => issue.type === "missing_columns");
  for (const issue of schema.blocking) {
    // A wrong delimiter already explains the missing columns, and missing columns the unusable rows.
    if (delimiter && issue.type === "missing_columns") continue;
    if (missingColumns && issue.type === "too_few_usable") continue;
    errors.push({ type: issue.type, message: issue.message, rows: issue.rows });
  }

  const records = parseCsvRecords(text);
  const formulaRows: number[] = [];
  const headers = records[0] ?? [];
  let firstFormula: string | undefined;
  for (let index = 0; index < records.length; index++) {
    const column = records[index].findIndex(looksLikeFormula);
    if (column === -1) continue;
    formulaRows.push(index + 1);
    firstFormula ??= `row ${index + 1}, column "${headers[column] || column + 1}"`;
  }
  // parseCsvRecords trims cells, so a leading TAB or CR is looked for in the raw cells as well.
  if (formulaRows.length === 0 && /(^|[,\n])"?[\t\r](?!\n)/.test(text.replace(/\r\n/g, "\n"))) {
    errors.push({ type: "formula_cells", message: "Some cells start with a tab or carriage return, which spreadsheets treat as formulas; remove them.", rows: [] });
  }
  if (formulaRows.length > 0) {
    const listed = formulaRows.slice(0, FORMULA_LISTED_MAX).join(", ");
    const more = formulaRows.length > FORMULA_LISTED_MAX ? `, … (+${formulaRows.length - FORMULA_LISTED_MAX} more)` : "";
    errors.push({
      type: "formula_cells",
      message: `${formulaRows.length} row(s) hold cells that look like spreadsheet formulas (starting with = + - @), first at ${firstFormula}: rows ${listed}${more}. Type them as plain text.`,
      rows: formulaRows,
    });
  }
  return {
    errors,
    warnings,
    rowCount: parsed.rows.length,
    columnCount: parsed.columns.length,
    blockingCount: errors.length,
    warningCount: fileNotes + rowWarnings.length,
    missingEventKeyColumn: keys === "no_column",
    missingEventKeys: keys !== "some",
  };
}

/** A cell made safe for spreadsheets: one starting with = + - @ TAB or CR gets a leading apostrophe. */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The store as a CSV file (labels in display order), formula cells neutralised; undefined when never written. */
export async function exportStoreCsv(db: Db): Promise<string | undefined> {
  const stored = await readStoreSheet(db);
  if (!stored) return undefined;
  const { columns, rows } = stored;
  return toCsv(
    columns.map((c) => neutraliseCell(c.label)),
    rows.map((row) => columns.map((c) => neutraliseCell(row.values[c.key] ?? ""))),
  );
}
