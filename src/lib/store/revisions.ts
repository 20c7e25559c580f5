// Store revisions (see docs/store-and-backups.md, "Revisions"): one per non-autosave write and per
// autosave group (same session, under 10 minutes apart), each with its trigger, actor, change
// counts and the full CSV; the newest 100 are kept. Also the readable diff of a revision against
// the current sheet.

import { desc, eq, lt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventStoreRevisions } from "../db/schema/index.ts";
import { parseSheetCsv } from "../sheet/csv.ts";
import { findFieldForHeader } from "../sheet/columns.ts";
import { normaliseEventKey } from "../sheet/keys.ts";

export type RevisionTrigger = "autosave" | "publish" | "upload" | "import" | "restore" | "submission";

const REVISIONS_KEPT = 100;
const AUTOSAVE_MERGE_MS = 10 * 60 * 1000;
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

/** One write to record. */
export interface RevisionEntry {
  trigger: RevisionTrigger;
  actor: string;
  now: Date;
  rowCount: number;
  columnCount: number;
  summary: RevisionSummary;
  csv: string;
}

/**
 * Records a revision inside the caller's store transaction. An autosave by the same actor less
 * than 10 minutes after the previous autosave revision merges into it (counts added, columns
 * united, CSV replaced). Keeps the newest 100.
 */
export async function recordRevision(tx: Db, entry: RevisionEntry): Promise<void> {
  const values = { trigger: entry.trigger, actor: entry.actor, rowCount: entry.rowCount, columnCount: entry.columnCount, ...entry.summary, csv: entry.csv, updatedAt: entry.now };
  if (entry.trigger === "autosave") {
    const [latest] = await tx
      .select({ id: eventStoreRevisions.id, trigger: eventStoreRevisions.trigger, actor: eventStoreRevisions.actor, updatedAt: eventStoreRevisions.updatedAt, rowsAdded: eventStoreRevisions.rowsAdded, rowsDeleted: eventStoreRevisions.rowsDeleted, rowsChanged: eventStoreRevisions.rowsChanged, changedColumns: eventStoreRevisions.changedColumns })
      .from(eventStoreRevisions)
      .orderBy(desc(eventStoreRevisions.createdAt))
      .limit(1);
    if (latest && latest.trigger === "autosave" && latest.actor === entry.actor && entry.now.getTime() - latest.updatedAt.getTime() < AUTOSAVE_MERGE_MS) {
      await tx
        .update(eventStoreRevisions)
        .set({
          ...values,
          rowsAdded: latest.rowsAdded + entry.summary.rowsAdded,
          rowsDeleted: latest.rowsDeleted + entry.summary.rowsDeleted,
          rowsChanged: latest.rowsChanged + entry.summary.rowsChanged,
          changedColumns: [...new Set([...latest.changedColumns, ...entry.summary.changedColumns])].sort(),
        })
        .where(eq(eventStoreRevisions.id, latest.id));
      return;
    }
  }
  await tx.insert(eventStoreRevisions).values({ ...values, createdAt: entry.now });
  const keep = await tx.select({ createdAt: eventStoreRevisions.createdAt }).from(eventStoreRevisions).orderBy(desc(eventStoreRevisions.createdAt)).offset(REVISIONS_KEPT - 1).limit(1);
  if (keep[0]) await tx.delete(eventStoreRevisions).where(lt(eventStoreRevisions.createdAt, keep[0].createdAt));
}

/** A revision as listed (without its CSV). */
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

/** Store revisions, newest first (without their CSV). */
export function listRevisions(db: Db, limit = REVISIONS_KEPT): Promise<RevisionListing[]> {
  return db.select(listingColumns).from(eventStoreRevisions).orderBy(desc(eventStoreRevisions.createdAt)).limit(limit);
}

/** One revision with its CSV, or undefined for an unknown or malformed id. */
export async function findRevision(db: Db, id: string): Promise<(RevisionListing & { csv: string }) | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await db.select({ ...listingColumns, csv: eventStoreRevisions.csv }).from(eventStoreRevisions).where(eq(eventStoreRevisions.id, id)).limit(1);
  return row;
}

/** One revision's CSV, or undefined. */
export async function findRevisionCsv(db: Db, id: string): Promise<string | undefined> {
  return (await findRevision(db, id))?.csv;
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

/** A revision CSV as a diff sheet (rows by label); rows without a key are matched by position. */
export function diffSheetFromCsv(csv: string): DiffSheet {
  const parsed = parseSheetCsv(csv);
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
