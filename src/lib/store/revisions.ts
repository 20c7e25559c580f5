// Store revisions (see docs/store-and-backups.md, "Revisions"): one per non-autosave write and per
// autosave group (same session, under 10 minutes apart), each with its trigger, actor and change
// counts. Full saves and publishes keep a snapshot of the sheet, taken inside Postgres; a partial
// write (autosave, appended submission) keeps only the step it applied, so its cost follows the
// edit, not the sheet. Any kept revision can be rebuilt: its nearest earlier snapshot plus the
// steps after it. The newest 100 are kept, plus the older ones the oldest kept needs. Also the
// readable diff of a revision against the current sheet.

import { desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventStoreRevisions } from "../db/schema/index.ts";
import { parseCsvRecords, parseSheetRecords } from "../sheet/csv.ts";
import { findFieldForHeader } from "../sheet/columns.ts";
import { normaliseEventKey } from "../sheet/keys.ts";
import { cellValue } from "./cells.ts";

export type RevisionTrigger = "autosave" | "publish" | "upload" | "import" | "restore" | "submission" | "status" | "discard" | "host-change" | "rollover";

const REVISIONS_KEPT = 100;
const AUTOSAVE_MERGE_MS = 10 * 60 * 1000;
/** A revision rebuilt from at most this many revisions (a new one past it takes a snapshot). */
const CHAIN_LIMIT = 20;
/** An autosave group holding this many steps is rebased on a snapshot instead of growing. */
const STEPS_LIMIT = 200;
/** How many changed rows a diff lists in full (the counts always cover every row). */
export const DIFF_ROWS_LISTED = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a write changed, by row id. */
export interface RevisionSummary {
  rowsAdded: number;
  rowsDeleted: number;
  rowsChanged: number;
  changedColumns: string[];
}

/**
 * One partial write as applied (values trimmed, keys assigned): columns appended, rows deleted,
 * cells set on existing rows (`[rowId, key, value]`), rows appended at the end (their non-empty
 * cells). Replayed in that order it turns the sheet before the write into the sheet after it.
 */
export interface RevisionStep {
  addColumns?: { key: string; label: string }[];
  deleteRowIds?: string[];
  cells?: [string, string, string][];
  addRows?: { id: string; values: Record<string, string> }[];
}

/** One write to record. */
export interface RevisionEntry {
  trigger: RevisionTrigger;
  actor: string;
  now: Date;
  rowCount: number;
  columnCount: number;
  summary: RevisionSummary;
  /** The store revision before and after the write. */
  fromRevision: number;
  toRevision: number;
  /** The partial write; without it (a full save or a publish) the revision keeps a snapshot. */
  step?: RevisionStep;
}

/** The store as written so far in this transaction, as one JSON text, built by Postgres. */
const SNAPSHOT: SQL = sql`(select json_build_object(
  'columns', coalesce((select json_agg(json_build_array(c.key, c.label) order by c.display_order) from event_store_columns c), '[]'::json),
  'rows', coalesce((select json_agg(json_build_array(r.id, r.row_data) order by r.display_order) from event_store_rows r), '[]'::json)
)::text)`;

/** Newest first: revisions with a store revision by it, then older ones (recorded before it existed) by time. */
const NEWEST_FIRST = [sql`${eventStoreRevisions.storeRevision} desc nulls last`, desc(eventStoreRevisions.createdAt)];

/**
 * Records a revision inside the caller's store transaction. An autosave by the same actor less
 * than 10 minutes after the previous autosave revision, with no write in between, is merged into
 * it (counts added, columns united, its step appended, or a snapshot for a full save). A new revision keeps a snapshot when it is a full save,
 * when some write since the previous revision was not recorded, or when rebuilding it would take
 * more than 20 revisions. Keeps the newest 100 and the ones they are rebuilt from.
 */
export async function recordRevision(tx: Db, entry: RevisionEntry): Promise<void> {
  const counts = { trigger: entry.trigger, actor: entry.actor, rowCount: entry.rowCount, columnCount: entry.columnCount, updatedAt: entry.now, storeRevision: entry.toRevision };
  const [latest] = await tx
    .select({
      id: eventStoreRevisions.id,
      trigger: eventStoreRevisions.trigger,
      actor: eventStoreRevisions.actor,
      updatedAt: eventStoreRevisions.updatedAt,
      rowsAdded: eventStoreRevisions.rowsAdded,
      rowsDeleted: eventStoreRevisions.rowsDeleted,
      rowsChanged: eventStoreRevisions.rowsChanged,
      changedColumns: eventStoreRevisions.changedColumns,
      storeRevision: eventStoreRevisions.storeRevision,
      steps: sql<number>`jsonb_array_length(${eventStoreRevisions.changes})::int`,
    })
    .from(eventStoreRevisions)
    .orderBy(...NEWEST_FIRST)
    .limit(1);
  const follows = latest !== undefined && latest.storeRevision === entry.fromRevision;
  if (follows && entry.trigger === "autosave" && latest.trigger === "autosave" && latest.actor === entry.actor && entry.now.getTime() - latest.updatedAt.getTime() < AUTOSAVE_MERGE_MS) {
    const summary = {
      rowsAdded: latest.rowsAdded + entry.summary.rowsAdded,
      rowsDeleted: latest.rowsDeleted + entry.summary.rowsDeleted,
      rowsChanged: latest.rowsChanged + entry.summary.rowsChanged,
      changedColumns: [...new Set([...latest.changedColumns, ...entry.summary.changedColumns])].sort(),
    };
    // A full save, or a group grown long, is rebased on a snapshot so its step list stays short.
    const content =
      !entry.step || Number(latest.steps) + 1 > STEPS_LIMIT
        ? { sheet: SNAPSHOT, csv: null, changes: sql`'[]'::jsonb`, baseRevision: entry.toRevision }
        : { changes: sql`${eventStoreRevisions.changes} || ${JSON.stringify([entry.step])}::jsonb` };
    await tx
      .update(eventStoreRevisions)
      .set({ ...counts, ...summary, ...content })
      .where(eq(eventStoreRevisions.id, latest.id));
    return;
  }
  const snapshot = !entry.step || !follows || (await chainLength(tx)) >= CHAIN_LIMIT;
  await tx.insert(eventStoreRevisions).values({
    ...counts,
    ...entry.summary,
    createdAt: entry.now,
    ...(snapshot ? { sheet: SNAPSHOT, baseRevision: entry.toRevision } : { changes: [entry.step], baseRevision: entry.fromRevision }),
  });
  await pruneRevisions(tx);
}

/** How many revisions follow the newest snapshot (the length of the newest chain). */
async function chainLength(tx: Db): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(eventStoreRevisions)
    .where(sql`${eventStoreRevisions.storeRevision} > coalesce((select max(s.store_revision) from event_store_revisions s where s.sheet is not null), -1)`);
  return Number(row?.n ?? 0);
}

/** Deletes revisions past the newest 100, except the ones the oldest kept is rebuilt from. */
async function pruneRevisions(tx: Db): Promise<void> {
  const all = await tx
    .select({ id: eventStoreRevisions.id, whole: sql<boolean>`(${eventStoreRevisions.sheet} is not null or ${eventStoreRevisions.csv} is not null)` })
    .from(eventStoreRevisions)
    .orderBy(...NEWEST_FIRST);
  if (all.length <= REVISIONS_KEPT) return;
  let last = REVISIONS_KEPT - 1;
  while (last < all.length - 1 && !all[last].whole) last++;
  const drop = all.slice(last + 1).map((r) => r.id);
  if (drop.length) await tx.delete(eventStoreRevisions).where(inArray(eventStoreRevisions.id, drop));
}

/** A revision as listed (without its content). */
export interface RevisionListing extends RevisionSummary {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  trigger: string;
  actor: string;
  rowCount: number;
  columnCount: number;
}

const listingColumns = {
  id: eventStoreRevisions.id,
  createdAt: eventStoreRevisions.createdAt,
  updatedAt: eventStoreRevisions.updatedAt,
  trigger: eventStoreRevisions.trigger,
  actor: eventStoreRevisions.actor,
  rowCount: eventStoreRevisions.rowCount,
  columnCount: eventStoreRevisions.columnCount,
  rowsAdded: eventStoreRevisions.rowsAdded,
  rowsDeleted: eventStoreRevisions.rowsDeleted,
  rowsChanged: eventStoreRevisions.rowsChanged,
  changedColumns: eventStoreRevisions.changedColumns,
};

/** Store revisions, newest first (without their content). */
export function listRevisions(db: Db, limit = REVISIONS_KEPT): Promise<RevisionListing[]> {
  return db.select(listingColumns).from(eventStoreRevisions).orderBy(...NEWEST_FIRST).limit(limit);
}

/** One revision (without its content), or undefined for an unknown or malformed id. */
export async function findRevision(db: Db, id: string): Promise<RevisionListing | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await db.select(listingColumns).from(eventStoreRevisions).where(eq(eventStoreRevisions.id, id)).limit(1);
  return row;
}

/** The sheet a revision left: columns by key and label, rows with their ids (absent for revisions kept as CSV). */
export interface RevisionSheet {
  columns: { key?: string; label: string }[];
  rows: { id?: string; values: Record<string, string> }[];
}

type StoredSnapshot = { columns: [string, string][]; rows: [string, Record<string, unknown> | null][] };

/** Replays one step on a sheet (see RevisionStep). */
export function applyRevisionStep(sheet: RevisionSheet, step: RevisionStep): void {
  for (const column of step.addColumns ?? []) if (!sheet.columns.some((c) => c.key === column.key)) sheet.columns.push({ key: column.key, label: column.label });
  if (step.deleteRowIds?.length) {
    const gone = new Set(step.deleteRowIds);
    sheet.rows = sheet.rows.filter((r) => !r.id || !gone.has(r.id));
  }
  if (step.cells?.length) {
    const byId = new Map(sheet.rows.map((r) => [r.id, r]));
    for (const [rowId, key, value] of step.cells) {
      const row = byId.get(rowId);
      if (row) row.values[key] = value;
    }
  }
  for (const row of step.addRows ?? []) sheet.rows.push({ id: row.id, values: { ...row.values } });
}

/**
 * The sheet as a revision left it: its snapshot (or the revision it follows, rebuilt the same way)
 * with its steps replayed. Undefined for an unknown id; "unavailable" when a revision it needs was
 * deleted (cannot happen with the pruning rule, but a hand-edited table could do it).
 */
export async function readRevisionSheet(db: Db, id: string): Promise<RevisionSheet | "unavailable" | undefined> {
  if (!UUID.test(id)) return undefined;
  const head = { id: eventStoreRevisions.id, baseRevision: eventStoreRevisions.baseRevision, whole: sql<boolean>`(${eventStoreRevisions.sheet} is not null or ${eventStoreRevisions.csv} is not null)` };
  const [target] = await db.select(head).from(eventStoreRevisions).where(eq(eventStoreRevisions.id, id)).limit(1);
  if (!target) return undefined;
  const chain = [target];
  while (!chain[chain.length - 1].whole) {
    const base = chain[chain.length - 1].baseRevision;
    const [previous] = base === null ? [] : await db.select(head).from(eventStoreRevisions).where(eq(eventStoreRevisions.storeRevision, base)).limit(1);
    if (!previous || chain.length > REVISIONS_KEPT) return "unavailable";
    chain.push(previous);
  }
  const bodies = await db
    .select({ id: eventStoreRevisions.id, sheet: eventStoreRevisions.sheet, csv: eventStoreRevisions.csv, changes: eventStoreRevisions.changes })
    .from(eventStoreRevisions)
    .where(inArray(eventStoreRevisions.id, chain.map((r) => r.id)));
  const byId = new Map(bodies.map((b) => [b.id, b]));
  const root = byId.get(chain[chain.length - 1].id)!;
  const sheet = root.sheet !== null ? snapshotSheet(root.sheet) : csvSheet(root.csv ?? "");
  for (const link of chain.reverse()) for (const step of (byId.get(link.id)?.changes ?? []) as RevisionStep[]) applyRevisionStep(sheet, step);
  return sheet;
}

function snapshotSheet(text: string): RevisionSheet {
  const parsed = JSON.parse(text) as StoredSnapshot;
  return {
    columns: parsed.columns.map(([key, label]) => ({ key, label })),
    rows: parsed.rows.map(([id, data]) => ({ id, values: Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, cellValue(v)])) })),
  };
}

/** A revision kept as CSV (recorded before snapshots): columns by label, no row ids. */
function csvSheet(csv: string): RevisionSheet {
  const [headers = [], ...rows] = parseCsvRecords(csv);
  return { columns: headers.map((label) => ({ label })), rows: rows.map((cells) => ({ values: Object.fromEntries(headers.map((label, i) => [label, cells[i] ?? ""])) })) };
}

/** A revision sheet as headers and rows of cells (and the ids and custom keys, when known), ready for a save. */
export function revisionRecords(sheet: RevisionSheet): { headers: string[]; rows: string[][]; ids: (string | undefined)[]; columnKeys: (string | undefined)[] } {
  const cellKey = (c: RevisionSheet["columns"][number]) => c.key ?? c.label;
  return {
    headers: sheet.columns.map((c) => c.label),
    rows: sheet.rows.map((r) => sheet.columns.map((c) => (r.values[cellKey(c)] ?? "").trim())),
    ids: sheet.rows.map((r) => r.id),
    columnKeys: sheet.columns.map((c) => c.key),
  };
}

/** A sheet in the shape a diff compares: column labels and rows of cells by label. */
export interface DiffSheet {
  labels: string[];
  rows: Record<string, string>[];
}

/** One row that differs between a revision and the current sheet. */
export interface RowDiff {
  eventKey: string;
  title: string;
  change: "added" | "deleted" | "changed";
  /** For changed rows: each differing cell, by column label. */
  cells?: { column: string; before: string; after: string }[];
}

/** The readable diff of a revision (before) against the current sheet (after). */
export interface SheetDiff {
  rowsAdded: number;
  rowsDeleted: number;
  rowsChanged: number;
  columnsAdded: string[];
  columnsDeleted: string[];
  /** At most DIFF_ROWS_LISTED rows, in current sheet order then deleted rows. */
  rows: RowDiff[];
  truncated: boolean;
}

/** A sheet as a diff sheet (rows by label); rows whose mapped cells are all empty are left out, as a CSV read does. */
export function diffSheetFromRecords(headers: readonly string[], rows: readonly (readonly string[])[]): DiffSheet {
  const parsed = parseSheetRecords([headers, ...rows]);
  return { labels: parsed.columns, rows: parsed.rows.map((row) => Object.fromEntries(parsed.columns.map((label, i) => [label, row.cells[i] ?? ""]))) };
}

function keyOf(row: Record<string, string>, keyLabel: string | undefined, index: number): string {
  return (keyLabel ? normaliseEventKey(row[keyLabel]) : null) ?? `#${index}`;
}

/** Rows matched by Event Key; cells compared by column label. */
export function diffSheets(before: DiffSheet, after: DiffSheet): SheetDiff {
  const keyLabel = (labels: string[]) => labels.find((l) => findFieldForHeader(l) === "eventKey");
  const titleLabel = (labels: string[]) => labels.find((l) => findFieldForHeader(l) === "title");
  const beforeKey = keyLabel(before.labels);
  const afterKey = keyLabel(after.labels);
  const beforeTitle = titleLabel(before.labels) ?? "";
  const afterTitle = titleLabel(after.labels) ?? "";
  const old = new Map(before.rows.map((row, i) => [keyOf(row, beforeKey, i), row]));
  const labels = [...new Set([...before.labels, ...after.labels])];
  const rows: RowDiff[] = [];
  let rowsAdded = 0;
  let rowsChanged = 0;
  const seen = new Set<string>();
  after.rows.forEach((row, i) => {
    const key = keyOf(row, afterKey, i);
    seen.add(key);
    const previous = old.get(key);
    if (!previous) {
      rowsAdded++;
      rows.push({ eventKey: key, title: row[afterTitle] ?? "", change: "added" });
      return;
    }
    const cells = labels.filter((l) => (previous[l] ?? "") !== (row[l] ?? "")).map((column) => ({ column, before: previous[column] ?? "", after: row[column] ?? "" }));
    if (cells.length === 0) return;
    rowsChanged++;
    rows.push({ eventKey: key, title: row[afterTitle] ?? "", change: "changed", cells });
  });
  let rowsDeleted = 0;
  for (const [key, row] of old) {
    if (seen.has(key)) continue;
    rowsDeleted++;
    rows.push({ eventKey: key, title: row[beforeTitle] ?? "", change: "deleted" });
  }
  return {
    rowsAdded,
    rowsDeleted,
    rowsChanged,
    columnsAdded: after.labels.filter((l) => !before.labels.includes(l)),
    columnsDeleted: before.labels.filter((l) => !after.labels.includes(l)),
    rows: rows.slice(0, DIFF_ROWS_LISTED),
    truncated: rows.length > DIFF_ROWS_LISTED,
  };
}
