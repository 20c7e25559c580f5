// The event store actions of the admin console and the admin API (see docs/console-operations.md):
// revalidate, upload, spreadsheet import, backups and restore, and the recovery tools. Every action
// that replaces or empties the store takes a pre-restore snapshot first; those that change what
// visitors see end with a coordinate warm-up and a homepage revalidation.

import { readFile } from "node:fs/promises";
import type { Kv } from "../kv.ts";
import { publishSheet, revalidateHomepage, type PublishDeps } from "../events/publish.ts";
import { fetchSheetCsv } from "../spreadsheet-import/sheet-source.ts";
import { importBlockedReason, sheetSourceConfig, type SheetReadDeps } from "../spreadsheet-import/import.ts";
import { LOCATIONS_KV_KEY } from "../geocoding/location-cache.ts";
import { HOMEPAGE } from "../serving/invalidation.ts";
import { clearStore, findStoreMeta, saveStoreSheet, type StoreMeta, type StoreOrigin, type StoreUpdatedBy, type RevisionTrigger } from "../store/store.ts";
import { createBackup, restoreBackup } from "../store/backups.ts";
import { checkUploadCsv, type UploadReport } from "../store/csv-transfer.ts";
import type { JobOutcome, ReportProgress } from "./jobs.ts";
import { DeadlinePassed, type WriteDeadline } from "../db/write-deadline.ts";
import { refused, type Refused } from "../outcome.ts";

export type OperationsDeps = PublishDeps & SheetReadDeps & { kv: Kv };

/** The text an admin types to clear the store. */
export const CLEAR_STORE_CONFIRMATION = "CLEAR STORE";

/** Messages of the store actions, shown as they are in the console and the API. */
export const OPERATION_MESSAGES = {
  restored: "Snapshot restored and homepage revalidated",
  cleared: "Store cleared and homepage revalidated",
  clearConfirm: `Type ${CLEAR_STORE_CONFIRMATION} to confirm`,
  uploadBlocked: "The file was not written: fix the problems in the report and upload it again",
  uploadChecked: "The file passed the checks; nothing was written yet",
  coordinatesReset: "Coordinate cache reset",
} as const;

/** A store's metadata as JSON (`meta` of the admin API). */
export function metaJson(meta: StoreMeta | undefined) {
  if (!meta) return { rowCount: 0, columnCount: 0, revision: 0, updatedAt: null, updatedBy: null, origin: null, checksum: null };
  return { ...meta, updatedAt: meta.updatedAt.toISOString(), checksum: meta.checksum || null };
}

/** Revalidates the homepage after a full read with coordinate warm-up: "Revalidated in N ms". */
export async function revalidateNow(deps: PublishDeps) {
  const revalidation = await revalidateHomepage(deps);
  return { ...revalidation, message: `Revalidated in ${revalidation.durationMs} ms` };
}

/** A phase report: `step` of `steps` with a label (progress bars of the console). */
function phase(report: ReportProgress | undefined, step: number, steps: number, label: string) {
  report?.({ done: step, total: steps, label });
}

/** Geocoding progress mapped into the last phase (`from` of `steps` to `steps`). */
function warmProgress(report: ReportProgress | undefined, from: number, steps: number) {
  if (!report) return undefined;
  // Venues count inside the last phase: the bar moves 1/steps across the warm-up.
  const scale = 1000;
  return (done: number, total: number) =>
    report({ done: from * scale + (total === 0 ? scale : Math.round((done / total) * scale)), total: steps * scale, label: `Geocoding venues (${done} of ${total})` });
}

export type UploadOutcome =
  | { ok: true; dryRun: true; report: UploadReport; message: string }
  | { ok: true; dryRun: false; report: UploadReport; message: string; meta: ReturnType<typeof metaJson> }
  | (Refused<"invalid"> & { report: UploadReport });

async function snapshotFirst(deps: OperationsDeps) {
  await createBackup(deps.db, { createdBy: "admin-panel", trigger: "pre-restore", now: deps.now() });
}

async function replaceStore(
  deps: OperationsDeps,
  csv: string,
  options: { updatedBy: StoreUpdatedBy; origin: StoreOrigin; trigger: RevisionTrigger; actor?: string; deadline?: WriteDeadline },
  report?: ReportProgress,
) {
  await snapshotFirst(deps);
  phase(report, 2, 4, "Saving the store");
  const published = await publishSheetWithProgress(deps, csv, options, report);
  return published;
}

async function publishSheetWithProgress(
  deps: OperationsDeps,
  csv: string,
  options: { updatedBy: StoreUpdatedBy; origin: StoreOrigin; trigger: RevisionTrigger; actor?: string; deadline?: WriteDeadline },
  report?: ReportProgress,
) {
  if (!report) return publishSheet(deps, csv, options);
  // The same steps as publishSheet, with the warm-up reporting venue progress.
  const saved = await saveStoreSheet(deps.db, csv, { ...options, now: deps.now() });
  if (!saved.ok) return { saved };
  phase(report, 3, 4, "Warming coordinates");
  const revalidation = await revalidateHomepage(deps, [], warmProgress(report, 3, 4));
  return { saved, revalidation };
}

/**
 * Uploads a CSV file: the report first; with `dryRun` nothing more. Otherwise a clean file replaces
 * the store (after a pre-restore snapshot) and the homepage is revalidated. A file with blocking
 * problems writes nothing.
 */
export async function uploadCsv(deps: OperationsDeps, text: string, options: { dryRun: boolean; actor?: string; bytes?: number }): Promise<UploadOutcome> {
  const report = checkUploadCsv(text, options.bytes, deps.now());
  if (report.errors.length > 0) return refused("invalid", OPERATION_MESSAGES.uploadBlocked, { report });
  if (options.dryRun) return { ok: true, dryRun: true, report, message: OPERATION_MESSAGES.uploadChecked };
  const { saved } = await replaceStore(deps, text, { updatedBy: "admin-upload", origin: "manual", trigger: "upload", actor: options.actor });
  if (!saved.ok) {
    const errors = "blocking" in saved ? saved.blocking.map((b) => ({ type: b.type as string, message: b.message, rows: b.rows })) : [{ type: "stale", message: saved.error, rows: [] }];
    return refused("invalid", OPERATION_MESSAGES.uploadBlocked, { report: { ...report, errors } });
  }
  return { ok: true, dryRun: false, report, message: `Uploaded ${saved.rowCount} rows to the store and revalidated the homepage`, meta: metaJson(await findStoreMeta(deps.db)) };
}

/**
 * Imports the spreadsheet as a background job: fetch, schema gate (a report with errors writes
 * nothing), pre-restore snapshot, save, warm-up with venue progress, revalidation.
 */
/**
 * Imports the spreadsheet into the store. Over HTTP (`deadline`), the save is rolled back when the
 * request's deadline passes before it commits (the request then answers 503 and nothing is
 * imported); once committed, the answer waits for the warm-up and says so.
 */
export async function importSpreadsheetJob(deps: OperationsDeps, actor: string | undefined, report: ReportProgress, deadline?: WriteDeadline): Promise<JobOutcome> {
  phase(report, 0, 4, "Fetching the spreadsheet");
  let fetched;
  try {
    fetched = await fetchSheetCsv(sheetSourceConfig(deps));
  } catch (error) {
    return { ok: false, message: `Import failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  phase(report, 1, 4, "Checking the sheet");
  const check = checkUploadCsv(fetched.csv, undefined, deps.now());
  const blocked = importBlockedReason(check);
  if (blocked !== null) return { ok: false, message: `Import blocked: ${blocked}`, result: { report: check } };
  let saved;
  try {
    ({ saved } = await replaceStore(deps, fetched.csv, { updatedBy: "sheet-import", origin: "sheet-import", trigger: "import", actor, deadline }, report));
  } catch (error) {
    if (!(error instanceof DeadlinePassed)) throw error;
    deps.log.warn("store", "Spreadsheet import rolled back at the request deadline");
    return { ok: false, message: "Import rolled back: the request's deadline passed before it was saved" };
  }
  if (!saved.ok) return { ok: false, message: `Import blocked: ${saved.error}` };
  return {
    ok: true,
    message: `Imported ${saved.rowCount} rows from the spreadsheet into the managed store`,
    result: { rowCount: saved.rowCount, source: fetched.strategy, meta: metaJson(await findStoreMeta(deps.db)) },
  };
}

/** Restores the latest backup or a chosen one, then warms coordinates and revalidates. */
export async function restoreAndRevalidate(deps: OperationsDeps, id: string | undefined, report?: ReportProgress): Promise<JobOutcome> {
  phase(report, 1, 4, "Restoring the snapshot");
  const restored = await restoreBackup(deps.db, { id, now: deps.now() });
  if (!restored.ok) return { ok: false, message: restored.error };
  phase(report, 3, 4, "Warming coordinates");
  // A backup also holds both placement schedules: the partner page's live status changes too.
  await revalidateHomepage(deps, ["/feature-event"], warmProgress(report, 3, 4));
  return { ok: true, message: OPERATION_MESSAGES.restored, result: { backupId: restored.backupId, rowCount: restored.rowCount, meta: metaJson(await findStoreMeta(deps.db)) } };
}

/** Full coordinate warm-up over the live events, every estimated venue retried now, venue by venue. */
export async function rebuildCoordinates(deps: OperationsDeps, report?: ReportProgress): Promise<JobOutcome> {
  phase(report, 0, 1, "Reading the live events");
  const started = performance.now();
  const { read, counts: c } = await deps.events.warm({ retryFailed: true, onProgress: warmProgress(report, 0, 1) });
  await deps.invalidation.invalidate({ paths: [...HOMEPAGE.paths], tags: [...HOMEPAGE.tags] });
  return {
    ok: true,
    message: `Coordinates rebuilt for ${read.events.length} events: ${c.fromCache} from cache, ${c.geocodedFresh} geocoded, ${c.upgraded} upgraded, ${c.arrondissementFallback} arrondissement centres, ${c.pruned} pruned`,
    result: { counts: c, eventCount: read.events.length, durationMs: Math.round(performance.now() - started) },
  };
}

/** Deletes the coordinate cache; the next read fills it again. */
export async function resetCoordinateCache(deps: Pick<OperationsDeps, "kv">) {
  const existed = await deps.kv.delete(LOCATIONS_KV_KEY);
  return { message: OPERATION_MESSAGES.coordinatesReset, deleted: existed };
}

/** Loads the local sample sheet (LOCAL_EVENTS_CSV) into the store after a pre-restore snapshot. */
export async function loadLocalCsv(deps: OperationsDeps, actor: string | undefined, report?: ReportProgress): Promise<JobOutcome> {
  let csv: string;
  try {
    csv = await readFile(deps.config.localEventsCsv, "utf8");
  } catch {
    return { ok: false, message: "The local events file could not be read" };
  }
  phase(report, 1, 4, "Checking the sheet");
  const check = checkUploadCsv(csv);
  if (check.errors.length > 0) return { ok: false, message: `The local events file was not loaded: ${check.errors.map((e) => e.message).join("; ")}` };
  const { saved } = await replaceStore(deps, csv, { updatedBy: "admin-upload", origin: "local-file-import", trigger: "import", actor }, report);
  if (!saved.ok) return { ok: false, message: `The local events file was not loaded: ${saved.error}` };
  return { ok: true, message: `Loaded ${saved.rowCount} rows from the local events file`, result: { rowCount: saved.rowCount, meta: metaJson(await findStoreMeta(deps.db)) } };
}

/** Empties the store after a pre-restore snapshot, then revalidates (the read chain falls back). */
export async function clearStoreWithSnapshot(deps: OperationsDeps): Promise<JobOutcome> {
  await snapshotFirst(deps);
  await clearStore(deps.db, { updatedBy: "admin-sheet-editor", now: deps.now() });
  try {
    await revalidateHomepage(deps);
  } catch (error) {
    deps.log.warn("store", "Store cleared but the live read failed", undefined, error);
  }
  return { ok: true, message: OPERATION_MESSAGES.cleared, result: { meta: metaJson(await findStoreMeta(deps.db)) } };
}
