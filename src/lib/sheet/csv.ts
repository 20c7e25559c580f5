// Reading and writing the event sheet as CSV (see docs/sheet.md, "Row parsing" and "Conventions");
// shared by store, import and export.

import Papa from "papaparse";
import { mapSheetHeaders, type SheetField } from "./columns.ts";
import type { BlockingIssue } from "./types.ts";
import { refused, type Refused } from "../outcome.ts";

const BOM = "\ufeff";
const LINE_END = /\r\n?/g;
const NEEDS_QUOTING = /[",\r\n]/;
const QUOTE = /"/g;
/** How many row numbers the structure-mismatch message spells out before summarising. */
const LISTED_ROWS_MAX = 20;

/** One data row: its spreadsheet row number (header = 1) and its trimmed cells, padded to the header width. */
export interface SheetCsvRow {
  rowNumber: number;
  cells: string[];
}

/** What the CSV layer knows about a sheet, whether or not it is usable. */
export interface ParsedSheetCsv {
  /** Raw (trimmed) headers in file order. */
  columns: string[];
  /** Field of each column, null for unknown or Featured columns. */
  fieldByColumn: (SheetField | null)[];
  /** First column of each mapped field. */
  columnByField: Partial<Record<SheetField, number>>;
  /** Non-blank data rows in sheet order. */
  rows: SheetCsvRow[];
  /** Blocking issues; empty when the sheet can be read. */
  blocking: BlockingIssue[];
}

/** A parsed sheet: usable (`ok`), or refused as invalid with the blocking issues joined into `error`. */
export type SheetCsvResult = (ParsedSheetCsv & { ok: true }) | (ParsedSheetCsv & Refused<"invalid">);

/** Splits CSV text into records of trimmed cells: BOM dropped, LF/CRLF/CR line ends, quoted commas and newlines. */
export function parseCsvRecords(text: string): string[][] {
  let input = text.startsWith(BOM) ? text.slice(1) : text;
  // One line-end style lets papaparse split reliably; a CR inside a quoted cell becomes LF, which trimming makes moot.
  input = input.replace(LINE_END, "\n");
  const parsed = Papa.parse<string[]>(input, { delimiter: ",", newline: "\n", quoteChar: '"', skipEmptyLines: false });
  const records = parsed.data.map((record) => record.map((cell) => (cell ?? "").trim()));
  const last = records[records.length - 1];
  if (last && last.length === 1 && last[0] === "" && input.endsWith("\n")) records.pop();
  return records;
}

/** Parses the event sheet CSV: header mapping, blank-row skip, padding and the structure check. */
export function parseSheetCsv(text: string): SheetCsvResult {
  return parseSheetRecords(parseCsvRecords(text));
}

/**
 * The sheet rules over records already split into trimmed cells (header first): the same checks
 * as a CSV file, for sheets that arrive as rows (the editor, stored rows).
 */
export function parseSheetRecords(records: readonly (readonly string[])[]): SheetCsvResult {
  const columns = [...(records[0] ?? [])];
  const mapping = mapSheetHeaders(columns);
  const width = columns.length;
  const mappedIndexes = mapping.fieldByColumn.flatMap((field, index) => (field === null ? [] : [index]));

  const rows: SheetCsvRow[] = [];
  const mismatchedRows: number[] = [];
  for (let index = 1; index < records.length; index++) {
    const rowNumber = index + 1;
    const cells = records[index];
    let length = cells.length;
    while (length > width && cells[length - 1] === "") length--;
    if (length > width) mismatchedRows.push(rowNumber);
    const row = cells.slice(0, Math.min(length, width));
    while (row.length < width) row.push("");
    // A row whose mapped cells are all empty is skipped silently.
    if (mappedIndexes.every((column) => row[column] === "")) continue;
    rows.push({ rowNumber, cells: row });
  }

  const blocking = [...mapping.issues];
  if (mismatchedRows.length > 0) {
    blocking.push({ type: "structure_mismatch", message: structureMismatchMessage(mismatchedRows), rows: mismatchedRows });
  }
  if (rows.length === 0) {
    blocking.push({ type: "no_rows", message: "CSV contains no non-empty data rows", rows: [] });
  }
  const parsed: ParsedSheetCsv = {
    columns,
    fieldByColumn: mapping.fieldByColumn,
    columnByField: mapping.columnByField,
    rows,
    blocking,
  };
  if (blocking.length === 0) return { ...parsed, ok: true };
  return { ...parsed, ...refused("invalid", blocking.map((issue) => issue.message).join("; ")) };
}

function structureMismatchMessage(rowNumbers: number[]): string {
  const listed = rowNumbers.slice(0, LISTED_ROWS_MAX).join(", ");
  const more = rowNumbers.length > LISTED_ROWS_MAX ? `, … (+${rowNumbers.length - LISTED_ROWS_MAX} more)` : "";
  return `CSV row structure mismatch in ${rowNumbers.length} row(s): ${listed}${more}`;
}

/** A value a CSV cell can be written from; null and undefined become an empty cell. */
export type CsvValue = string | number | boolean | null | undefined;

/** One cell with CSV quoting: quoted when it holds a comma, quote, CR or LF; inner quotes doubled. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return NEEDS_QUOTING.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}

/** One CSV line (without its line end). */
export function csvLine(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(",");
}

/** A whole CSV document: the header line then one line per row, every line ending with `\n`. */
export function toCsv(header: readonly CsvValue[], rows: readonly (readonly CsvValue[])[]): string {
  let out = csvLine(header) + "\n";
  for (const row of rows) out += csvLine(row) + "\n";
  return out;
}
