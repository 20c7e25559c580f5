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
import { STORE_LOCK_KEY } from "../db/locks.ts";

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
  | { ok: false; kind: "conflict"; error: string; meta: StoreMeta; conflicts: CellConflict[] }
  | { ok: false; kind: "invalid"; error: string; issues: { field: string; message: string }[] }
  | { ok: false; kind: "blocked"; error: string; report: SchemaReport };

const MAX_CELL_LENGTH = 10_000;

function cellRevision(row: StoredRowState, key: string): number {
  return row.cellRevisions[key] ?? row.createdRevision;
}

/** Applies a partial write under the store lock; see the file comment for the conflict rule. */
export async function patchStoreSheet(db: Db, patch: StorePatch, options: PatchOptions): Promise<PatchResult> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(${STORE_LOCK_KEY})`);
    const [current] = await tx.select().from(eventStoreMeta).where(eq(eventStoreMeta.id, 1)).limit(1);
    const storedColumns = await listStoreColumns(t);
    // A store never written has no columns yet: the core ones come first.
    const columns = storedColumns.length ? storedColumns : coreColumns();
    const currentRevision = current?.revision ?? 0;
    const base = patch.baseRevision ?? currentRevision;
    const metaNow = (): StoreMeta => ({
      rowCount: current?.rowCount ?? 0,
      columnCount: columns.length,
      revision: currentRevision,
      updatedAt: current?.updatedAt ?? options.now,
      updatedBy: current?.updatedBy ?? "system",
      origin: current?.origin ?? "manual",
      checksum: current?.checksum ?? "",
    });
    if (base > currentRevision) return invalid("baseRevision", "Base revision is newer than the store");

    // Columns first, so cells of the same patch may name them.
    const issues: { field: string; message: string }[] = [];
    const keys = new Set(columns.map((c) => c.key));
    const addedColumns: StoreColumn[] = [];
    for (const [i, column] of (patch.addColumns ?? []).entries()) {
      const label = column.label.trim().replace(/\s+/g, " ");
      if (!label || label.length > 80) {
        issues.push({ field: `addColumns.${i}.label`, message: "Column label must be 1–80 characters" });
        continue;
      }
      if (columns.some((c) => c.label.toLowerCase() === label.toLowerCase()) || addedColumns.some((c) => c.label.toLowerCase() === label.toLowerCase())) {
        issues.push({ field: `addColumns.${i}.label`, message: `A column named "${label}" already exists` });
        continue;
      }
      if (findFieldForHeader(label) !== null || isFeaturedHeader(label)) {
        issues.push({ field: `addColumns.${i}.label`, message: `"${label}" is the name of a core column` });
        continue;
      }
      if (column.key !== undefined && (!isCustomColumnKey(column.key) || keys.has(column.key))) {
        issues.push({ field: `addColumns.${i}.key`, message: "Column key must be custom_ followed by lowercase letters, digits or _, and unused" });
        continue;
      }
      const key = column.key ?? customColumnKey(label, keys);
      keys.add(key);
      addedColumns.push({ key, label, isCore: false, isRequired: false });
    }

    // A publish's gate checks the whole sheet; an autosave reads only the rows it names.
    const whole = options.gate !== undefined || options.publish === "sheet";
    const named = [...(patch.cells ?? []).map((c) => c.rowId), ...(patch.deleteRowIds ?? []), ...(patch.addRows ?? []).flatMap((r) => (r.id ? [r.id] : []))];
    const rows = whole ? await readStoreRows(t, columns) : await readStoreRowsById(t, columns, named);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const addedIds: string[] = [];
    for (const [i, row] of (patch.addRows ?? []).entries()) {
      const id = row.id?.toLowerCase() ?? crypto.randomUUID();
      if (byId.has(id) || addedIds.includes(id)) issues.push({ field: `addRows.${i}.id`, message: "Row id is already used" });
      for (const key of Object.keys(row.values)) if (!keys.has(key)) issues.push({ field: `addRows.${i}.values.${key}`, message: "Unknown column" });
      addedIds.push(id);
    }
    const added = new Set(addedIds);
    for (const [i, cell] of (patch.cells ?? []).entries()) {
      if (!keys.has(cell.key)) issues.push({ field: `cells.${i}.key`, message: "Unknown column" });
      if ((cell.baseRevision ?? 0) > currentRevision) issues.push({ field: `cells.${i}.baseRevision`, message: "Base revision is newer than the store" });
      if (cell.value.length > MAX_CELL_LENGTH) issues.push({ field: `cells.${i}.value`, message: `Cell text is longer than ${MAX_CELL_LENGTH} characters` });
    }
    if (issues.length) return { ok: false as const, kind: "invalid" as const, error: "Invalid sheet edits", issues };

    // Conflicts: touched cells changed after the base, rows deleted after it, deleted rows edited after it.
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
    if (conflicts.length) return { ok: false as const, kind: "conflict" as const, error: "The sheet changed since these edits were based on it", meta: metaNow(), conflicts };

    const revision = currentRevision + 1;
    const allColumns = [...columns, ...addedColumns];
    const changedColumns = new Set<string>(addedColumns.map((c) => c.key));
    const changedCells = new Map<string, [string, string, string]>();
    const deleted = new Set((patch.deleteRowIds ?? []).filter((id) => byId.has(id)));
    // `next` is the whole sheet after the write for a publish, else the rows the patch names.
    const next: StoredRowState[] = rows.filter((r) => !deleted.has(r.id));
    const blankBefore = new Set(next.filter((r) => isBlankStoreRow(r.values)).map((r) => r.id));
    for (const [i, row] of (patch.addRows ?? []).entries()) {
      const values: Record<string, string> = {};
      for (const column of allColumns) values[column.key] = (row.values[column.key] ?? "").trim();
      next.push({ id: addedIds[i], values, createdRevision: revision, revision, cellRevisions: {} });
    }
    const nextById = new Map(next.map((r) => [r.id, r]));
    const setCell = (row: StoredRowState, key: string, value: string) => {
      if ((row.values[key] ?? "") === value) return;
      row.values[key] = value;
      if (added.has(row.id)) return;
      row.cellRevisions = { ...row.cellRevisions, [key]: revision };
      row.revision = revision;
      changedCells.set(`${row.id}\u0000${key}`, [row.id, key, value]);
      changedColumns.add(key);
    };
    for (const cell of patch.cells ?? []) {
      const row = nextById.get(cell.rowId);
      if (!row || cell.key === "eventKey") continue;
      setCell(row, cell.key, cell.value.trim());
    }

    const assignedKeys = await assignMissingKeys(t, next, { added, blankBefore, touched: new Set([...changedCells.values()].map(([id]) => id)), deleted, all: whole ? rows : undefined });
    for (const { rowId, eventKey } of assignedKeys) setCell(nextById.get(rowId)!, "eventKey", eventKey);

    if (options.gate) {
      const report = options.gate(allColumns, next);
      if (!report.ok) return { ok: false as const, kind: "blocked" as const, error: report.blocking.map((b) => b.message).join("; "), report };
    }
    const touched = new Set([...changedCells.values()].map(([id]) => id));
    const newColumns = storedColumns.length ? addedColumns : allColumns;
    if (newColumns.length) await tx.insert(eventStoreColumns).values(newColumns.map((c, i) => ({ ...c, displayOrder: allColumns.length - newColumns.length + i })));
    if (deleted.size) await tx.delete(eventStoreRows).where(inArray(eventStoreRows.id, [...deleted]));
    const updates = next.filter((r) => touched.has(r.id)).map((r) => ({ id: r.id, data: r.values, revs: r.cellRevisions }));
    if (updates.length) {
      await tx.execute(sql`update event_store_rows as r set row_data = v.data, cell_revisions = v.revs, revision = ${revision}
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as v(id uuid, data jsonb, revs jsonb) where r.id = v.id`);
    }
    const appended = next.filter((r) => added.has(r.id));
    if (appended.length) {
      const [{ maxOrder }] = await tx.select({ maxOrder: sql<number>`coalesce(max(${eventStoreRows.displayOrder}), -1)::int` }).from(eventStoreRows);
      const records = appended.map((r, i) => ({ id: r.id, displayOrder: Number(maxOrder) + 1 + i, rowData: r.values, createdRevision: revision, revision, cellRevisions: {} }));
      for (let i = 0; i < records.length; i += 500) await tx.insert(eventStoreRows).values(records.slice(i, i + 500));
    }

    // The checksum covers the whole sheet: a publish has it at hand; an autosave leaves it empty
    // until the next full write (readers that show it compute it then).
    const rowCount = whole ? next.length : (current?.rowCount ?? 0) + appended.length - deleted.size;
    const checksum = whole ? sheetChecksum(storeCsv(allColumns, next)) : "";
    const metaValues = { rowCount, revision, updatedAt: options.now, updatedBy: options.updatedBy, origin: options.origin ?? current?.origin ?? "manual", checksum };
    await tx.insert(eventStoreMeta).values({ id: 1, ...metaValues }).onConflictDoUpdate({ target: eventStoreMeta.id, set: metaValues });
    const step: RevisionStep = {};
    if (addedColumns.length) step.addColumns = addedColumns.map((c) => ({ key: c.key, label: c.label }));
    if (deleted.size) step.deleteRowIds = [...deleted];
    if (changedCells.size) step.cells = [...changedCells.values()];
    if (appended.length) step.addRows = appended.map((r) => ({ id: r.id, values: Object.fromEntries(Object.entries(r.values).filter(([, v]) => v !== "")) }));
    await recordRevision(t, {
      trigger: options.trigger,
      actor: options.actor ?? "system",
      now: options.now,
      rowCount,
      columnCount: allColumns.length,
      summary: { rowsAdded: appended.length, rowsDeleted: deleted.size, rowsChanged: touched.size, changedColumns: [...changedColumns].sort() },
      fromRevision: currentRevision,
      toRevision: revision,
      // A publish keeps a snapshot of the sheet it published.
      step: whole ? undefined : step,
    });
    const publishing = { now: options.now, actor: options.actor ?? "system", trigger: options.trigger, storeRevision: revision };
    if (options.publish === "sheet") await publishWholeSheet(t, { columns: allColumns, rows: next }, publishing);
    else if (options.publish === "changes") {
      await publishStep(t, step, publishing, async () => ({ columns: allColumns, rows: await readStoreRows(t, allColumns, { lean: true }) }));
    }
    return {
      ok: true as const,
      meta: { ...metaValues, columnCount: allColumns.length },
      assignedKeys,
      addedRowIds: addedIds,
      columns: allColumns,
      behind: base !== currentRevision,
    };
  });

  function invalid(field: string, message: string) {
    return { ok: false as const, kind: "invalid" as const, error: "Invalid sheet edits", issues: [{ field, message }] };
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
): Promise<{ ok: true; keys: string[]; rowIds: string[]; meta: StoreMeta } | { ok: false; error: string }> {
  const cleaned = rows.map((values) => ({ values: Object.fromEntries(Object.entries(values).filter(([key]) => CORE_KEYS.has(key)).map(([k, v]) => [k, k === "eventKey" ? "" : v])) }));
  const result = await patchStoreSheet(db, { addRows: cleaned }, { publish: "changes", ...options, trigger: options.trigger ?? "submission" });
  if (!result.ok) return { ok: false, error: result.error };
  const keyById = new Map(result.assignedKeys.map((k) => [k.rowId, k.eventKey]));
  return { ok: true, keys: result.addedRowIds.map((id) => keyById.get(id) ?? ""), rowIds: result.addedRowIds, meta: result.meta };
}
