// The managed event store in Postgres: the whole sheet (columns, rows, meta) saved in one locked
// transaction with the uniqueness pass applied and a revision recorded; read back as CSV.

import { asc, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventStoreColumns, eventStoreMeta, eventStoreRevisions, eventStoreRows } from "../db/schema/index.ts";
import { sha256Hex } from "../crypto.ts";
import { findFieldForHeader, isFeaturedHeader, SHEET_COLUMNS, type SheetField } from "../sheet/columns.ts";
import { parseSheetCsv, toCsv } from "../sheet/csv.ts";
import { assignEventKeys } from "../sheet/keys.ts";
import { normaliseHeader } from "../sheet/text.ts";
import type { BlockingIssue } from "../sheet/types.ts";

/** A sheet as headers plus rows of cells. */
export interface RawSheet {
  headers: string[];
  rows: string[][];
}

export type StoreUpdatedBy = "system" | "admin-sheet-editor" | "admin-upload" | "sheet-import" | "submission-accept" | "restore";
export type StoreOrigin = "manual" | "sheet-import" | "local-file-import" | "restore";
export type RevisionTrigger = "autosave" | "publish" | "upload" | "import" | "restore" | "submission";

/** The store's metadata row. */
export interface StoreMeta {
  rowCount: number;
  columnCount: number;
  revision: number;
  updatedAt: Date;
  updatedBy: string;
  origin: string;
  checksum: string;
}

/** A stored column. */
export interface StoreColumn {
  key: string;
  label: string;
  isCore: boolean;
  isRequired: boolean;
}

export interface SaveOptions {
  updatedBy: StoreUpdatedBy;
  origin: StoreOrigin;
  /** Revision to record; omitted for the first-start seed. */
  trigger?: RevisionTrigger;
  /** Admin session jti or "system". */
  actor?: string;
  now: Date;
}

export type SaveResult =
  | {
      ok: true;
      rowCount: number;
      columnCount: number;
      checksum: string;
      revision: number;
      /** Event keys of the stored rows in order (after the uniqueness pass). */
      keys: string[];
      missingEventKeyCount: number;
      generatedEventKeyCount: number;
    }
  | { ok: false; error: string; blocking: BlockingIssue[] };

const STORE_LOCK_KEY = 734_200_1;
const REVISIONS_KEPT = 100;
const AUTOSAVE_MERGE_MS = 10 * 60 * 1000;
const CORE_KEYS = new Set<string>(SHEET_COLUMNS.map((c) => c.key));

/** Builds the stored column list: the 20 core columns in canonical order, then custom columns. */
function columnsFor(headers: readonly string[]): { columns: StoreColumn[]; sourceIndex: Map<string, number> } {
  const sourceIndex = new Map<string, number>();
  const custom: StoreColumn[] = [];
  const usedCustomKeys = new Set<string>();
  headers.forEach((header, index) => {
    if (isFeaturedHeader(header)) return;
    const field = findFieldForHeader(header);
    if (field) {
      if (!sourceIndex.has(field)) sourceIndex.set(field, index);
      return;
    }
    const label = header.trim();
    if (!label) return;
    let key = `custom_${normaliseHeader(label).replace(/ /g, "_") || "column"}`;
    for (let n = 2; usedCustomKeys.has(key) || CORE_KEYS.has(key); n++) key = `${key.replace(/_\d+$/, "")}_${n}`;
    usedCustomKeys.add(key);
    sourceIndex.set(key, index);
    custom.push({ key, label, isCore: false, isRequired: false });
  });
  const core = SHEET_COLUMNS.map((c) => ({ key: c.key as string, label: c.header, isCore: true, isRequired: c.key === "title" || c.key === "date" }));
  return { columns: [...core, ...custom], sourceIndex };
}

/** The CSV of a stored sheet (labels in display order, domain quoting). */
export function sheetToCsv(sheet: RawSheet): string {
  return toCsv(sheet.headers, sheet.rows);
}

/** First 16 hex of SHA-256 of the normalised CSV. */
export function sheetChecksum(csv: string): string {
  return sha256Hex(csv).slice(0, 16);
}

/**
 * Normalises an incoming sheet for storage: schema gate, stored columns, rows keyed by column,
 * and the uniqueness pass writing generated keys into the Event Key cell.
 */
export function prepareSheet(input: RawSheet | string):
  | { ok: true; columns: StoreColumn[]; rows: Record<string, string>[]; keys: string[]; missingEventKeyCount: number; generatedEventKeyCount: number; csv: string }
  | { ok: false; error: string; blocking: BlockingIssue[] } {
  const parsed = parseSheetCsv(typeof input === "string" ? input : sheetToCsv(input));
  if (!parsed.ok) return { ok: false, error: parsed.error, blocking: parsed.blocking };
  const { columns, sourceIndex } = columnsFor(parsed.columns);
  const cell = (cells: string[], key: string) => {
    const index = sourceIndex.get(key);
    return index === undefined ? "" : (cells[index] ?? "");
  };
  const assignment = assignEventKeys(
    parsed.rows.map((row) => ({
      eventKey: cell(row.cells, "eventKey"),
      title: cell(row.cells, "title"),
      date: cell(row.cells, "date"),
      startTime: cell(row.cells, "startTime"),
      location: cell(row.cells, "location"),
      area: cell(row.cells, "area"),
    })),
  );
  const rows = parsed.rows.map((row, i) => {
    const data: Record<string, string> = {};
    for (const column of columns) data[column.key] = column.key === "eventKey" ? assignment.keys[i] : cell(row.cells, column.key);
    return data;
  });
  const csv = toCsv(
    columns.map((c) => c.label),
    rows.map((r) => columns.map((c) => r[c.key])),
  );
  return {
    ok: true,
    columns,
    rows,
    keys: assignment.keys,
    missingEventKeyCount: assignment.missingEventKeyCount,
    generatedEventKeyCount: assignment.generatedEventKeyCount,
    csv,
  };
}

// row_data values written by older tools may be JSON-encoded strings; null becomes "".
function cellValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const inner = JSON.parse(value);
      if (typeof inner === "string") return inner;
    } catch {}
  }
  return value;
}

/** A cheap stamp of the store's content (revision, checksum, size, time); undefined before the first save. */
export async function findStoreStamp(db: Db): Promise<string | undefined> {
  const [meta] = await db
    .select({ revision: eventStoreMeta.revision, checksum: eventStoreMeta.checksum, rowCount: eventStoreMeta.rowCount, updatedAt: eventStoreMeta.updatedAt })
    .from(eventStoreMeta)
    .where(eq(eventStoreMeta.id, 1))
    .limit(1);
  return meta ? `${meta.revision}|${meta.checksum}|${meta.rowCount}|${meta.updatedAt.getTime()}` : undefined;
}

/** The store metadata, or undefined when nothing was ever saved. */
export async function findStoreMeta(db: Db): Promise<StoreMeta | undefined> {
  const [meta] = await db.select().from(eventStoreMeta).where(eq(eventStoreMeta.id, 1)).limit(1);
  if (!meta) return undefined;
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(eventStoreColumns);
  return { rowCount: meta.rowCount, columnCount: Number(n), revision: meta.revision, updatedAt: meta.updatedAt, updatedBy: meta.updatedBy, origin: meta.origin, checksum: meta.checksum };
}

/** Reads the stored sheet; undefined when the store has never been written. */
export async function readStoreSheet(db: Db): Promise<{ sheet: RawSheet; columns: StoreColumn[]; meta: StoreMeta } | undefined> {
  const meta = await findStoreMeta(db);
  if (!meta) return undefined;
  const columns = await db.select().from(eventStoreColumns).orderBy(asc(eventStoreColumns.displayOrder));
  // One JSON array for all rows: decoding a single text value is about twice as fast as one
  // jsonb value per row through the drivers.
  const [aggregate] = await db
    .select({ json: sql<string>`coalesce(json_agg(${eventStoreRows.rowData} order by ${eventStoreRows.displayOrder}), '[]'::json)::text` })
    .from(eventStoreRows);
  const rows = JSON.parse(aggregate?.json ?? "[]") as Record<string, unknown>[];
  const sheet: RawSheet = {
    headers: columns.map((c) => c.label),
    rows: rows.map((data) => columns.map((c) => cellValue(data?.[c.key]))),
  };
  return { sheet, columns: columns.map((c) => ({ key: c.key, label: c.label, isCore: c.isCore, isRequired: c.isRequired })), meta };
}

interface DiffSummary {
  rowsAdded: number;
  rowsDeleted: number;
  rowsChanged: number;
  changedColumns: string[];
}

function diffRows(previous: Record<string, string>[], next: Record<string, string>[], previousColumns: string[], nextColumns: string[]): DiffSummary {
  const byKey = (rows: Record<string, string>[]) => new Map(rows.map((r) => [r.eventKey ?? "", r]));
  const before = byKey(previous);
  const after = byKey(next);
  let rowsAdded = 0;
  let rowsChanged = 0;
  const changed = new Set<string>();
  for (const column of nextColumns) if (!previousColumns.includes(column)) changed.add(column);
  for (const column of previousColumns) if (!nextColumns.includes(column)) changed.add(column);
  for (const [key, row] of after) {
    const old = before.get(key);
    if (!old) {
      rowsAdded++;
      continue;
    }
    let differs = false;
    for (const column of nextColumns) {
      if ((old[column] ?? "") !== (row[column] ?? "")) {
        differs = true;
        changed.add(column);
      }
    }
    if (differs) rowsChanged++;
  }
  let rowsDeleted = 0;
  for (const key of before.keys()) if (!after.has(key)) rowsDeleted++;
  return { rowsAdded, rowsDeleted, rowsChanged, changedColumns: [...changed].sort() };
}

/**
 * Replaces the whole store in one transaction under the store's advisory lock, records a
 * revision (autosaves by the same actor within 10 minutes merge into one) and keeps 100.
 */
export async function saveStoreSheet(db: Db, input: RawSheet | string, options: SaveOptions): Promise<SaveResult> {
  const prepared = prepareSheet(input);
  if (!prepared.ok) return prepared;
  const checksum = sheetChecksum(prepared.csv);
  const revision = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${STORE_LOCK_KEY})`);
    const previousColumns = (await tx.select({ key: eventStoreColumns.key }).from(eventStoreColumns)).map((c) => c.key);
    const previousRows = options.trigger
      ? (await tx.select({ data: eventStoreRows.rowData }).from(eventStoreRows).orderBy(asc(eventStoreRows.displayOrder))).map((r) => r.data as Record<string, string>)
      : [];
    await tx.delete(eventStoreRows);
    await tx.delete(eventStoreColumns);
    await tx.insert(eventStoreColumns).values(prepared.columns.map((c, i) => ({ ...c, displayOrder: i })));
    for (let i = 0; i < prepared.rows.length; i += 500) {
      const chunk = prepared.rows.slice(i, i + 500).map((rowData, j) => ({ displayOrder: i + j, rowData }));
      await tx.insert(eventStoreRows).values(chunk);
    }
    const [meta] = await tx
      .insert(eventStoreMeta)
      .values({ id: 1, rowCount: prepared.rows.length, revision: 1, updatedAt: options.now, updatedBy: options.updatedBy, origin: options.origin, checksum })
      .onConflictDoUpdate({
        target: eventStoreMeta.id,
        set: { rowCount: prepared.rows.length, revision: sql`${eventStoreMeta.revision} + 1`, updatedAt: options.now, updatedBy: options.updatedBy, origin: options.origin, checksum },
      })
      .returning({ revision: eventStoreMeta.revision });
    if (options.trigger) {
      const diff = diffRows(previousRows, prepared.rows, previousColumns, prepared.columns.map((c) => c.key));
      const actor = options.actor ?? "system";
      const values = {
        trigger: options.trigger,
        actor,
        rowCount: prepared.rows.length,
        columnCount: prepared.columns.length,
        ...diff,
        csv: prepared.csv,
        updatedAt: options.now,
      };
      let merged = false;
      if (options.trigger === "autosave") {
        const [latest] = await tx.select().from(eventStoreRevisions).orderBy(desc(eventStoreRevisions.createdAt)).limit(1);
        if (latest && latest.trigger === "autosave" && latest.actor === actor && options.now.getTime() - latest.updatedAt.getTime() < AUTOSAVE_MERGE_MS) {
          await tx
            .update(eventStoreRevisions)
            .set({
              ...values,
              rowsAdded: latest.rowsAdded + diff.rowsAdded,
              rowsDeleted: latest.rowsDeleted + diff.rowsDeleted,
              rowsChanged: latest.rowsChanged + diff.rowsChanged,
              changedColumns: [...new Set([...latest.changedColumns, ...diff.changedColumns])].sort(),
            })
            .where(eq(eventStoreRevisions.id, latest.id));
          merged = true;
        }
      }
      if (!merged) await tx.insert(eventStoreRevisions).values({ ...values, createdAt: options.now });
      const keep = await tx.select({ createdAt: eventStoreRevisions.createdAt }).from(eventStoreRevisions).orderBy(desc(eventStoreRevisions.createdAt)).offset(REVISIONS_KEPT - 1).limit(1);
      if (keep[0]) await tx.delete(eventStoreRevisions).where(lt(eventStoreRevisions.createdAt, keep[0].createdAt));
    }
    return meta.revision;
  });
  return {
    ok: true,
    rowCount: prepared.rows.length,
    columnCount: prepared.columns.length,
    checksum,
    revision,
    keys: prepared.keys,
    missingEventKeyCount: prepared.missingEventKeyCount,
    generatedEventKeyCount: prepared.generatedEventKeyCount,
  };
}

/** Empties the store (rows and custom columns) while keeping its metadata row. */
export async function clearStore(db: Db, options: { updatedBy: StoreUpdatedBy; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${STORE_LOCK_KEY})`);
    await tx.delete(eventStoreRows);
    await tx
      .update(eventStoreMeta)
      .set({ rowCount: 0, revision: sql`${eventStoreMeta.revision} + 1`, updatedAt: options.now, updatedBy: options.updatedBy, checksum: "" })
      .where(eq(eventStoreMeta.id, 1));
  });
}

/** Store revisions, newest first (without their CSV). */
export async function listRevisions(db: Db, limit = 100) {
  return db
    .select({
      id: eventStoreRevisions.id,
      createdAt: eventStoreRevisions.createdAt,
      trigger: eventStoreRevisions.trigger,
      actor: eventStoreRevisions.actor,
      rowCount: eventStoreRevisions.rowCount,
      columnCount: eventStoreRevisions.columnCount,
      rowsAdded: eventStoreRevisions.rowsAdded,
      rowsDeleted: eventStoreRevisions.rowsDeleted,
      rowsChanged: eventStoreRevisions.rowsChanged,
      changedColumns: eventStoreRevisions.changedColumns,
    })
    .from(eventStoreRevisions)
    .orderBy(desc(eventStoreRevisions.createdAt))
    .limit(limit);
}

/** One revision's CSV, or undefined. */
export async function findRevisionCsv(db: Db, id: string): Promise<string | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select({ csv: eventStoreRevisions.csv }).from(eventStoreRevisions).where(eq(eventStoreRevisions.id, id)).limit(1);
  return row?.csv;
}

export type { SheetField };
