// The event sheet editor's actions (see docs/console.md): read the sheet, autosave edits, save and
// revalidate, replace the whole sheet, list revisions, diff one against the current sheet and
// restore it. The console page and the admin JSON API both call these.

import { recordActivity } from "./activity.ts";
import type { Db } from "../db/client.ts";
import { isPlainObject, wholeQueryNumber, type FieldIssue } from "../http/responses.ts";
import { revalidateHomepage, type PublishDeps, type Revalidation } from "../events/publish.ts";
import { checkSheetRecords } from "../sheet/sheet.ts";
import type { SchemaReport } from "../sheet/quality.ts";
import { readSheetNotes, type SheetNotes } from "./sheet-readings.ts";
import { allChanges, needsConfirmation, publishReview, readDraftMarks, reviewCounts, type DraftMarks, type PublishReview } from "./drafts.ts";
import { t } from "../i18n/index.ts";
import { invalid, type Invalid } from "../outcome.ts";
import { readPublishedSheetKept, type PublishedSheetDeps } from "../store/published.ts";
import { createBackup } from "../store/backups.ts";
import { patchStoreSheet, type CellConflict, type StorePatch } from "../store/patch.ts";
import { diffSheetFromRecords, diffSheets, findRevision, listRevisions, readRevisionSheet, revisionRecords, type RevisionListing, type SheetDiff } from "../store/revisions.ts";
import {
  coreColumns,
  CUSTOM_KEY_SLUG_MAX,
  assignRowIds,
  findStoreMeta,
  isCustomColumnKey,
  prepareSheet,
  type RawSheet,
  isRowId,
  listStoreColumns,
  readStoreRows,
  readStoreRowsById,
  readStoreSheet,
  readStoreWindow,
  saveStoreSheet,
  type StoreColumn,
  type StoreMeta,
  type StoreRow,
  type WindowQuery,
  type WindowRow,
} from "../store/store.ts";

/** The metadata as the API and the editor send it. */
export interface SheetMetaJson {
  rowCount: number;
  columnCount: number;
  updatedAt: string | null;
  updatedBy: string;
  origin: string;
  checksum: string;
  revision: number;
}

/** The sheet as the editor loads it. */
export interface EditorSheet {
  columns: StoreColumn[];
  rows: StoreRow[];
  meta: SheetMetaJson;
}

type Issue = FieldIssue;

/** The message of an admin write whose body is refused field by field. */
export const INVALID_PAYLOAD = "Invalid request payload";

/** The metadata for JSON. */
export function metaJson(meta: StoreMeta | undefined): SheetMetaJson {
  if (!meta) return { rowCount: 0, columnCount: coreColumns().length, updatedAt: null, updatedBy: "system", origin: "manual", checksum: "", revision: 0 };
  return { rowCount: meta.rowCount, columnCount: meta.columnCount, updatedAt: meta.updatedAt.toISOString(), updatedBy: meta.updatedBy, origin: meta.origin, checksum: meta.checksum, revision: meta.revision };
}

/** The whole sheet for the editor; a store never written shows the core columns and no rows. */
export async function readEditorSheet(db: Db): Promise<EditorSheet> {
  const stored = await readStoreSheet(db);
  if (!stored) return { columns: coreColumns(), rows: [], meta: metaJson(undefined) };
  return { columns: stored.columns, rows: stored.rows, meta: metaJson(stored.meta) };
}

/** A window of the sheet as the editor pages through it (docs/console.md, "Event sheet editor"). */
export interface EditorWindow {
  columns: StoreColumn[];
  rows: WindowRow[];
  /** How many rows the window is a page of (every row, or the rows matching the search). */
  matching: number;
  offset: number;
  search: string;
  meta: SheetMetaJson;
  /** What the sheet's rules read in each shown cell, and their warnings (lib/admin/sheet-readings.ts). */
  notes: SheetNotes;
  /** The shown rows' differences from the published revision (lib/admin/drafts.ts). */
  drafts: DraftMarks;
}

/** Rows per editor page. */
export const EDITOR_PAGE = 50;
const MAX_WINDOW = 500;
const MAX_SEARCH = 200;

/**
 * The rules static/sheet-editor.js works by, sent with the editor card as data so the script keeps
 * no copy that could drift from the server's: the page size, the largest window the API serves,
 * the search bound and the custom-column slug bound.
 */
export const EDITOR_RULES = { page: EDITOR_PAGE, maxWindow: MAX_WINDOW, maxSearch: MAX_SEARCH, customKeySlug: CUSTOM_KEY_SLUG_MAX } as const;

/** One window of the sheet: never reads more rows than it returns (a search is matched inside Postgres). */
export async function readEditorWindow(deps: PublishedSheetDeps, query: WindowQuery, now: Date = new Date()): Promise<EditorWindow> {
  const { db } = deps;
  // The revision first: rows read after it are at least that new, so the revision the editor
  // stamps them with never claims more than the admin saw (at worst a needless conflict).
  const meta = await findStoreMeta(db);
  const offset = query.offset ?? 0;
  const search = query.search?.trim() ?? "";
  if (!meta) return { columns: coreColumns(), rows: [], matching: 0, offset, search, meta: metaJson(undefined), notes: {}, drafts: {} };
  const columns = await listStoreColumns(db);
  const { rows, matching } = await readStoreWindow(db, columns, { ...query, limit: query.limit ?? EDITOR_PAGE, search });
  return { columns, rows, matching, offset, search, meta: metaJson(meta), notes: readSheetNotes(rows, now), drafts: await readDraftMarks(deps, columns, rows) };
}

/** One warning of the sheet for the editor's warnings panel: where it is (row id and position, column key) and what it says. */
export interface SheetWarningJson {
  rowId: string;
  position: number;
  key: string;
  message: string;
}

/** Every cell warning of the whole stored sheet, in sheet order (the editor's warnings panel). */
export async function readSheetWarnings(db: Db, now: Date): Promise<SheetWarningJson[]> {
  const columns = await listStoreColumns(db);
  const rows = await readStoreRows(db, columns, { lean: true });
  const notes = readSheetNotes(rows, now);
  const order = new Map(columns.map((c, i) => [c.key, i]));
  const out: SheetWarningJson[] = [];
  rows.forEach((row, i) => {
    const cells = Object.entries(notes[row.id] ?? {}).filter(([, n]) => n.warning);
    cells.sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    for (const [key, n] of cells) out.push({ rowId: row.id, position: i + 1, key, message: n.warning! });
  });
  return out;
}

/** The window parameters of GET /api/admin/sheet (`offset`, `limit`, `search`); null when none is given (the whole sheet). */
export function parseWindowQuery(query: Record<string, string | undefined>): { ok: true; window: WindowQuery | null } | Invalid<Issue> {
  if (query.offset === undefined && query.limit === undefined && query.search === undefined) return { ok: true, window: null };
  const issues: Issue[] = [];
  const offset = wholeQueryNumber(query, "offset", { min: 0, max: 1_000_000, fallback: 0 }, issues);
  const limit = wholeQueryNumber(query, "limit", { min: 1, max: MAX_WINDOW, fallback: EDITOR_PAGE }, issues);
  const search = query.search ?? "";
  if (search.length > MAX_SEARCH) issues.push({ field: "search", message: `search is at most ${MAX_SEARCH} characters` });
  if (issues.length) return invalid(INVALID_PAYLOAD, issues);
  return { ok: true, window: { offset, limit, search } };
}

const MAX_CELLS = 50_000;
const MAX_ROWS = 5_000;
const MAX_COLUMNS = 50;

function baseRevisionOf(value: unknown, issues: Issue[]): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    issues.push({ field: "baseRevision", message: "baseRevision must be a whole number ≥ 0" });
    return 0;
  }
  return value;
}

function stringValues(value: unknown, field: string, issues: Issue[]): Record<string, string> {
  if (!isPlainObject(value)) {
    issues.push({ field, message: "values must be an object of text cells" });
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, cell] of Object.entries(value)) {
    if (typeof cell !== "string") issues.push({ field: `${field}.${key}`, message: "Cell must be text" });
    else out[key] = cell;
  }
  return out;
}

function listOf(value: unknown, field: string, max: number, issues: Issue[]): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    issues.push({ field, message: `${field} must be a list` });
    return [];
  }
  if (value.length > max) {
    issues.push({ field, message: `${field} holds at most ${max} entries` });
    return [];
  }
  return value;
}

/**
 * A PATCH body: the edits of one autosave, optionally published; `confirm` is the second
 * confirmation a publish that renames or removes events needs (docs/console.md, "Publishing").
 */
export type SheetPatchInput = StorePatch & { baseRevision: number; publish: boolean; confirm?: boolean };

/** Validates an autosave body; every problem is reported with its field. */
export function parseSheetPatch(body: unknown): { ok: true; patch: SheetPatchInput } | Invalid<Issue> {
  if (!isPlainObject(body)) return invalid(INVALID_PAYLOAD, [{ field: "body", message: "Expected a JSON object" }]);
  const issues: Issue[] = [];
  const baseRevision = baseRevisionOf(body.baseRevision, issues);
  const cells = listOf(body.cells, "cells", MAX_CELLS, issues).map((cell, i) => {
    if (!isPlainObject(cell) || !isRowId(cell.rowId) || typeof cell.key !== "string" || typeof cell.value !== "string") {
      issues.push({ field: `cells.${i}`, message: "A cell needs rowId (a row id), key and value (text)" });
      return { rowId: "", key: "", value: "" };
    }
    if (cell.baseRevision !== undefined && (typeof cell.baseRevision !== "number" || !Number.isSafeInteger(cell.baseRevision) || cell.baseRevision < 0)) {
      issues.push({ field: `cells.${i}.baseRevision`, message: "baseRevision must be a whole number ≥ 0" });
    }
    return { rowId: cell.rowId.toLowerCase(), key: cell.key, value: cell.value, ...(typeof cell.baseRevision === "number" ? { baseRevision: cell.baseRevision } : {}) };
  });
  const addRows = listOf(body.addRows, "addRows", MAX_ROWS, issues).map((row, i) => {
    if (!isPlainObject(row) || (row.id !== undefined && !isRowId(row.id))) {
      issues.push({ field: `addRows.${i}`, message: "A new row is {id?: a new row id, values: {key: text}}" });
      return { values: {} };
    }
    return { id: row.id as string | undefined, values: stringValues(row.values ?? {}, `addRows.${i}.values`, issues) };
  });
  const deleteRowIds = listOf(body.deleteRowIds, "deleteRowIds", MAX_ROWS, issues).map((id, i) => {
    if (!isRowId(id)) issues.push({ field: `deleteRowIds.${i}`, message: "Expected a row id" });
    return String(id).toLowerCase();
  });
  const addColumns = listOf(body.addColumns, "addColumns", MAX_COLUMNS, issues).map((column, i) => {
    if (!isPlainObject(column) || typeof column.label !== "string" || (column.key !== undefined && !isCustomColumnKey(column.key))) {
      issues.push({ field: `addColumns.${i}`, message: "A new column is {label: text, key?: custom_…}" });
      return { label: "" };
    }
    return { label: column.label, key: column.key as string | undefined };
  });
  if (body.publish !== undefined && typeof body.publish !== "boolean") issues.push({ field: "publish", message: "publish must be true or false" });
  if (body.confirm !== undefined && typeof body.confirm !== "boolean") issues.push({ field: "confirm", message: "confirm must be true or false" });
  if (issues.length) return invalid(INVALID_PAYLOAD, issues);
  return { ok: true, patch: { baseRevision, cells, addRows, deleteRowIds, addColumns, publish: body.publish === true, confirm: body.confirm === true } };
}

/** A PUT body: the whole sheet. */
export interface SheetReplaceInput {
  baseRevision: number;
  publish: boolean;
  /** The second confirmation of a publish that renames or removes events. */
  confirm?: boolean;
  columns: { key?: string; label: string }[];
  rows: { id?: string; values: Record<string, string> }[];
}

/** Validates a whole-sheet body. */
export function parseSheetReplace(body: unknown): { ok: true; input: SheetReplaceInput } | Invalid<Issue> {
  if (!isPlainObject(body)) return invalid(INVALID_PAYLOAD, [{ field: "body", message: "Expected a JSON object" }]);
  const issues: Issue[] = [];
  const baseRevision = baseRevisionOf(body.baseRevision, issues);
  if (!Array.isArray(body.columns)) issues.push({ field: "columns", message: "columns must be a list" });
  if (!Array.isArray(body.rows)) issues.push({ field: "rows", message: "rows must be a list" });
  const columns = listOf(body.columns ?? [], "columns", 100, issues).map((column, i) => {
    if (!isPlainObject(column) || typeof column.label !== "string" || (column.key !== undefined && typeof column.key !== "string")) {
      issues.push({ field: `columns.${i}`, message: "A column is {key?: text, label: text}" });
      return { label: "" };
    }
    return { key: column.key as string | undefined, label: column.label };
  });
  const rows = listOf(body.rows ?? [], "rows", MAX_ROWS, issues).map((row, i) => {
    if (!isPlainObject(row) || (row.id !== undefined && !isRowId(row.id))) {
      issues.push({ field: `rows.${i}`, message: "A row is {id?: row id, values: {key: text}}" });
      return { values: {} };
    }
    return { id: row.id as string | undefined, values: stringValues(row.values ?? {}, `rows.${i}.values`, issues) };
  });
  if (body.publish !== undefined && typeof body.publish !== "boolean") issues.push({ field: "publish", message: "publish must be true or false" });
  if (body.confirm !== undefined && typeof body.confirm !== "boolean") issues.push({ field: "confirm", message: "confirm must be true or false" });
  if (issues.length) return invalid(INVALID_PAYLOAD, issues);
  return { ok: true, input: { baseRevision, publish: body.publish === true, confirm: body.confirm === true, columns, rows } };
}

/** The schema report of the stored shape of a sheet. */
export function storeSheetReport(columns: readonly Pick<StoreColumn, "key" | "label">[], rows: readonly Pick<StoreRow, "values">[], now: Date): SchemaReport {
  return checkSheetRecords([columns.map((c) => c.label), ...rows.map((r) => columns.map((c) => r.values[c.key] ?? ""))], { now });
}

/** The outcome of an editor write. */
export type SheetWriteResult =
  | {
      ok: true;
      meta: SheetMetaJson;
      assignedKeys: { rowId: string; eventKey: string }[];
      addedRowIds: string[];
      columns: StoreColumn[];
      behind: boolean;
      notes: SheetNotes;
      drafts: DraftMarks;
      report?: SchemaReport;
      revalidation?: Revalidation;
      revalidationError?: string;
    }
  | { ok: false; reason: "invalid"; error: string; issues?: Issue[]; report?: SchemaReport }
  | { ok: false; reason: "conflict"; error: string; meta: SheetMetaJson; conflicts: CellConflict[] }
  | { ok: false; reason: "conflict"; error: string; needsConfirmation: true; review: PublishReview };

/**
 * The hold of a publish not confirmed: it compares the sheet as it would be with the published one
 * and holds the write when titles change under kept Event Keys or rows are removed. `review` keeps
 * what it found for the answer.
 */
async function publishHold(deps: PublishedSheetDeps, patch: SheetPatchInput): Promise<{ hold?: (columns: StoreColumn[], rows: StoreRow[]) => string | undefined; review: () => PublishReview | undefined }> {
  if (!patch.publish || patch.confirm) return { review: () => undefined };
  const published = await readPublishedSheetKept(deps);
  let review: PublishReview | undefined;
  const hold = (columns: StoreColumn[], rows: StoreRow[]) => {
    review = publishReview(allChanges({ columns, rows }, published));
    return needsConfirmation(review) ? t("publishing.held.review", { changes: reviewCounts(review) }) : undefined;
  };
  return { hold, review: () => review };
}

/**
 * Writes the editor's edits. An autosave stores them without revalidation; with `publish` the
 * schema gate runs on the resulting sheet first, the revision is a "publish" one, and the
 * coordinates are warmed and the homepage revalidated.
 */
export async function writeSheetEdits(deps: PublishDeps & PublishedSheetDeps, patch: SheetPatchInput, actor: string): Promise<SheetWriteResult> {
  const now = deps.now();
  let report: SchemaReport | undefined;
  const held = await publishHold(deps, patch);
  const result = await patchStoreSheet(deps.db, patch, {
    updatedBy: "admin-sheet-editor",
    origin: "manual",
    trigger: patch.publish ? "publish" : "autosave",
    actor,
    now,
    publish: patch.publish ? "sheet" : undefined,
    gate: patch.publish ? (columns, rows) => (report = storeSheetReport(columns, rows, now)) : undefined,
    hold: held.hold,
  });
  // Held for the second confirmation: nothing was written, nothing is a failure yet.
  if (!result.ok && result.kind === "held") return { ok: false, reason: "conflict", error: result.error, needsConfirmation: true, review: held.review()! };
  if (!result.ok) {
    if (patch.publish) await recordActivity(deps, { actor, action: "sheet.publish", targetType: "sheet", outcome: "failed", detail: { error: result.error } });
    if (result.kind === "conflict") return { ok: false, reason: "conflict", error: result.error, meta: metaJson(result.meta), conflicts: result.conflicts };
    if (result.kind === "blocked") return { ok: false, reason: "invalid", error: result.error, report: result.report };
    return { ok: false, reason: "invalid", error: result.error, issues: result.issues };
  }
  // The rows this write touched, read back as they are now stored, for the notes of their cells
  // and their draft marks (a publish clears every mark: the editor reads its window again).
  const touched = [...new Set([...(patch.cells ?? []).map((c) => c.rowId), ...result.addedRowIds])];
  const rows = touched.length ? await readStoreRowsById(deps.db, result.columns, touched) : [];
  const notes = readSheetNotes(rows, now);
  const drafts = await readDraftMarks(deps, result.columns, rows);
  const written = { ok: true as const, meta: metaJson(result.meta), assignedKeys: result.assignedKeys, addedRowIds: result.addedRowIds, columns: result.columns, behind: result.behind, notes, drafts, report };
  if (!patch.publish) return written;
  const revalidated = await revalidateSafely(deps);
  await recordActivity(deps, { actor, action: "sheet.publish", targetType: "sheet", targetId: String(written.meta.revision ?? ""), outcome: revalidated.revalidationError ? "failed" : "ok", detail: revalidated.revalidationError ? { error: revalidated.revalidationError } : undefined });
  return { ...written, ...revalidated };
}

async function revalidateSafely(deps: PublishDeps): Promise<{ revalidation?: Revalidation; revalidationError?: string }> {
  try {
    return { revalidation: await revalidateHomepage(deps) };
  } catch (error) {
    deps.log.error("sheet-editor", "Saved, but the homepage revalidation failed", undefined, error);
    return { revalidationError: "Saved, but the homepage could not be revalidated" };
  }
}

/**
 * The stored cells written after `base` (a stale whole-sheet write's conflicts): every non-empty
 * cell of a row added since, and every cell changed since in the others, with its current value.
 */
export async function cellsChangedSince(db: Db, base: number): Promise<CellConflict[]> {
  const columns = await listStoreColumns(db);
  const conflicts: CellConflict[] = [];
  for (const row of await readStoreRows(db, columns)) {
    if (row.revision <= base) continue;
    for (const column of columns) {
      const value = row.values[column.key] ?? "";
      const changed = row.createdRevision > base ? value !== "" : (row.cellRevisions[column.key] ?? row.createdRevision) > base;
      if (changed) conflicts.push({ rowId: row.id, key: column.key, value });
    }
  }
  return conflicts;
}

/**
 * The rows of a whole-sheet write that name a row the store does not hold, or one another row of
 * the write names too: such a row would land on another row, or silently become a new one. Checked
 * only at the store's current revision (a stale write is a conflict, answered by the save).
 */
async function unheldRowIds(db: Db, input: SheetReplaceInput): Promise<Issue[]> {
  const named = input.rows.flatMap((r, i) => (r.id ? [{ i, id: r.id.toLowerCase() }] : []));
  const meta = await findStoreMeta(db);
  if (!named.length || (meta?.revision ?? 0) !== input.baseRevision) return [];
  const held = new Set((await readStoreRowsById(db, [], named.map((n) => n.id))).map((r) => r.id));
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const { i, id } of named) {
    if (!held.has(id)) issues.push({ field: `rows.${i}.id`, message: "No row of the sheet has this id (leave id out for a new row)" });
    else if (seen.has(id)) issues.push({ field: `rows.${i}.id`, message: "Another row of this write names the same id" });
    seen.add(id);
  }
  return issues;
}

/**
 * The renames and removals a whole-sheet publish would make: the sheet as the save would store it
 * (its rows matched to stored ids by the store's own rule) against the published one. Read outside
 * the save's transaction, at the revision the PUT names: any write in between makes the save stale.
 * Undefined for a sheet the save refuses anyway.
 */
async function replaceReview(deps: PublishedSheetDeps, sheet: RawSheet): Promise<PublishReview | undefined> {
  const { db } = deps;
  const prepared = prepareSheet(sheet);
  if (!prepared.ok) return undefined;
  const stored = await readStoreRows(db, [{ key: "eventKey" }]);
  const ids = assignRowIds(prepared.rows, stored);
  const working = { columns: prepared.columns, rows: prepared.rows.map((r, i) => ({ id: ids[i], values: r.values })) };
  return publishReview(allChanges(working, await readPublishedSheetKept(deps)));
}

/** Replaces the whole sheet (JSON API): base revision check, schema gate, uniqueness pass, revision; with `publish`, warm-up and revalidation. */
export async function replaceSheet(
  deps: PublishDeps & PublishedSheetDeps,
  input: SheetReplaceInput,
  actor: string,
): Promise<
  | { ok: true; meta: SheetMetaJson; report: SchemaReport; revalidation?: Revalidation; revalidationError?: string }
  | { ok: false; reason: "invalid"; error: string; report?: SchemaReport; issues?: Issue[] }
  | { ok: false; reason: "conflict"; error: string; meta: SheetMetaJson; conflicts: CellConflict[] }
  | { ok: false; reason: "conflict"; error: string; needsConfirmation: true; review: PublishReview }
> {
  const now = deps.now();
  const unheld = await unheldRowIds(deps.db, input);
  if (unheld.length) return { ok: false, reason: "invalid", error: "The rows name ids the sheet does not hold", issues: unheld };
  const headers = input.columns.map((c) => c.label);
  const rows = input.rows.map((r) => input.columns.map((c) => r.values[c.key ?? c.label] ?? r.values[c.label] ?? ""));
  const review = input.publish && !input.confirm ? await replaceReview(deps, { headers, rows, ids: input.rows.map((r) => r.id), columnKeys: input.columns.map((c) => c.key) }) : undefined;
  if (review && needsConfirmation(review)) return { ok: false, reason: "conflict", error: t("publishing.held.review", { changes: reviewCounts(review) }), needsConfirmation: true, review };
  const report = checkSheetRecords([headers.map((h) => h.trim()), ...rows.map((r) => r.map((c) => c.trim()))], { now });
  const saved = await saveStoreSheet(
    deps.db,
    { headers, rows, ids: input.rows.map((r) => r.id), columnKeys: input.columns.map((c) => c.key) },
    { updatedBy: "admin-sheet-editor", origin: "manual", trigger: input.publish ? "publish" : "autosave", actor, now, baseRevision: input.baseRevision, publish: input.publish },
  );
  if (!saved.ok) {
    if (input.publish) await recordActivity(deps, { actor, action: "sheet.publish", targetType: "sheet", outcome: "failed", detail: { error: saved.error } });
    if ("stale" in saved) return { ok: false, reason: "conflict", error: saved.error, meta: metaJson(saved.meta), conflicts: await cellsChangedSince(deps.db, input.baseRevision) };
    return { ok: false, reason: "invalid", error: saved.error, report };
  }
  const meta = metaJson((await readStoreSheet(deps.db))?.meta);
  if (!input.publish) return { ok: true, meta, report };
  const revalidated = await revalidateSafely(deps);
  await recordActivity(deps, { actor, action: "sheet.publish", targetType: "sheet", targetId: String(meta.revision ?? ""), outcome: revalidated.revalidationError ? "failed" : "ok", detail: revalidated.revalidationError ? { error: revalidated.revalidationError } : undefined });
  return { ok: true, meta, report, ...revalidated };
}

/** A revision for JSON. */
export function revisionJson(revision: RevisionListing) {
  return { ...revision, createdAt: revision.createdAt.toISOString(), updatedAt: revision.updatedAt.toISOString() };
}

/** The revisions, newest first. */
export async function listSheetRevisions(db: Db) {
  return (await listRevisions(db)).map(revisionJson);
}

/** One revision with the readable diff of it (before) against the current sheet (after); undefined when unknown. */
export async function readRevisionDiff(db: Db, id: string): Promise<{ revision: ReturnType<typeof revisionJson>; diff: SheetDiff } | undefined> {
  const revision = await findRevision(db, id);
  const sheet = revision && (await readRevisionSheet(db, id));
  if (!revision || !sheet || sheet === "unavailable") return undefined;
  const before = revisionRecords(sheet);
  const current = await readEditorSheet(db);
  const diff = diffSheets(diffSheetFromRecords(before.headers, before.rows), {
    labels: current.columns.map((c) => c.label),
    rows: current.rows.map((r) => Object.fromEntries(current.columns.map((c) => [c.label, r.values[c.key] ?? ""]))),
  });
  return { revision: revisionJson(revision), diff };
}

/**
 * Restores a revision: a pre-restore backup first, then the store is replaced by the revision's
 * sheet (rows keep their ids where the Event Key matches; a "restore" revision), coordinates are
 * warmed and the homepage revalidated. Placement schedules are not touched.
 */
export async function restoreRevision(
  deps: PublishDeps,
  id: string,
  actor: string,
): Promise<{ ok: true; meta: SheetMetaJson; preRestoreBackupId?: string; revalidation?: Revalidation; revalidationError?: string } | { ok: false; reason: "not_found" | "invalid"; error: string }> {
  const revision = await findRevision(deps.db, id);
  const sheet = revision && (await readRevisionSheet(deps.db, id));
  if (!revision || !sheet) return { ok: false, reason: "not_found", error: "No such revision" };
  if (sheet === "unavailable") {
    await recordActivity(deps, { actor, action: "sheet.restore", targetType: "revision", targetId: id, outcome: "failed", detail: { error: "a revision it is rebuilt from is gone" } });
    return { ok: false, reason: "invalid", error: "Revision could not be restored: a revision it is rebuilt from is gone" };
  }
  const now = deps.now();
  const pre = await createBackup(deps.db, { createdBy: "admin-panel", trigger: "pre-restore", now });
  const saved = await saveStoreSheet(deps.db, revisionRecords(sheet), { updatedBy: "restore", origin: "restore", trigger: "restore", actor, now });
  if (!saved.ok) {
    await recordActivity(deps, { actor, action: "sheet.restore", targetType: "revision", targetId: id, outcome: "failed", detail: { error: saved.error } });
    return { ok: false, reason: "invalid", error: `Revision could not be restored: ${saved.error}` };
  }
  const meta = metaJson((await readStoreSheet(deps.db))?.meta);
  deps.log.info("sheet-editor", "Revision restored", { revisionId: revision.id, rows: saved.rowCount, by: actor });
  const revalidated = await revalidateSafely(deps);
  await recordActivity(deps, { actor, action: "sheet.restore", targetType: "revision", targetId: id, outcome: "ok", detail: { rows: saved.rowCount, ...(revalidated.revalidationError ? { warning: revalidated.revalidationError } : {}) } });
  return { ok: true, meta, preRestoreBackupId: pre.skipped ? undefined : pre.backup.id, ...revalidated };
}
