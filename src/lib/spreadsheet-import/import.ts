// Spreadsheet preview and import into the managed store (see docs/store-and-backups.md,
// "Spreadsheet import"): the preview is read-only and runs the upload check (the sheet rules, the
// schema gate, the file checks); the import refuses what that check blocks, replaces the store,
// warms coordinates and revalidates.

import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { wholeQueryNumber, type FieldIssue } from "../http/responses.ts";
import { parseSheetCsv } from "../sheet/csv.ts";
import { checkUploadCsv, type UploadReport } from "../store/csv-transfer.ts";
import { publishSheet, type PublishDeps } from "../events/publish.ts";
import type { SheetTokenCache } from "./service-account.ts";
import { describeSheetSource, fetchSheetCsv, type SheetSourceConfig, type SheetSourceSettings } from "./sheet-source.ts";

/** What reading the sheet needs from Deps. */
export interface SheetReadDeps {
  config: Config;
  log: Logger;
  sheetTokens: SheetTokenCache;
}

/** The spreadsheet client settings from the service config. */
function sheetSourceSettings(config: Config, log: Logger): SheetSourceSettings {
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

/** The spreadsheet client configuration: the settings and the process's token cache. */
export function sheetSourceConfig(deps: SheetReadDeps): SheetSourceConfig {
  return { ...sheetSourceSettings(deps.config, deps.log), tokens: deps.sheetTokens };
}

/** Rows a preview shows: `limit` 1–50, 5 when not given. */
export const PREVIEW_ROWS = { default: 5, max: 50 } as const;
/** Issues a preview lists (blocking first); the counts cover them all. */
export const PREVIEW_ISSUES_MAX = 50;
const PREVIEW_OFFSET_MAX = 1_000_000;

/** Which rows a preview shows: `limit` rows from `offset`, or from a random offset. */
export interface PreviewWindow {
  limit: number;
  offset: number;
  random: boolean;
}

/** One issue of the preview: the upload check's, marked blocking or not. */
export interface PreviewIssue {
  type: string;
  message: string;
  rows: number[];
  blocking: boolean;
}

/** A read-only look at the spreadsheet before importing it (see docs/store-and-backups.md, "Spreadsheet import"). */
export interface SheetPreview {
  ok: true;
  /** The strategy that answered (service-account, public-csv). */
  source: string;
  columns: string[];
  /** The window's rows, cells in column order. */
  rows: string[][];
  limit: number;
  offset: number;
  random: boolean;
  /** Non-blank data rows of the file (`rowCount` is the same number, kept for older clients). */
  totalRows: number;
  rowCount: number;
  fetchedAt: string;
  canImport: boolean;
  importBlockedReason: string | null;
  issues: PreviewIssue[];
  blockingCount: number;
  warningCount: number;
  missingEventKeyColumn: boolean;
  /** No row has an Event Key (see UploadReport): the issues say so in one line. */
  missingEventKeys: boolean;
  /** The whole upload check, as the upload answers it. */
  report: UploadReport;
}

export type SheetPreviewOutcome = SheetPreview | { ok: false; error: string };

type Issue = FieldIssue;

/** Reads `limit`, `offset` and `random` of a preview request; bad values are named, never clamped. */
export function parsePreviewWindow(query: Record<string, string | undefined>): { ok: true; window: PreviewWindow } | { ok: false; issues: Issue[] } {
  const issues: Issue[] = [];
  const limit = wholeQueryNumber(query, "limit", { min: 1, max: PREVIEW_ROWS.max, fallback: PREVIEW_ROWS.default }, issues);
  const offset = wholeQueryNumber(query, "offset", { min: 0, max: PREVIEW_OFFSET_MAX, fallback: 0 }, issues);
  const random = query.random === "1" || query.random === "true";
  if (query.random !== undefined && !random && query.random !== "0" && query.random !== "false") issues.push({ field: "random", message: "random must be 1 or 0" });
  if (random && query.offset !== undefined) issues.push({ field: "offset", message: "offset and random=1 cannot be combined" });
  if (issues.length) return { ok: false, issues };
  return { ok: true, window: { limit, offset, random } };
}

/** Why an import of a file with this report is refused, or null when it may be imported. */
export function importBlockedReason(report: UploadReport): string | null {
  return report.errors.length === 0 ? null : report.errors.map((e) => e.message).join("; ");
}

/**
 * Fetches the spreadsheet and runs the upload check on it (the sheet rules the editor flags cells
 * with, the schema gate and the file checks), without writing anything; the import runs the same
 * check and refuses what the preview marks as blocking.
 */
export async function previewSpreadsheet(
  deps: SheetReadDeps & { now: () => Date },
  window: PreviewWindow = { limit: PREVIEW_ROWS.default, offset: 0, random: false },
): Promise<SheetPreviewOutcome> {
  let fetched;
  try {
    fetched = await fetchSheetCsv(sheetSourceConfig(deps));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const now = deps.now();
  const report = checkUploadCsv(fetched.csv, undefined, now);
  const sheet = parseSheetCsv(fetched.csv);
  const total = sheet.rows.length;
  const offset = window.random ? Math.floor(Math.random() * (Math.max(0, total - window.limit) + 1)) : window.offset;
  const issues = [...report.errors.map((e) => ({ ...e, blocking: true })), ...report.warnings.map((w) => ({ ...w, blocking: false }))];
  const blockedReason = importBlockedReason(report);
  return {
    ok: true,
    source: fetched.strategy,
    columns: sheet.columns,
    rows: sheet.rows.slice(offset, offset + window.limit).map((r) => r.cells),
    limit: window.limit,
    offset,
    random: window.random,
    totalRows: total,
    rowCount: total,
    fetchedAt: now.toISOString(),
    canImport: blockedReason === null,
    importBlockedReason: blockedReason,
    issues: issues.slice(0, PREVIEW_ISSUES_MAX),
    blockingCount: report.blockingCount,
    warningCount: report.warningCount,
    missingEventKeyColumn: report.missingEventKeyColumn,
    missingEventKeys: report.missingEventKeys,
    report,
  };
}

export type ImportResult = { ok: true; message: string; rowCount: number; strategy: string } | { ok: false; error: string };

/** Imports the spreadsheet into the store (never falls back to the local CSV). */
export async function importSpreadsheet(deps: PublishDeps & SheetReadDeps, options: { actor?: string } = {}): Promise<ImportResult> {
  let fetched;
  try {
    fetched = await fetchSheetCsv(sheetSourceConfig(deps));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  // The preview's check: what it marks as blocking is refused here, not only by a disabled button.
  const blocked = importBlockedReason(checkUploadCsv(fetched.csv, undefined, deps.now()));
  if (blocked !== null) return { ok: false, error: `Import blocked: ${blocked}` };
  const { saved } = await publishSheet(deps, fetched.csv, { updatedBy: "sheet-import", origin: "sheet-import", trigger: "import", actor: options.actor });
  if (!saved.ok) return { ok: false, error: `Import blocked: ${saved.error}` };
  return { ok: true, message: `Imported ${saved.rowCount} rows from the spreadsheet into the managed store`, rowCount: saved.rowCount, strategy: fetched.strategy };
}

/** Non-secret description of the configured spreadsheet source. */
export function spreadsheetStatus(config: Config, log: Logger) {
  return describeSheetSource(sheetSourceSettings(config, log));
}
