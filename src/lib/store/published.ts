// The published revision (see docs/store-and-backups.md, "Published revision"): the sheet visitors
// see. The working sheet (event_store_rows) is what the editor autosaves; it reaches visitors only
// when a write publishes. A whole publish copies the working sheet as written in the same
// transaction; a partial publish (an accepted submission, a status change) applies only its own
// step to the published sheet, so drafts elsewhere stay drafts. Each publish also keeps, per row,
// when it was first published, when its date, time or venue last changed, and a sequence that
// rises with every change: the "new" and "updated" markers and the calendar SEQUENCE.

import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventStorePublished } from "../db/schema/index.ts";
import type { PublishedRowState } from "../sheet/types.ts";
import { HEADER_BY_FIELD, type SheetField } from "../sheet/columns.ts";
import { cellValue } from "./cells.ts";
import { applyRevisionStep, type RevisionSheet, type RevisionStep } from "./revisions.ts";

/** A column and a row of the published sheet. */
export interface PublishedColumn {
  key: string;
  label: string;
}
export interface PublishedRow {
  id: string;
  values: Record<string, string>;
}

/** The published sheet with what publishing recorded of each row. */
export interface PublishedSheet {
  version: number;
  stamp: string;
  storeRevision: number;
  publishedAt: Date;
  publishedBy: string;
  trigger: string;
  columns: PublishedColumn[];
  rows: PublishedRow[];
  states: ReadonlyMap<string, PublishedRowState>;
}

/** Who published and why, for a publish inside a store write. */
export interface PublishOptions {
  now: Date;
  actor: string;
  trigger: string;
  /** The store revision the write produced. */
  storeRevision: number;
}

/** Cells whose change a visitor must notice ("updated HH:MM"): when and where the event happens. */
export const NOTICED_FIELDS = ["date", "dateTo", "startTime", "endTime", "location", "area"] as const;

/** [first published (epoch ms, 0 = unknown), date/time/venue changed (epoch ms, 0 = never), sequence]. */
type StateTuple = [number, number, number];
type SheetJson = { columns: [string, string][]; rows: [string, Record<string, unknown> | null][] };

/** The stamp of the published revision (new on every publish), or undefined when nothing was ever published (one indexed row). */
export async function findPublishedStamp(db: Db): Promise<string | undefined> {
  const [row] = await db.select({ stamp: eventStorePublished.stamp }).from(eventStorePublished).where(eq(eventStorePublished.id, 1)).limit(1);
  return row?.stamp;
}

/** The columns, rows and row states of a published sheet, from its stored JSON texts (the published revision's, or an edition archive's). */
export function parsePublishedTexts(sheetText: string, rowStatesText: string): Pick<PublishedSheet, "columns" | "rows" | "states"> {
  const sheet = JSON.parse(sheetText) as SheetJson;
  const tuples = JSON.parse(rowStatesText || "{}") as Record<string, StateTuple>;
  const states = new Map<string, PublishedRowState>();
  for (const [id, [first, changed, sequence]] of Object.entries(tuples)) {
    states.set(id, { firstPublishedAt: first ? new Date(first).toISOString() : null, changedAt: changed ? new Date(changed).toISOString() : null, sequence });
  }
  const columns = sheet.columns.map(([key, label]) => ({ key, label }));
  return { columns, rows: sheet.rows.map(([id, data]) => ({ id, values: Object.fromEntries(columns.map((c) => [c.key, cellValue(data?.[c.key])])) })), states };
}

/** The published sheet, or undefined when nothing was ever published. */
export async function readPublishedSheet(db: Db): Promise<PublishedSheet | undefined> {
  const [row] = await db.select().from(eventStorePublished).where(eq(eventStorePublished.id, 1)).limit(1);
  if (!row) return undefined;
  return {
    version: Number(row.version),
    stamp: row.stamp,
    storeRevision: Number(row.storeRevision),
    publishedAt: row.publishedAt,
    publishedBy: row.publishedBy,
    trigger: row.trigger,
    ...parsePublishedTexts(row.sheet, row.rowStates),
  };
}

/** The published sheet last read through `readPublishedSheetKept`: one slot per process, made by `buildDeps`. */
export interface KeptPublishedSheet {
  sheet?: PublishedSheet;
}

/** What reads the kept published sheet: the database and the process's slot. */
export interface PublishedSheetDeps {
  db: Db;
  keptPublishedSheet: KeptPublishedSheet;
}

/**
 * The published sheet for readers that only compare with it (the editor's draft marks, the
 * unpublished changes): kept while the stamp is the same, so a read costs one indexed row instead of
 * parsing the whole sheet. Every publish writes a new stamp, on any instance, so the next read sees
 * it. The sheet returned is shared: callers must not change it.
 */
export async function readPublishedSheetKept(deps: PublishedSheetDeps): Promise<PublishedSheet | undefined> {
  const stamp = await findPublishedStamp(deps.db);
  if (stamp === undefined) return undefined;
  const last = deps.keptPublishedSheet.sheet;
  if (last && last.stamp === stamp) return last;
  const published = await readPublishedSheet(deps.db);
  if (published) deps.keptPublishedSheet.sheet = published;
  return published;
}

function tupleOf(state: PublishedRowState | undefined): StateTuple {
  if (!state) return [0, 0, 0];
  return [state.firstPublishedAt ? Date.parse(state.firstPublishedAt) : 0, state.changedAt ? Date.parse(state.changedAt) : 0, state.sequence];
}

function differs(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>, keys: Iterable<string>): boolean {
  for (const key of keys) if ((a[key] ?? "") !== (b[key] ?? "")) return true;
  return false;
}

/**
 * Row states after a publish: a row new to the published sheet is first published now (unknown
 * when nothing was published before, so a first publish marks nothing "new"); a row whose cells
 * changed gets the next sequence, and "changed" now when a noticed cell moved.
 */
function nextStates(previous: PublishedSheet | undefined, rows: readonly PublishedRow[], columns: readonly PublishedColumn[], now: number): Record<string, StateTuple> {
  const before = new Map(previous?.rows.map((r) => [r.id, r]) ?? []);
  const keys = new Set([...columns.map((c) => c.key), ...(previous?.columns.map((c) => c.key) ?? [])]);
  const out: Record<string, StateTuple> = {};
  for (const row of rows) {
    const old = before.get(row.id);
    if (!old) {
      out[row.id] = [previous ? now : 0, 0, 0];
      continue;
    }
    const [first, changed, sequence] = tupleOf(previous?.states.get(row.id));
    if (!differs(old.values, row.values, keys)) {
      out[row.id] = [first, changed, sequence];
      continue;
    }
    out[row.id] = [first, differs(old.values, row.values, NOTICED_FIELDS) ? now : changed, sequence + 1];
  }
  return out;
}

async function write(tx: Db, previous: PublishedSheet | undefined, columns: readonly PublishedColumn[], rows: readonly PublishedRow[], options: PublishOptions): Promise<number> {
  const version = (previous?.version ?? 0) + 1;
  const sheet: SheetJson = {
    columns: columns.map((c) => [c.key, c.label]),
    rows: rows.map((r) => [r.id, Object.fromEntries(Object.entries(r.values).filter(([, v]) => v !== ""))]),
  };
  const values = {
    version,
    stamp: crypto.randomUUID(),
    storeRevision: options.storeRevision,
    publishedAt: options.now,
    publishedBy: options.actor,
    trigger: options.trigger,
    rowCount: rows.length,
    sheet: JSON.stringify(sheet),
    rowStates: JSON.stringify(nextStates(previous, rows, columns, options.now.getTime())),
  };
  await tx.insert(eventStorePublished).values({ id: 1, ...values }).onConflictDoUpdate({ target: eventStorePublished.id, set: values });
  return version;
}

/** Publishes a whole sheet (the working sheet as the caller's transaction just wrote it). Returns the new version. */
export async function publishWholeSheet(tx: Db, sheet: { columns: readonly PublishedColumn[]; rows: readonly PublishedRow[] }, options: PublishOptions): Promise<number> {
  return write(tx, await readPublishedSheet(tx), sheet.columns, sheet.rows, options);
}

/**
 * Publishes one partial write and nothing else: its new columns, its deleted and appended rows,
 * and its cells on rows that are already published (a cell of a row that was never published
 * stays a draft). With nothing published yet, `whole` gives the sheet to publish instead.
 */
export async function publishStep(tx: Db, step: RevisionStep, options: PublishOptions, whole: () => Promise<{ columns: PublishedColumn[]; rows: PublishedRow[] }>): Promise<number> {
  const previous = await readPublishedSheet(tx);
  if (!previous) {
    const sheet = await whole();
    return write(tx, previous, sheet.columns, sheet.rows, options);
  }
  const sheet: RevisionSheet = { columns: previous.columns.map((c) => ({ ...c })), rows: previous.rows.map((r) => ({ id: r.id, values: { ...r.values } })) };
  applyRevisionStep(sheet, step);
  const columns = sheet.columns.map((c) => ({ key: c.key ?? c.label, label: c.label }));
  // A core cell set on a sheet published before its column existed brings the column along.
  for (const [, key] of step.cells ?? []) {
    if (!columns.some((c) => c.key === key) && key in HEADER_BY_FIELD) columns.push({ key, label: HEADER_BY_FIELD[key as SheetField] });
  }
  const rows = sheet.rows.map((r) => ({ id: r.id!, values: r.values }));
  return write(tx, previous, columns, rows, options);
}
