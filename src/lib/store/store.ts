// The managed event store in Postgres (see docs/store-and-backups.md): columns, rows with stable
// ids and the metadata row. A full save replaces the sheet in one transaction under the store lock
// with the uniqueness pass applied and a revision recorded; reads give rows of cells by column
// key, with the keys the saves assigned. Partial writes (autosave, appended rows) are in patch.ts.

import { asc, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { eventStoreColumns, eventStoreMeta, eventStorePublished, eventStoreRows } from "../db/schema/index.ts";
import { sha256Hex } from "../crypto.ts";
import { findFieldForHeader, isFeaturedHeader, SHEET_COLUMNS, SHEET_FIELDS, type SheetField, type SheetFields } from "../sheet/columns.ts";
import { parseCsvRecords, parseSheetRecords, toCsv } from "../sheet/csv.ts";
import { assignEventKeys, normaliseEventKey } from "../sheet/keys.ts";
import { normaliseHeader } from "../sheet/text.ts";
import type { BlockingIssue } from "../sheet/types.ts";
import { recordRevision, type RevisionTrigger } from "./revisions.ts";
import { publishWholeSheet } from "./published.ts";
import { cellValue } from "./cells.ts";
import { holdTransactionLock, STORE_LOCK_KEY } from "../db/locks.ts";
import { writeWithinDeadline, type WriteDeadline } from "../db/write-deadline.ts";
import { refused, type Refused } from "../outcome.ts";

/**
 * A sheet as headers plus rows of cells. `ids` (parallel to `rows`) names the stored row each one
 * replaces, and `columnKeys` (parallel to `headers`) the stored key of each custom column; both
 * are optional: without them rows are matched to stored rows by Event Key and custom columns get
 * keys from their labels.
 */
export interface RawSheet {
  headers: string[];
  rows: string[][];
  ids?: (string | undefined)[];
  columnKeys?: (string | undefined)[];
}

export type StoreUpdatedBy = "system" | "admin-sheet-editor" | "admin-upload" | "sheet-import" | "submission-accept" | "restore" | "rollover";
export type StoreOrigin = "manual" | "sheet-import" | "local-file-import" | "restore";
export type { RevisionTrigger };

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

/** A stored row: its stable id and its cells by column key (every column present, "" when empty). */
export interface StoreRow {
  id: string;
  values: Record<string, string>;
}

/** The stored sheet as the editor and the read pipeline use it. */
export interface StoredSheet {
  columns: StoreColumn[];
  rows: StoreRow[];
  meta: StoreMeta;
}

export interface SaveOptions {
  updatedBy: StoreUpdatedBy;
  origin: StoreOrigin;
  /** Revision to record; omitted for the first-start seed. */
  trigger?: RevisionTrigger;
  /** Admin session jti or "system". */
  actor?: string;
  now: Date;
  /** The store revision the caller's copy was read at; a different current revision refuses the save. */
  baseRevision?: number;
  /**
   * Publish the saved sheet in the same transaction (default true: uploads, imports, restores and
   * the first-start seed change the public site). False keeps it a draft (an editor PUT without
   * `publish`, discarding drafts).
   */
  publish?: boolean;
  /** The request's deadline (an import over HTTP): past it before the commit, the save is rolled back and DeadlinePassed thrown. */
  deadline?: WriteDeadline;
  /**
   * More work of the same write, run inside its transaction after the sheet is written (and
   * published when asked). To refuse, it throws a WriteRefused: the whole write is rolled back and
   * the error reaches the caller, who answers its refusal.
   */
  within?: (tx: Db, revision: number) => Promise<void>;
  /** The sheet may have no rows (starting an edition with nothing carried over); the schema gate refuses one otherwise. */
  allowEmpty?: boolean;
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
      /** Stable ids of the stored rows in order. */
      ids: string[];
      missingEventKeyCount: number;
      generatedEventKeyCount: number;
    }
  | (Refused<"invalid"> & { blocking: BlockingIssue[] })
  | (Refused<"conflict"> & { stale: true; meta: StoreMeta });

/** Thrown by a save's `within` step to refuse the whole write (rolled back); carries the refusal to answer. */
export class WriteRefused extends Error {
  constructor(readonly refusal: Refused) {
    super(refusal.error);
    this.name = "WriteRefused";
  }
}

/** Core column keys (the 20 canonical fields). */
export const CORE_KEYS: ReadonlySet<string> = new Set<string>(SHEET_FIELDS);
/**
 * The longest slug of a custom column key made from its label (`custom_<slug>`). The editor makes
 * its keys in the browser with the same bound (sent with the page) and a "_" plus 6-character
 * suffix, which CUSTOM_KEY leaves room for.
 */
export const CUSTOM_KEY_SLUG_MAX = 50;
const CUSTOM_KEY = /^custom_[a-z0-9_]{1,60}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a well-formed row id. */
export function isRowId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** True for a well-formed custom column key. */
export function isCustomColumnKey(value: unknown): value is string {
  return typeof value === "string" && CUSTOM_KEY.test(value) && !CORE_KEYS.has(value);
}

/** The 20 core columns in canonical order (Title and Date required). */
export function coreColumns(): StoreColumn[] {
  return SHEET_COLUMNS.map((c) => ({ key: c.key as string, label: c.header, isCore: true, isRequired: c.key === "title" || c.key === "date" }));
}

/** A custom column key from a label, unique among `taken`. */
export function customColumnKey(label: string, taken: ReadonlySet<string>): string {
  const base = `custom_${normaliseHeader(label).replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, CUSTOM_KEY_SLUG_MAX) || "column"}`;
  let key = base;
  for (let n = 2; taken.has(key) || CORE_KEYS.has(key); n++) key = `${base}_${n}`;
  return key;
}

/** Builds the stored column list: the 20 core columns in canonical order, then custom columns. */
function columnsFor(headers: readonly string[], columnKeys?: readonly (string | undefined)[]): { columns: StoreColumn[]; sourceIndex: Map<string, number> } {
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
    const given = columnKeys?.[index];
    const key = isCustomColumnKey(given) && !usedCustomKeys.has(given) ? given : customColumnKey(label, usedCustomKeys);
    usedCustomKeys.add(key);
    sourceIndex.set(key, index);
    custom.push({ key, label, isCore: false, isRequired: false });
  });
  return { columns: [...coreColumns(), ...custom], sourceIndex };
}

/** The CSV of a sheet: column labels in display order, then one line per row (CSV quoting). */
export function storeCsv(columns: readonly Pick<StoreColumn, "key" | "label">[], rows: readonly Pick<StoreRow, "values">[]): string {
  return toCsv(
    columns.map((c) => c.label),
    rows.map((r) => columns.map((c) => r.values[c.key] ?? "")),
  );
}

/** First 16 hex of SHA-256 of the normalised CSV. */
export function sheetChecksum(csv: string): string {
  return sha256Hex(csv).slice(0, 16);
}

/** The core fields of a stored row, for the sheet builder. */
export function storeRowFields(values: Readonly<Record<string, string>>): SheetFields {
  const fields = {} as SheetFields;
  for (const key of SHEET_FIELDS) fields[key] = values[key] ?? "";
  return fields;
}

/**
 * True when every core cell of a row but its Event Key is empty: a row just added in the editor.
 * Such rows carry no event and get no key; a full save drops them, as a CSV drops blank lines.
 */
export function isBlankStoreRow(values: Readonly<Record<string, string>>): boolean {
  for (const key of SHEET_FIELDS) if (key !== "eventKey" && (values[key] ?? "") !== "") return false;
  return true;
}

/** A sheet of no rows with the given columns (the schema gate refuses one: only a save that allows it writes it). */
function emptySheet(input: RawSheet): { ok: true } & PreparedSheet {
  const { columns } = columnsFor(input.headers.map((h) => String(h ?? "").trim()), input.columnKeys);
  return { ok: true, columns, rows: [], keys: [], missingEventKeyCount: 0, generatedEventKeyCount: 0 };
}

/** A sheet ready for storage: schema gate passed, rows keyed by column, keys assigned. */
export interface PreparedSheet {
  columns: StoreColumn[];
  rows: { id?: string; values: Record<string, string> }[];
  keys: string[];
  missingEventKeyCount: number;
  generatedEventKeyCount: number;
}

/**
 * Normalises an incoming sheet for storage: schema gate (the CSV rules), stored columns, rows
 * keyed by column, and the uniqueness pass writing generated keys into the Event Key cell.
 */
export function prepareSheet(input: RawSheet | string): ({ ok: true } & PreparedSheet) | (Refused<"invalid"> & { blocking: BlockingIssue[] }) {
  const records: string[][] =
    typeof input === "string" ? parseCsvRecords(input) : [input.headers.map((h) => String(h ?? "").trim()), ...input.rows.map((row) => row.map((cell) => String(cell ?? "").trim()))];
  const parsed = parseSheetRecords(records);
  if (!parsed.ok) return refused("invalid", parsed.error, { blocking: parsed.blocking });
  const { columns, sourceIndex } = columnsFor(parsed.columns, typeof input === "string" ? undefined : input.columnKeys);
  const ids = typeof input === "string" ? undefined : input.ids;
  const cell = (cells: string[], key: string) => {
    const index = sourceIndex.get(key);
    return index === undefined ? "" : (cells[index] ?? "");
  };
  const assignment = assignEventKeys(parsed.rows.map((row) => storeRowFields(Object.fromEntries(SHEET_FIELDS.map((f) => [f, cell(row.cells, f)])))));
  const rows = parsed.rows.map((row, i) => {
    const values: Record<string, string> = {};
    for (const column of columns) values[column.key] = column.key === "eventKey" ? assignment.keys[i] : cell(row.cells, column.key);
    const id = ids?.[row.rowNumber - 2];
    return { id: isRowId(id) ? id.toLowerCase() : undefined, values };
  });
  return { ok: true, columns, rows, keys: assignment.keys, missingEventKeyCount: assignment.missingEventKeyCount, generatedEventKeyCount: assignment.generatedEventKeyCount };
}

type MetaRow = typeof eventStoreMeta.$inferSelect;

function metaOf(meta: MetaRow, columnCount: number): StoreMeta {
  return { rowCount: meta.rowCount, columnCount, revision: meta.revision, updatedAt: meta.updatedAt, updatedBy: meta.updatedBy, origin: meta.origin, checksum: meta.checksum };
}

/** The store metadata, or undefined when nothing was ever saved. */
export async function findStoreMeta(db: Db): Promise<StoreMeta | undefined> {
  const [meta] = await db.select().from(eventStoreMeta).where(eq(eventStoreMeta.id, 1)).limit(1);
  if (!meta) return undefined;
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(eventStoreColumns);
  return metaOf(meta, Number(n));
}

/**
 * The checksum of the stored sheet: the one the last full write recorded, or, after partial writes
 * (which leave it empty rather than read the whole sheet), computed from the sheet now. Empty for
 * an empty store.
 */
export async function currentStoreChecksum(db: Db, meta: Pick<StoreMeta, "checksum" | "rowCount">): Promise<string> {
  if (meta.checksum || meta.rowCount === 0) return meta.checksum;
  const sheet = await readStoreSheet(db);
  return sheet ? sheetChecksum(storedSheetCsv(sheet)) : "";
}

/** The stored columns in display order. */
export async function listStoreColumns(db: Db): Promise<StoreColumn[]> {
  const columns = await db.select().from(eventStoreColumns).orderBy(asc(eventStoreColumns.displayOrder));
  return columns.map((c) => ({ key: c.key, label: c.label, isCore: c.isCore, isRequired: c.isRequired }));
}

/** One stored row with what conflict checks need. */
export interface StoredRowState extends StoreRow {
  createdRevision: number;
  revision: number;
  cellRevisions: Record<string, number>;
}

/**
 * Every stored row in display order, with values for `columns` (missing cells are "") and, unless
 * `lean`, the revisions conflict checks need. One JSON array for all rows: decoding a single text
 * value is about twice as fast as one jsonb value per row through the drivers.
 */
export async function readStoreRows(db: Db, columns: readonly Pick<StoreColumn, "key">[], options: { lean?: boolean } = {}): Promise<StoredRowState[]> {
  const item = options.lean
    ? sql`json_build_array(${eventStoreRows.id}, ${eventStoreRows.rowData})`
    : sql`json_build_array(${eventStoreRows.id}, ${eventStoreRows.rowData}, ${eventStoreRows.createdRevision}, ${eventStoreRows.revision}, ${eventStoreRows.cellRevisions})`;
  const [aggregate] = await db
    .select({ json: sql<string>`coalesce(json_agg(${item} order by ${eventStoreRows.displayOrder}), '[]'::json)::text` })
    .from(eventStoreRows);
  const raw = JSON.parse(aggregate?.json ?? "[]") as [string, Record<string, unknown> | null, number?, number?, Record<string, number>?][];
  return raw.map(([id, data, createdRevision, revision, cellRevisions]) => ({
    id,
    values: rowValues(data, columns),
    createdRevision: Number(createdRevision ?? 0),
    revision: Number(revision ?? 0),
    cellRevisions: cellRevisions ?? {},
  }));
}

/** The stored rows with these ids (any others are left out), in display order, with the revisions conflict checks need. */
export async function readStoreRowsById(db: Db, columns: readonly Pick<StoreColumn, "key">[], ids: readonly string[]): Promise<StoredRowState[]> {
  const wanted = [...new Set(ids.filter(isRowId).map((id) => id.toLowerCase()))];
  if (!wanted.length) return [];
  const found = await db
    .select({ id: eventStoreRows.id, data: eventStoreRows.rowData, createdRevision: eventStoreRows.createdRevision, revision: eventStoreRows.revision, cellRevisions: eventStoreRows.cellRevisions })
    .from(eventStoreRows)
    .where(inArray(eventStoreRows.id, wanted))
    .orderBy(asc(eventStoreRows.displayOrder));
  return found.map((row) => ({ id: row.id, values: rowValues(row.data, columns), createdRevision: Number(row.createdRevision), revision: Number(row.revision), cellRevisions: row.cellRevisions ?? {} }));
}

function rowValues(data: Record<string, unknown> | null | undefined, columns: readonly Pick<StoreColumn, "key">[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const column of columns) values[column.key] = cellValue(data?.[column.key]);
  return values;
}

/** A stored row in a window of the sheet: its 1-based position in the whole sheet and its non-empty cells. */
export interface WindowRow {
  id: string;
  position: number;
  values: Record<string, string>;
}

/** Which rows a window holds: a page (`offset`, `limit`) of every row or of the rows matching `search`. */
export interface WindowQuery {
  offset?: number;
  limit?: number;
  search?: string;
}

/** The text for a LIKE pattern that matches it literally (backslash is the escape character). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * One window of the stored sheet without reading the rest: a page in display order (by the index
 * on display_order), or the page of rows with a cell containing `search` (case-insensitive,
 * matched inside Postgres). `matching` counts every row the window is a page of. Empty cells are
 * left out of `values`.
 */
export async function readStoreWindow(db: Db, columns: readonly Pick<StoreColumn, "key">[], query: WindowQuery): Promise<{ rows: WindowRow[]; matching: number }> {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  const search = query.search?.trim() ?? "";
  let raw: [string, number, Record<string, unknown> | null][];
  let matching: number;
  if (search === "") {
    const page = await db
      .select({ id: eventStoreRows.id, data: eventStoreRows.rowData })
      .from(eventStoreRows)
      .orderBy(asc(eventStoreRows.displayOrder))
      .offset(offset)
      .limit(limit);
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(eventStoreRows);
    raw = page.map((row, i) => [row.id, offset + i + 1, row.data]);
    matching = Number(n);
  } else {
    const filter = sql`exists (select 1 from jsonb_each_text(row_data) e where e.value ilike ${`%${likeLiteral(search)}%`} escape '\\')`;
    const result = await db.execute<{ matching: number; rows: string }>(sql`with numbered as (
        select id, row_data, display_order, row_number() over (order by display_order) as position from event_store_rows
      ), matched as (select * from numbered where ${filter})
      select (select count(*) from matched)::int as matching,
        coalesce((select json_agg(json_build_array(w.id, w.position, w.row_data) order by w.display_order)
          from (select * from matched order by display_order offset ${offset} limit ${limit}) w), '[]'::json)::text as rows`);
    const [first] = rowsOf<{ matching: number; rows: string }>(result);
    raw = JSON.parse(first?.rows ?? "[]");
    matching = Number(first?.matching ?? 0);
  }
  const rows = raw.map(([id, position, data]) => {
    const values: Record<string, string> = {};
    for (const column of columns) {
      const value = cellValue(data?.[column.key]);
      if (value !== "") values[column.key] = value;
    }
    return { id, position: Number(position), values };
  });
  return { rows, matching };
}

/** Reads the stored sheet as rows; undefined when the store has never been written. */
export async function readStoreSheet(db: Db): Promise<StoredSheet | undefined> {
  const [meta] = await db.select().from(eventStoreMeta).where(eq(eventStoreMeta.id, 1)).limit(1);
  if (!meta) return undefined;
  const columns = await listStoreColumns(db);
  const rows = (await readStoreRows(db, columns, { lean: true })).map(({ id, values }) => ({ id, values }));
  return { columns, rows, meta: metaOf(meta, columns.length) };
}

/** The CSV of the stored sheet (for exports, backups and revisions). */
export function storedSheetCsv(sheet: Pick<StoredSheet, "columns" | "rows">): string {
  return storeCsv(sheet.columns, sheet.rows);
}

/** How one row changed between two states of the store, by row id. */
export interface RowChangeSummary {
  rowsAdded: number;
  rowsDeleted: number;
  rowsChanged: number;
  changedColumns: string[];
}

/** Matches incoming rows to stored ids: the id given when it is stored and unused, else the stored row with the same Event Key, else a new id. */
export function assignRowIds(incoming: PreparedSheet["rows"], previous: readonly StoredRowState[]): string[] {
  const known = new Set(previous.map((r) => r.id));
  const byKey = new Map<string, string>();
  for (const row of previous) {
    const key = normaliseEventKey(row.values.eventKey);
    if (key && !byKey.has(key)) byKey.set(key, row.id);
  }
  const used = new Set<string>();
  const ids = incoming.map((row) => (row.id && known.has(row.id) && !used.has(row.id) ? (used.add(row.id), row.id) : undefined));
  return incoming.map((row, i) => {
    if (ids[i]) return ids[i]!;
    const match = byKey.get(normaliseEventKey(row.values.eventKey) ?? "");
    const id = match && !used.has(match) && !ids.includes(match) ? match : crypto.randomUUID();
    used.add(id);
    return id;
  });
}

/**
 * Replaces the whole store in one transaction under the store lock: rows keep their ids (given, or
 * matched by Event Key), cell revisions move only where a value changed, a revision is recorded
 * (autosaves by the same actor within 10 minutes merge into one) and the newest 100 are kept.
 * With `baseRevision`, a store that moved on since answers `stale` and nothing is written.
 */
export async function saveStoreSheet(db: Db, input: RawSheet | string, options: SaveOptions): Promise<SaveResult> {
  const prepared = options.allowEmpty && typeof input !== "string" && input.rows.length === 0 ? emptySheet(input) : prepareSheet(input);
  if (!prepared.ok) return prepared;
  const csv = storeCsv(prepared.columns, prepared.rows);
  const checksum = sheetChecksum(csv);
  return writeWithinDeadline(
    db,
    options.deadline,
    async (tx): Promise<SaveResult> => {
    await holdTransactionLock(tx, STORE_LOCK_KEY);
    const [current] = await tx.select().from(eventStoreMeta).where(eq(eventStoreMeta.id, 1)).limit(1);
    const previousColumns = await listStoreColumns(tx as unknown as Db);
    if (options.baseRevision !== undefined && (current?.revision ?? 0) !== options.baseRevision) {
      return refused("conflict", "The sheet changed since it was loaded", { stale: true as const, meta: metaOf(current!, previousColumns.length) });
    }
    const revision = (current?.revision ?? 0) + 1;
    const previousRows = await readStoreRows(tx as unknown as Db, previousColumns);
    const previousById = new Map(previousRows.map((r) => [r.id, r]));
    const ids = assignRowIds(prepared.rows, previousRows);
    const previousKeys = new Set(previousColumns.map((c) => c.key));
    const changedColumns = new Set<string>();
    for (const c of prepared.columns) if (!previousKeys.has(c.key)) changedColumns.add(c.key);
    for (const key of previousKeys) if (!prepared.columns.some((c) => c.key === key)) changedColumns.add(key);
    let rowsAdded = 0;
    let rowsChanged = 0;
    const records = prepared.rows.map((row, i) => {
      const id = ids[i];
      const old = previousById.get(id);
      if (!old) {
        rowsAdded++;
        return { id, displayOrder: i, rowData: row.values, createdRevision: revision, revision, cellRevisions: {} };
      }
      const cellRevisions = { ...old.cellRevisions };
      let changed = false;
      for (const column of prepared.columns) {
        if ((old.values[column.key] ?? "") !== row.values[column.key]) {
          cellRevisions[column.key] = revision;
          changedColumns.add(column.key);
          changed = true;
        }
      }
      if (changed) rowsChanged++;
      return { id, displayOrder: i, rowData: row.values, createdRevision: old.createdRevision, revision: changed ? revision : old.revision, cellRevisions };
    });
    const kept = new Set(ids);
    const rowsDeleted = previousRows.filter((r) => !kept.has(r.id)).length;

    await tx.delete(eventStoreRows);
    await tx.delete(eventStoreColumns);
    await tx.insert(eventStoreColumns).values(prepared.columns.map((c, i) => ({ ...c, displayOrder: i })));
    for (let i = 0; i < records.length; i += 500) await tx.insert(eventStoreRows).values(records.slice(i, i + 500));
    const values = { rowCount: records.length, revision, updatedAt: options.now, updatedBy: options.updatedBy, origin: options.origin, checksum };
    await tx.insert(eventStoreMeta).values({ id: 1, ...values }).onConflictDoUpdate({ target: eventStoreMeta.id, set: values });
    if (options.trigger) {
      await recordRevision(tx as unknown as Db, {
        trigger: options.trigger,
        actor: options.actor ?? "system",
        now: options.now,
        rowCount: records.length,
        columnCount: prepared.columns.length,
        summary: { rowsAdded, rowsDeleted, rowsChanged, changedColumns: [...changedColumns].sort() },
        fromRevision: revision - 1,
        toRevision: revision,
      });
    }
    if (options.publish !== false) {
      const rows = records.map((r) => ({ id: r.id, values: r.rowData }));
      await publishWholeSheet(tx as unknown as Db, { columns: prepared.columns, rows }, { now: options.now, actor: options.actor ?? "system", trigger: options.trigger ?? "seed", storeRevision: revision });
    }
    if (options.within) await options.within(tx as unknown as Db, revision);
    return {
      ok: true as const,
      rowCount: records.length,
      columnCount: prepared.columns.length,
      checksum,
      revision,
      keys: prepared.keys,
      ids,
      missingEventKeyCount: prepared.missingEventKeyCount,
      generatedEventKeyCount: prepared.generatedEventKeyCount,
    };
    },
    // A refusal writes nothing: the transaction is rolled back, whatever ran before it.
    (result) => result.ok,
  );
}

/**
 * Dates a seed written ahead of time (the seeded database template, made at install) to the start
 * that copies it: the store's update and its publish read as made now, with a publish stamp of its
 * own, as when a first start writes the seed itself.
 */
export async function dateSeededStore(db: Db, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(eventStoreMeta).set({ updatedAt: now }).where(eq(eventStoreMeta.id, 1));
    await tx.update(eventStorePublished).set({ publishedAt: now, stamp: crypto.randomUUID() }).where(eq(eventStorePublished.id, 1));
  });
}

/** Empties the store (rows) while keeping its columns and metadata row, and publishes the empty sheet. */
export async function clearStore(db: Db, options: { updatedBy: StoreUpdatedBy; now: Date; actor?: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await holdTransactionLock(tx, STORE_LOCK_KEY);
    await tx.delete(eventStoreRows);
    const [meta] = await tx
      .update(eventStoreMeta)
      .set({ rowCount: 0, revision: sql`${eventStoreMeta.revision} + 1`, updatedAt: options.now, updatedBy: options.updatedBy, checksum: "" })
      .where(eq(eventStoreMeta.id, 1))
      .returning({ revision: eventStoreMeta.revision });
    if (meta) {
      const columns = await listStoreColumns(tx as unknown as Db);
      await publishWholeSheet(tx as unknown as Db, { columns, rows: [] }, { now: options.now, actor: options.actor ?? "system", trigger: "clear", storeRevision: Number(meta.revision) });
    }
  });
}

export type { SheetField };
