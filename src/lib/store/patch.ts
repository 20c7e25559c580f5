// Partial writes of the event store (see docs/store-and-backups.md, "Autosave and conflicts"):
// the editor's autosave (changed cells, added and deleted rows, added columns) and rows appended
// by accepted submissions. Each runs in one transaction under the store lock, applies the
// uniqueness pass (new rows get their key once, here) and records a revision. A patch based on an
// older revision is merged when none of the cells it touches changed since; otherwise nothing is
// written and the changed cells are returned as conflicts.

import { eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventStoreColumns, eventStoreMeta, eventStoreRows } from "../db/schema/index.ts";
import { eventFingerprint, generateEventKey, normaliseEventKey } from "../sheet/keys.ts";
import { recordRevision, type RevisionStep, type RevisionTrigger } from "./revisions.ts";
import { publishStep, publishWholeSheet } from "./published.ts";
import {
  CORE_KEYS,
  customColumnKey,
  isBlankStoreRow,
  isCustomColumnKey,
  isRowId,
  listStoreColumns,
  readStoreRows,
  readStoreRowsById,
  sheetChecksum,
  storeCsv,
  storeRowFields,
  coreColumns,
  type StoreColumn,
  type StoreMeta,
  type StoreOrigin,
  type StoreUpdatedBy,
  type StoredRowState,
  type StoreRow,
} from "./store.ts";
import { findFieldForHeader, isFeaturedHeader } from "../sheet/columns.ts";
import type { SchemaReport } from "../sheet/quality.ts";
import { holdTransactionLock, STORE_LOCK_KEY } from "../db/locks.ts";
import type { FieldIssue } from "../http/responses.ts";
import { refused, type Refused } from "../outcome.ts";

/** One cell to write; `baseRevision`, when given, is the revision this cell was read at (else the patch's). */
export interface CellEdit {
  rowId: string;
  key: string;
  value: string;
  baseRevision?: number;
}

/** A row to append: an optional id chosen by the caller (a new UUID) and its cells by column key. */
export interface NewRow {
  id?: string;
  values: Record<string, string>;
}

/** A column to append: its label and an optional key chosen by the caller (`custom_…`). */
export interface NewColumn {
  key?: string;
  label: string;
}

/** A partial write. Without `baseRevision` it applies to the current revision (no conflicts). */
export interface StorePatch {
  baseRevision?: number;
  cells?: CellEdit[];
  addRows?: NewRow[];
  deleteRowIds?: string[];
  addColumns?: NewColumn[];
}

export interface PatchOptions {
  /**
   * Checks the sheet as it would be after the patch, before anything is written (the schema gate
   * of a publish); a report that is not ok refuses the whole write.
   */
  gate?: (columns: StoreColumn[], rows: StoreRow[]) => SchemaReport;
  /**
   * Holds the write back when the sheet after it needs a confirmation the caller has not given (a
   * publish that renames or removes events): the message it returns refuses the whole write.
   */
  hold?: (columns: StoreColumn[], rows: StoreRow[]) => string | undefined;
  updatedBy: StoreUpdatedBy;
  origin?: StoreOrigin;
  trigger: RevisionTrigger;
  actor?: string;
  now: Date;
  /**
   * What the write publishes (docs/store-and-backups.md, "Published revision"): `sheet` the whole
   * sheet after it (a publish; the whole sheet is read), `changes` only this write's own step (an
   * accepted submission, a status change); absent for an autosave, which stays a draft.
   */
  publish?: "sheet" | "changes";
}

/** A cell the patch touched that someone else changed since its base (value is the current one; null when the row was deleted). */
export interface CellConflict {
  rowId: string;
  key: string;
  value: string | null;
}

export type PatchResult =
  | {
      ok: true;
      meta: StoreMeta;
      /** Keys the uniqueness pass wrote (new rows, cleared or duplicated keys). */
      assignedKeys: { rowId: string; eventKey: string }[];
      /** Ids of the appended rows, in order. */
      addedRowIds: string[];
      /** The columns after the write. */
      columns: StoreColumn[];
      /** True when other writes landed between the base and this one (the caller's copy is behind). */
      behind: boolean;
    }
  // A refusal; `kind` tells the editor which of two ways it was refused (edits or schema, cells or a held publish).
  | { ok: false; reason: "conflict"; kind: "conflict"; error: string; meta: StoreMeta; conflicts: CellConflict[] }
  | { ok: false; reason: "invalid"; kind: "invalid"; error: string; issues: { field: string; message: string }[] }
  | { ok: false; reason: "invalid"; kind: "blocked"; error: string; report: SchemaReport }
  | { ok: false; reason: "conflict"; kind: "held"; error: string };

const MAX_CELL_LENGTH = 10_000;

type Issue = FieldIssue;
type InvalidResult = Extract<PatchResult, { kind: "invalid" }>;

/** The store as the patch found it under the lock. */
interface FoundStore {
  current: typeof eventStoreMeta.$inferSelect | undefined;
  /** The columns in the table (none for a store never written). */
  storedColumns: StoreColumn[];
  /** The columns the patch applies to: the stored ones, else the core ones. */
  columns: StoreColumn[];
  currentRevision: number;
}

/** The sheet after the patch, in memory, and what the patch changed in it. */
interface PatchDraft {
  revision: number;
  addedColumns: StoreColumn[];
  allColumns: StoreColumn[];
  added: ReadonlySet<string>;
  deleted: ReadonlySet<string>;
  /** The whole sheet after the write for a publish, else the rows the patch names. */
  next: StoredRowState[];
  nextById: Map<string, StoredRowState>;
  changedCells: Map<string, [string, string, string]>;
  changedColumns: Set<string>;
}

function cellRevision(row: StoredRowState, key: string): number {
  return row.cellRevisions[key] ?? row.createdRevision;
}

/** Applies a partial write under the store lock; see the file comment for the conflict rule. */
export async function patchStoreSheet(db: Db, patch: StorePatch, options: PatchOptions): Promise<PatchResult> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const found = await readLockedStore(t);
    const base = patch.baseRevision ?? found.currentRevision;
    if (base > found.currentRevision) return invalid([{ field: "baseRevision", message: "Base revision is newer than the store" }]);
    // A publish's gate checks the whole sheet; an autosave reads only the rows it names.
    const whole = options.gate !== undefined || options.hold !== undefined || options.publish === "sheet";
    const issues: Issue[] = [];
    // Columns first, so cells of the same patch may name them.
    const { keys, addedColumns } = checkAddedColumns(found.columns, patch.addColumns ?? [], issues);
    const rows = whole ? await readStoreRows(t, found.columns) : await readStoreRowsById(t, found.columns, namedRowIds(patch));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const addedIds = checkAddedRows(patch.addRows ?? [], byId, keys, issues);
    checkCells(patch.cells ?? [], keys, found.currentRevision, issues);
    checkCellRows(patch, issues);
    if (issues.length) return invalid(issues);
    const conflicts = findConflicts(patch, byId, new Set(addedIds), found.columns, base);
    if (conflicts.length) return { ok: false as const, reason: "conflict" as const, kind: "conflict" as const, error: "The sheet changed since these edits were based on it", meta: metaBefore(found, options.now), conflicts };

    const draft = applyPatch(patch, found, rows, addedColumns, addedIds);
    const assignedKeys = await assignMissingKeys(t, draft.next, { added: draft.added, blankBefore: draft.blankBefore, touched: touchedRows(draft), deleted: draft.deleted, all: whole ? rows : undefined });
    for (const { rowId, eventKey } of assignedKeys) setCell(draft, draft.nextById.get(rowId)!, "eventKey", eventKey);
    if (options.gate) {
      const report = options.gate(draft.allColumns, draft.next);
      if (!report.ok) return { ok: false as const, reason: "invalid" as const, kind: "blocked" as const, error: report.blocking.map((b) => b.message).join("; "), report };
    }
    const held = options.hold?.(draft.allColumns, draft.next);
    if (held) return { ok: false as const, reason: "conflict" as const, kind: "held" as const, error: held };
    const touched = touchedRows(draft);
    const appended = await writeRows(t, found, draft, touched);
    const metaValues = await writeMeta(t, found, draft, { appended: appended.length, whole }, options);
    const step = revisionStep(draft, appended);
    await recordRevision(t, {
      trigger: options.trigger,
      actor: options.actor ?? "system",
      now: options.now,
      rowCount: metaValues.rowCount,
      columnCount: draft.allColumns.length,
      summary: { rowsAdded: appended.length, rowsDeleted: draft.deleted.size, rowsChanged: touched.size, changedColumns: [...draft.changedColumns].sort() },
      fromRevision: found.currentRevision,
      toRevision: draft.revision,
      // A publish keeps a snapshot of the sheet it published.
      step: whole ? undefined : step,
    });
    await publishPatch(t, draft, step, options);
    return { ok: true as const, meta: { ...metaValues, columnCount: draft.allColumns.length }, assignedKeys, addedRowIds: addedIds, columns: draft.allColumns, behind: base !== found.currentRevision };
  });
}

/** The refusal of a patch whose edits are malformed. */
function invalid(issues: Issue[]): InvalidResult {
  return { ok: false as const, reason: "invalid" as const, kind: "invalid" as const, error: "Invalid sheet edits", issues };
}

/** Takes the store lock and reads the meta row and the columns. */
async function readLockedStore(t: Db): Promise<FoundStore> {
  await holdTransactionLock(t, STORE_LOCK_KEY);
  const [current] = await t.select().from(eventStoreMeta).where(eq(eventStoreMeta.id, 1)).limit(1);
  const storedColumns = await listStoreColumns(t);
  // A store never written has no columns yet: the core ones come first.
  const columns = storedColumns.length ? storedColumns : coreColumns();
  return { current, storedColumns, columns, currentRevision: current?.revision ?? 0 };
}

/** The store's meta as found (what a conflict answer shows). */
function metaBefore(found: FoundStore, now: Date): StoreMeta {
  const { current } = found;
  return {
    rowCount: current?.rowCount ?? 0,
    columnCount: found.columns.length,
    revision: found.currentRevision,
    updatedAt: current?.updatedAt ?? now,
    updatedBy: current?.updatedBy ?? "system",
    origin: current?.origin ?? "manual",
    checksum: current?.checksum ?? "",
  };
}

/** Checks the columns to add (label, clash with a core name, key) and gives each its key; returns every key after them. */
function checkAddedColumns(columns: StoreColumn[], requested: NewColumn[], issues: Issue[]): { keys: Set<string>; addedColumns: StoreColumn[] } {
  const keys = new Set(columns.map((c) => c.key));
  const addedColumns: StoreColumn[] = [];
  for (const [i, column] of requested.entries()) {
    const label = column.label.trim().replace(/\s+/g, " ");
    const problem = addedColumnProblem(column, label, [...columns, ...addedColumns], keys);
    if (problem) {
      issues.push({ field: `addColumns.${i}.${problem.field}`, message: problem.message });
      continue;
    }
    const key = column.key ?? customColumnKey(label, keys);
    keys.add(key);
    addedColumns.push({ key, label, isCore: false, isRequired: false });
  }
  return { keys, addedColumns };
}

/** What is wrong with one column to add (checked in order, the first problem wins), or undefined. */
function addedColumnProblem(column: NewColumn, label: string, existing: StoreColumn[], keys: ReadonlySet<string>): { field: "label" | "key"; message: string } | undefined {
  if (!label || label.length > 80) return { field: "label", message: "Column label must be 1–80 characters" };
  if (existing.some((c) => c.label.toLowerCase() === label.toLowerCase())) return { field: "label", message: `A column named "${label}" already exists` };
  if (findFieldForHeader(label) !== null || isFeaturedHeader(label)) return { field: "label", message: `"${label}" is the name of a core column` };
  if (column.key !== undefined && (!isCustomColumnKey(column.key) || keys.has(column.key))) return { field: "key", message: "Column key must be custom_ followed by lowercase letters, digits or _, and unused" };
  return undefined;
}

/** The ids of the rows the patch names (edited, deleted, or added with a chosen id). */
function namedRowIds(patch: StorePatch): string[] {
  return [...(patch.cells ?? []).map((c) => c.rowId), ...(patch.deleteRowIds ?? []), ...(patch.addRows ?? []).flatMap((r) => (r.id ? [r.id] : []))];
}

/** Checks the rows to add (unused id, known columns) and gives each its id. */
function checkAddedRows(addRows: NewRow[], byId: ReadonlyMap<string, StoredRowState>, keys: ReadonlySet<string>, issues: Issue[]): string[] {
  const addedIds: string[] = [];
  for (const [i, row] of addRows.entries()) {
    const id = row.id?.toLowerCase() ?? crypto.randomUUID();
    if (byId.has(id) || addedIds.includes(id)) issues.push({ field: `addRows.${i}.id`, message: "Row id is already used" });
    for (const key of Object.keys(row.values)) if (!keys.has(key)) issues.push({ field: `addRows.${i}.values.${key}`, message: "Unknown column" });
    addedIds.push(id);
  }
  return addedIds;
}

/** Checks the cells to write: known column, base not in the future, length. */
function checkCells(cells: CellEdit[], keys: ReadonlySet<string>, currentRevision: number, issues: Issue[]): void {
  for (const [i, cell] of cells.entries()) {
    if (!keys.has(cell.key)) issues.push({ field: `cells.${i}.key`, message: "Unknown column" });
    if ((cell.baseRevision ?? 0) > currentRevision) issues.push({ field: `cells.${i}.baseRevision`, message: "Base revision is newer than the store" });
    if (cell.value.length > MAX_CELL_LENGTH) issues.push({ field: `cells.${i}.value`, message: `Cell text is longer than ${MAX_CELL_LENGTH} characters` });
  }
}

/**
 * Checks that each cell names one row unambiguously: not a row this same write deletes, and not a
 * cell another entry of the write already sets to another value (which would land depends on order).
 */
function checkCellRows(patch: StorePatch, issues: Issue[]): void {
  const deleted = new Set(patch.deleteRowIds ?? []);
  const seen = new Map<string, string>();
  for (const [i, cell] of (patch.cells ?? []).entries()) {
    if (deleted.has(cell.rowId)) issues.push({ field: `cells.${i}.rowId`, message: "This write deletes the row the cell names" });
    const at = `${cell.rowId}\u0000${cell.key}`;
    const before = seen.get(at);
    if (before !== undefined && before !== cell.value) issues.push({ field: `cells.${i}`, message: "Another cell of this write sets the same row and column to another value" });
    seen.set(at, cell.value);
  }
}

/** Conflicts: touched cells changed after the base, rows deleted after it, deleted rows edited after it. */
function findConflicts(patch: StorePatch, byId: ReadonlyMap<string, StoredRowState>, added: ReadonlySet<string>, columns: StoreColumn[], base: number): CellConflict[] {
  const conflicts: CellConflict[] = [];
  for (const cell of patch.cells ?? []) {
    if (added.has(cell.rowId)) continue;
    const row = byId.get(cell.rowId);
    if (!row) {
      conflicts.push({ rowId: cell.rowId, key: cell.key, value: null });
      continue;
    }
    if (cellRevision(row, cell.key) > (cell.baseRevision ?? base) && (row.values[cell.key] ?? "") !== cell.value) conflicts.push({ rowId: cell.rowId, key: cell.key, value: row.values[cell.key] ?? "" });
  }
  for (const rowId of patch.deleteRowIds ?? []) {
    const row = byId.get(rowId);
    if (row && row.revision > base) {
      for (const column of columns) if (cellRevision(row, column.key) > base) conflicts.push({ rowId, key: column.key, value: row.values[column.key] ?? "" });
    }
  }
  return conflicts;
}

/** Builds the sheet after the patch in memory: deleted rows out, added rows in, cells set (trimmed). */
function applyPatch(patch: StorePatch, found: FoundStore, rows: StoredRowState[], addedColumns: StoreColumn[], addedIds: string[]): PatchDraft & { blankBefore: ReadonlySet<string> } {
  const revision = found.currentRevision + 1;
  const allColumns = [...found.columns, ...addedColumns];
  const present = new Set(rows.map((r) => r.id));
  const deleted = new Set((patch.deleteRowIds ?? []).filter((id) => present.has(id)));
  const next: StoredRowState[] = rows.filter((r) => !deleted.has(r.id));
  const blankBefore = new Set(next.filter((r) => isBlankStoreRow(r.values)).map((r) => r.id));
  for (const [i, row] of (patch.addRows ?? []).entries()) {
    const values: Record<string, string> = {};
    for (const column of allColumns) values[column.key] = (row.values[column.key] ?? "").trim();
    next.push({ id: addedIds[i], values, createdRevision: revision, revision, cellRevisions: {} });
  }
  const draft = {
    revision,
    addedColumns,
    allColumns,
    added: new Set(addedIds),
    deleted,
    next,
    nextById: new Map(next.map((r) => [r.id, r])),
    changedCells: new Map<string, [string, string, string]>(),
    changedColumns: new Set<string>(addedColumns.map((c) => c.key)),
    blankBefore,
  };
  for (const cell of patch.cells ?? []) {
    const row = draft.nextById.get(cell.rowId);
    if (!row || cell.key === "eventKey") continue;
    setCell(draft, row, cell.key, cell.value.trim());
  }
  return draft;
}

/** Sets one cell of the draft; a stored row records the cell's new revision and the change. */
function setCell(draft: PatchDraft, row: StoredRowState, key: string, value: string): void {
  if ((row.values[key] ?? "") === value) return;
  row.values[key] = value;
  if (draft.added.has(row.id)) return;
  row.cellRevisions = { ...row.cellRevisions, [key]: draft.revision };
  row.revision = draft.revision;
  draft.changedCells.set(`${row.id}\u0000${key}`, [row.id, key, value]);
  draft.changedColumns.add(key);
}

/** The ids of the stored rows with a changed cell. */
function touchedRows(draft: PatchDraft): Set<string> {
  return new Set([...draft.changedCells.values()].map(([id]) => id));
}

/** Writes the new columns, the deletions, the changed rows and the appended rows; returns the appended rows. */
async function writeRows(t: Db, found: FoundStore, draft: PatchDraft, touched: ReadonlySet<string>): Promise<StoredRowState[]> {
  const { allColumns, revision } = draft;
  const newColumns = found.storedColumns.length ? draft.addedColumns : allColumns;
  if (newColumns.length) await t.insert(eventStoreColumns).values(newColumns.map((c, i) => ({ ...c, displayOrder: allColumns.length - newColumns.length + i })));
  if (draft.deleted.size) await t.delete(eventStoreRows).where(inArray(eventStoreRows.id, [...draft.deleted]));
  const updates = draft.next.filter((r) => touched.has(r.id)).map((r) => ({ id: r.id, data: r.values, revs: r.cellRevisions }));
  if (updates.length) {
    await t.execute(sql`update event_store_rows as r set row_data = v.data, cell_revisions = v.revs, revision = ${revision}
      from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as v(id uuid, data jsonb, revs jsonb) where r.id = v.id`);
  }
  const appended = draft.next.filter((r) => draft.added.has(r.id));
  if (appended.length) {
    const [{ maxOrder }] = await t.select({ maxOrder: sql<number>`coalesce(max(${eventStoreRows.displayOrder}), -1)::int` }).from(eventStoreRows);
    const records = appended.map((r, i) => ({ id: r.id, displayOrder: Number(maxOrder) + 1 + i, rowData: r.values, createdRevision: revision, revision, cellRevisions: {} }));
    for (let i = 0; i < records.length; i += 500) await t.insert(eventStoreRows).values(records.slice(i, i + 500));
  }
  return appended;
}

/** Writes the meta row after the patch and returns its values. */
async function writeMeta(t: Db, found: FoundStore, draft: PatchDraft, counts: { appended: number; whole: boolean }, options: PatchOptions) {
  const { current } = found;
  // The checksum covers the whole sheet: a publish has it at hand; an autosave leaves it empty
  // until the next full write (readers that show it compute it then).
  const rowCount = counts.whole ? draft.next.length : (current?.rowCount ?? 0) + counts.appended - draft.deleted.size;
  const checksum = counts.whole ? sheetChecksum(storeCsv(draft.allColumns, draft.next)) : "";
  const metaValues = { rowCount, revision: draft.revision, updatedAt: options.now, updatedBy: options.updatedBy, origin: options.origin ?? current?.origin ?? "manual", checksum };
  await t.insert(eventStoreMeta).values({ id: 1, ...metaValues }).onConflictDoUpdate({ target: eventStoreMeta.id, set: metaValues });
  return metaValues;
}

/** The patch as a revision step (what a revision replays and a `changes` publish applies). */
function revisionStep(draft: PatchDraft, appended: StoredRowState[]): RevisionStep {
  const step: RevisionStep = {};
  if (draft.addedColumns.length) step.addColumns = draft.addedColumns.map((c) => ({ key: c.key, label: c.label }));
  if (draft.deleted.size) step.deleteRowIds = [...draft.deleted];
  if (draft.changedCells.size) step.cells = [...draft.changedCells.values()];
  if (appended.length) step.addRows = appended.map((r) => ({ id: r.id, values: Object.fromEntries(Object.entries(r.values).filter(([, v]) => v !== "")) }));
  return step;
}

/** Publishes what the options ask: the whole sheet after the write, or only its step. */
async function publishPatch(t: Db, draft: PatchDraft, step: RevisionStep, options: PatchOptions): Promise<void> {
  const publishing = { now: options.now, actor: options.actor ?? "system", trigger: options.trigger, storeRevision: draft.revision };
  if (options.publish === "sheet") await publishWholeSheet(t, { columns: draft.allColumns, rows: draft.next }, publishing);
  else if (options.publish === "changes") {
    await publishStep(t, step, publishing, async () => ({ columns: draft.allColumns, rows: await readStoreRows(t, draft.allColumns, { lean: true }) }));
  }
}

/**
 * The uniqueness pass of a partial write. Stored rows keep their keys (every saved row has a
 * valid one no other row holds), so only the rows this write added or made non-blank, and any
 * non-blank row of `next` without a valid key, need one: a row keeps the valid key it carries when no other row holds it, else gets a generated key salted
 * past every key in the sheet. A row the write does not touch never changes key. The keys of the
 * other rows are read only when some row needs one (from `all` when the whole sheet is at hand).
 */
async function assignMissingKeys(
  db: Db,
  next: readonly StoredRowState[],
  scope: { added: ReadonlySet<string>; blankBefore: ReadonlySet<string>; touched: ReadonlySet<string>; deleted: ReadonlySet<string>; all?: readonly StoredRowState[] },
): Promise<{ rowId: string; eventKey: string }[]> {
  const needing = next.filter(
    (r) => !isBlankStoreRow(r.values) && (scope.added.has(r.id) || (scope.touched.has(r.id) && scope.blankBefore.has(r.id)) || normaliseEventKey(r.values.eventKey) === null),
  );
  if (!needing.length) return [];
  const skip = new Set([...needing.map((r) => r.id), ...scope.deleted]);
  const others = scope.all
    ? scope.all.filter((r) => !skip.has(r.id)).map((r) => r.values.eventKey)
    : (
        await db
          .select({ key: sql<string | null>`${eventStoreRows.rowData}->>'eventKey'` })
          .from(eventStoreRows)
          .where(skip.size ? notInArray(eventStoreRows.id, [...skip].filter(isRowId)) : undefined)
      ).map((r) => r.key);
  const taken = new Set(others.flatMap((k) => normaliseEventKey(k) ?? []));
  const assigned: { rowId: string; eventKey: string }[] = [];
  for (const row of needing) {
    const own = normaliseEventKey(row.values.eventKey);
    const key = own !== null && !taken.has(own) ? own : generateEventKey(eventFingerprint(storeRowFields(row.values)), taken);
    taken.add(key);
    if (key !== row.values.eventKey) assigned.push({ rowId: row.id, eventKey: key });
  }
  return assigned;
}

/**
 * Appends rows at the end of the sheet under the store lock (an accepted submission): the
 * uniqueness pass gives each its key, a revision is recorded. Rows are cells by field key.
 * Returns the keys of the appended rows, in order.
 */
export async function appendStoreRows(
  db: Db,
  rows: Record<string, string>[],
  options: Omit<PatchOptions, "trigger"> & { trigger?: RevisionTrigger },
): Promise<{ ok: true; keys: string[]; rowIds: string[]; meta: StoreMeta } | Refused<"invalid" | "conflict">> {
  const cleaned = rows.map((values) => ({ values: Object.fromEntries(Object.entries(values).filter(([key]) => CORE_KEYS.has(key)).map(([k, v]) => [k, k === "eventKey" ? "" : v])) }));
  const result = await patchStoreSheet(db, { addRows: cleaned }, { publish: "changes", ...options, trigger: options.trigger ?? "submission" });
  if (!result.ok) return refused(result.reason, result.error);
  const keyById = new Map(result.assignedKeys.map((k) => [k.rowId, k.eventKey]));
  return { ok: true, keys: result.addedRowIds.map((id) => keyById.get(id) ?? ""), rowIds: result.addedRowIds, meta: result.meta };
}
