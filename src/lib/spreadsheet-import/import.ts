// Spreadsheet preview and import into the managed store (see docs/store-and-backups.md,
// "Spreadsheet import"): the preview is read-only; the import passes the schema gate, replaces the
// store, warms coordinates and revalidates.

import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { parseEventSheet } from "../sheet/sheet.ts";
import { findFieldForHeader } from "../sheet/columns.ts";
import { parseCsvRecords } from "../sheet/csv.ts";
import { publishSheet, type PublishDeps } from "../events/publish.ts";
import { describeSheetSource, fetchSheetCsv, type SheetSourceConfig } from "./sheet-source.ts";

/** The spreadsheet client configuration from the service config. */
export function sheetSourceConfig(config: Config, log: Logger): SheetSourceConfig {
  return {
    sheetId: config.sheetId,
    serviceAccountKey: config.sheetServiceAccountKey,
    remoteCsvUrl: config.remoteCsvUrl,
    range: config.sheetRange,
    tokenUrl: config.sheetsTokenUrl,
    apiUrl: config.sheetsApiUrl,
    log,
    // Private and loopback targets are refused in production only (tests use loopback fakes).
    allowPrivateHosts: !config.isProduction,
  };
}

/** A read-only look at the spreadsheet before importing it. */
export interface SheetPreview {
  strategy: string;
  columns: string[];
  rows: string[][];
  totalRows: number;
  offset: number;
  fetchedAt: string;
  canImport: boolean;
  importBlockedReason: string | null;
  issues: { row: number; type: string; message: string; blocking: boolean }[];
  blockingCount: number;
  warningCount: number;
  warnings: string[];
}

export interface PreviewOptions {
  /** Rows in the window, 1–50 (default 5). */
  limit?: number;
  /** A random window instead of the first rows. */
  random?: boolean;
}

/** Fetches the spreadsheet and reports what an import would do, without writing anything. */
export async function previewSpreadsheet(deps: { config: Config; log: Logger; now: () => Date }, options: PreviewOptions = {}): Promise<SheetPreview> {
  const { csv, strategy } = await fetchSheetCsv(sheetSourceConfig(deps.config, deps.log));
  const limit = Math.min(50, Math.max(1, Math.round(options.limit ?? 5) || 5));
  const records = parseCsvRecords(csv);
  const columns = records[0] ?? [];
  const dataRows = records.slice(1).filter((r) => r.some((c) => c !== ""));
  const offset = options.random && dataRows.length > limit ? Math.floor(Math.random() * (dataRows.length - limit + 1)) : 0;
  const parsed = parseEventSheet(csv, { now: deps.now() });
  const report = parsed.schemaReport;
  const issues = [
    ...report.blocking.map((b) => ({ row: b.rows[0] ?? 1, type: b.type, message: b.message, blocking: true })),
    ...report.warnings.map((w) => ({ row: w.row, type: w.type, message: w.message, blocking: false })),
  ].slice(0, 50);
  const warnings: string[] = [];
  if (!columns.some((h) => findFieldForHeader(h) === "eventKey")) {
    warnings.push("The spreadsheet has no Event Key column: keys will be generated, and links shared for events whose title, date, time or place changed will stop working.");
  }
  return {
    strategy,
    columns,
    rows: dataRows.slice(offset, offset + limit),
    totalRows: dataRows.length,
    offset,
    fetchedAt: deps.now().toISOString(),
    canImport: report.ok,
    importBlockedReason: report.ok ? null : report.blocking.map((b) => b.message).join("; "),
    issues,
    blockingCount: report.blockingCount,
    warningCount: report.warningCount,
    warnings,
  };
}

export type ImportResult = { ok: true; message: string; rowCount: number; strategy: string } | { ok: false; error: string };

/** Imports the spreadsheet into the store (never falls back to the local CSV). */
export async function importSpreadsheet(deps: PublishDeps & { config: Config }, options: { actor?: string } = {}): Promise<ImportResult> {
  let fetched;
  try {
    fetched = await fetchSheetCsv(sheetSourceConfig(deps.config, deps.log));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const { saved } = await publishSheet(deps, fetched.csv, { updatedBy: "sheet-import", origin: "sheet-import", trigger: "import", actor: options.actor });
  if (!saved.ok) return { ok: false, error: `Import blocked: ${saved.error}` };
  return { ok: true, message: `Imported ${saved.rowCount} rows from the spreadsheet into the managed store`, rowCount: saved.rowCount, strategy: fetched.strategy };
}

/** Non-secret description of the configured spreadsheet source. */
export function spreadsheetStatus(config: Config, log: Logger) {
  return describeSheetSource(sheetSourceConfig(config, log));
}
